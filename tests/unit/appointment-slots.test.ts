import { describe, expect, it } from 'vitest';
import { ALWAYS_OPEN, type HoursRange } from '../../api/contract/shop-hours';
import { freeSlots, type SlotRules } from '../../api/src/features/schedule/slots';
import { isStartable } from '../../api/src/features/schedule/appointments';

/** The shop's free slots (issue #22 item 3), with the clock as an argument. */
const rules = (over: Partial<SlotRules> = {}): SlotRules => ({
  hours: ALWAYS_OPEN,
  breaks: [],
  timeZone: 'Asia/Kolkata',
  slotMinutes: 30,
  bufferMinutes: 0,
  booked: [],
  ...over,
});
const every = (from: string, to: string): HoursRange[] =>
  ([1, 2, 3, 4, 5, 6, 7] as const).map((day) => ({ day, from, to }));
const local = (iso: string, zone: string) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));

describe('freeSlots', () => {
  // Monday 6 January 2025, 09:10 in Chennai (03:40 UTC).
  const monday0910 = new Date('2025-01-06T03:40:00Z');

  it('cuts the hours into slots after now, within the horizon', () => {
    const slots = freeSlots(rules({ hours: every('10:00', '12:00') }), monday0910, 2);
    expect(slots.slice(0, 5).map((s) => local(s.startsAt, 'Asia/Kolkata'))).toEqual([
      'Mon 10:00',
      'Mon 10:30',
      'Mon 11:00',
      'Mon 11:30',
      'Tue 10:00',
    ]);
    expect(slots).toHaveLength(8);
    expect(slots[0]).toEqual({ startsAt: '2025-01-06T04:30:00.000Z', endsAt: '2025-01-06T05:00:00.000Z' });
    // A slot that has begun is not offered.
    const at1015 = new Date('2025-01-06T04:45:00Z');
    expect(
      local(freeSlots(rules({ hours: every('10:00', '12:00') }), at1015, 1)[0].startsAt, 'Asia/Kolkata'),
    ).toBe('Mon 10:30');
  });

  it('runs hours past midnight into the next day (22:00–02:00), and not when the range is over', () => {
    const hours: HoursRange[] = [{ day: 1, from: '22:00', to: '02:00' }];
    const slots = freeSlots(rules({ hours, slotMinutes: 60 }), monday0910, 7);
    expect(slots.map((s) => local(s.startsAt, 'Asia/Kolkata'))).toEqual([
      'Mon 22:00',
      'Mon 23:00',
      'Tue 00:00',
      'Tue 01:00',
    ]);
    // At Tuesday 00:30 the range of Monday night still runs: 01:00 is left.
    const tue0030 = new Date('2025-01-06T19:00:00Z');
    expect(
      freeSlots(rules({ hours, slotMinutes: 60 }), tue0030, 1).map((s) => local(s.startsAt, 'Asia/Kolkata')),
    ).toEqual(['Tue 01:00']);
  });

  it('follows the shop’s own time zone (a shop in New York), daylight saving included', () => {
    const ny = rules({ hours: every('10:00', '11:00'), timeZone: 'America/New_York', slotMinutes: 60 });
    // Friday 7 March 2025 12:00 UTC is 07:00 in New York; clocks go forward on Sunday 9 March.
    const slots = freeSlots(ny, new Date('2025-03-07T12:00:00Z'), 4);
    expect(slots.map((s) => s.startsAt)).toEqual([
      '2025-03-07T15:00:00.000Z', // Fri 10:00 EST (UTC-5)
      '2025-03-08T15:00:00.000Z', // Sat 10:00 EST
      '2025-03-09T14:00:00.000Z', // Sun 10:00 EDT (UTC-4)
      '2025-03-10T14:00:00.000Z', // Mon 10:00 EDT
    ]);
    expect(slots.every((s) => local(s.startsAt, 'America/New_York').endsWith('10:00'))).toBe(true);
  });

  it('keeps breaks, the buffer and booked appointments out', () => {
    const hours = every('10:00', '13:00');
    const breaks: HoursRange[] = [{ day: 1, from: '11:00', to: '11:30' }];
    const booked = [{ startsAt: new Date('2025-01-06T07:00:00Z'), endsAt: new Date('2025-01-06T07:30:00Z') }]; // 12:30
    const slots = freeSlots(rules({ hours, breaks, booked, bufferMinutes: 15 }), monday0910, 1);
    // Step 45 min: 10:00, 10:45 (touches the break), 11:30 (ends 30 min before the booking), 12:15 (overlaps it).
    expect(slots.map((s) => local(s.startsAt, 'Asia/Kolkata'))).toEqual(['Mon 10:00', 'Mon 11:30']);
    // Without the buffer, slots touch the booking but never overlap it.
    const plain = freeSlots(rules({ hours, booked }), monday0910, 1).map((s) =>
      local(s.startsAt, 'Asia/Kolkata'),
    );
    expect(plain).toEqual(['Mon 10:00', 'Mon 10:30', 'Mon 11:00', 'Mon 11:30', 'Mon 12:00']);
    // A booking 15 minutes after a slot's end keeps it; 10 minutes does not.
    const near = [{ startsAt: new Date('2025-01-06T06:25:00Z'), endsAt: new Date('2025-01-06T06:55:00Z') }]; // 11:55
    const withNear = freeSlots(
      rules({ hours: every('10:00', '12:00'), booked: near, bufferMinutes: 15 }),
      monday0910,
      1,
    );
    expect(withNear.map((s) => local(s.startsAt, 'Asia/Kolkata'))).toEqual(['Mon 10:00', 'Mon 10:45']);
  });

  it('offers nothing to a shop without hours', () => {
    expect(freeSlots(rules({ hours: [] }), monday0910, 14)).toEqual([]);
  });
});

describe('the call window of an appointment', () => {
  const a = { status: 'booked' as const, starts_at: '2025-01-06T05:00:00Z', ends_at: '2025-01-06T05:30:00Z' };
  it('opens 5 minutes before the start and closes at the end (expiry), only while booked', () => {
    expect(isStartable(a, new Date('2025-01-06T04:54:59Z'))).toBe(false);
    expect(isStartable(a, new Date('2025-01-06T04:55:00Z'))).toBe(true);
    expect(isStartable(a, new Date('2025-01-06T05:29:59Z'))).toBe(true);
    expect(isStartable(a, new Date('2025-01-06T05:30:00Z'))).toBe(false);
    expect(isStartable({ ...a, status: 'cancelled' as never }, new Date('2025-01-06T05:10:00Z'))).toBe(false);
  });
});
