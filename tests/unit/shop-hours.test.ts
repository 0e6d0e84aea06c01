import { describe, expect, it } from 'vitest';
import {
  ALWAYS_OPEN,
  canRing,
  nextOpening,
  shopHoursSchema,
  type HoursRange,
} from '../../api/contract/shop-hours';
import { hoursAt, shopCallState, type ShopStateRow } from '../../api/src/features/schedule/hours';

// A controlled clock: every test names its instant in UTC. 2026-03-02 is a Monday (Asia/Kolkata is UTC+5:30).
const at = (iso: string) => new Date(iso);

const shop = (over: Partial<ShopStateRow> = {}): ShopStateRow => ({
  video_call_enabled: true,
  away: false,
  away_message: null,
  video_hours: [{ day: 1, from: '10:00', to: '19:00' }],
  time_zone: 'Asia/Kolkata',
  last_polled_at: null,
  has_push: true,
  ...over,
});

describe('shop call state (one function for cards, directory, storefront and initiate)', () => {
  const monday11 = at('2026-03-02T05:30:00Z'); // Monday 11:00 in Kolkata

  it('is available in hours when the app polled within the window, offline (rung by push) when it did not', () => {
    expect(shopCallState(shop({ last_polled_at: at('2026-03-02T05:29:55Z') }), monday11)).toEqual({
      state: 'available',
    });
    expect(shopCallState(shop({ last_polled_at: at('2026-03-02T05:20:00Z') }), monday11)).toEqual({
      state: 'offline',
    });
    expect(canRing({ state: 'offline' })).toBe(true);
  });

  it('is unreachable in hours when no app is open and no device takes push: nothing would ring (#40)', () => {
    const stale = at('2026-03-02T05:20:00Z');
    expect(shopCallState(shop({ last_polled_at: stale, has_push: false }), monday11)).toEqual({
      state: 'unreachable',
    });
    expect(shopCallState(shop({ last_polled_at: null, has_push: false }), monday11)).toEqual({
      state: 'unreachable',
    });
    // An open app is enough without push; outside hours the shop is closed, whatever its devices.
    expect(
      shopCallState(shop({ last_polled_at: at('2026-03-02T05:29:55Z'), has_push: false }), monday11),
    ).toEqual({ state: 'available' });
    expect(shopCallState(shop({ has_push: false }), at('2026-03-02T14:30:00Z')).state).toBe('closed');
    expect(canRing({ state: 'unreachable' })).toBe(false);
  });

  it('is closed outside hours with the next opening, away with its message, disabled without video', () => {
    const monday20 = at('2026-03-02T14:30:00Z'); // Monday 20:00 in Kolkata
    // The next Monday 10:00 in Kolkata.
    expect(shopCallState(shop(), monday20)).toEqual({
      state: 'closed',
      opensAt: '2026-03-09T04:30:00.000Z',
      timeZone: 'Asia/Kolkata',
    });
    expect(shopCallState(shop({ away: true, away_message: 'Back after lunch' }), monday11)).toEqual({
      state: 'away',
      message: 'Back after lunch',
    });
    expect(shopCallState(shop({ video_call_enabled: false, away: true }), monday11)).toEqual({
      state: 'disabled',
    });
    expect(shopCallState(shop({ video_hours: [] }), monday11)).toEqual({
      state: 'closed',
      opensAt: null,
      timeZone: 'Asia/Kolkata',
    });
    expect(canRing({ state: 'closed', opensAt: null, timeZone: 'Asia/Kolkata' })).toBe(false);
    expect(canRing({ state: 'away', message: null })).toBe(false);
  });

  it('keeps hours across midnight: Friday 22:00-02:00 is open early on Saturday, closed at 02:00', () => {
    const hours: HoursRange[] = [{ day: 5, from: '22:00', to: '02:00' }];
    // Friday 2026-03-06 23:30 IST, Saturday 01:59 IST, Saturday 02:00 IST.
    expect(hoursAt(hours, 'Asia/Kolkata', at('2026-03-06T18:00:00Z')).open).toBe(true);
    const lateNight = hoursAt(hours, 'Asia/Kolkata', at('2026-03-06T20:29:00Z'));
    expect(lateNight.open).toBe(true);
    expect(lateNight.closesAt?.toISOString()).toBe('2026-03-06T20:30:00.000Z');
    const closed = hoursAt(hours, 'Asia/Kolkata', at('2026-03-06T20:30:00Z'));
    expect(closed.open).toBe(false);
    expect(closed.opensAt?.toISOString()).toBe('2026-03-13T16:30:00.000Z');
    // Friday 21:59 IST: closed, opening at 22:00 the same evening.
    expect(hoursAt(hours, 'Asia/Kolkata', at('2026-03-06T16:29:00Z')).opensAt?.toISOString()).toBe(
      '2026-03-06T16:30:00.000Z',
    );
  });

  it('reads Sunday past midnight into Monday, and whole days back to back as one opening', () => {
    const sunday: HoursRange[] = [{ day: 7, from: '23:00', to: '01:00' }];
    expect(hoursAt(sunday, 'Asia/Kolkata', at('2026-03-01T19:00:00Z')).open).toBe(true); // Mon 00:30 IST
    const always = hoursAt(ALWAYS_OPEN, 'Asia/Kolkata', at('2026-03-01T18:30:00Z')); // Mon 00:00 IST
    expect(always.open).toBe(true);
  });

  it('uses the shop’s own time zone (New York, daylight saving time included)', () => {
    const hours: HoursRange[] = [{ day: 1, from: '10:00', to: '18:00' }];
    // 2026-03-09 is a Monday after the US switch to EDT (UTC-4): 10:00 there is 14:00 UTC.
    expect(hoursAt(hours, 'America/New_York', at('2026-03-09T13:59:00Z'))).toMatchObject({
      open: false,
      opensAt: at('2026-03-09T14:00:00Z'),
    });
    expect(hoursAt(hours, 'America/New_York', at('2026-03-09T14:00:00Z')).open).toBe(true);
    // A week earlier (EST, UTC-5) 10:00 is 15:00 UTC.
    expect(hoursAt(hours, 'America/New_York', at('2026-03-02T14:30:00Z'))).toMatchObject({
      open: false,
      opensAt: at('2026-03-02T15:00:00Z'),
    });
    // The same instant is in hours for a Kolkata shop whose hours are 19:00-21:00 (20:00 IST).
    expect(
      hoursAt([{ day: 1, from: '19:00', to: '21:00' }], 'Asia/Kolkata', at('2026-03-02T14:30:00Z')).open,
    ).toBe(true);
  });
});

describe('next-opening text, in the viewer’s time zone and language', () => {
  const now = at('2026-03-02T06:00:00Z'); // Monday 11:30 IST

  it('says "today" for an opening later the same day, the weekday within a week, else the date', () => {
    expect(nextOpening('2026-03-02T10:30:00Z', now, 'Asia/Kolkata', 'en-IN')).toEqual({
      kind: 'today',
      day: '',
      time: '4:00 pm',
    });
    expect(nextOpening('2026-03-03T04:30:00Z', now, 'Asia/Kolkata', 'en-IN')).toEqual({
      kind: 'day',
      day: 'Tuesday',
      time: '10:00 am',
    });
    expect(nextOpening('2026-03-20T04:30:00Z', now, 'Asia/Kolkata', 'en-IN')).toMatchObject({
      kind: 'date',
      day: '20 March',
    });
  });

  it('names days in Tamil and follows the viewer’s zone (a London viewer sees the London day and time)', () => {
    const ta = nextOpening('2026-03-03T04:30:00Z', now, 'Asia/Kolkata', 'ta-IN');
    expect(ta.kind).toBe('day');
    expect(ta.day).toBe('செவ்வாய்');
    // Tuesday 04:30 UTC is Tuesday 04:30 in London (GMT): the day and time are London's.
    expect(nextOpening('2026-03-03T04:30:00Z', now, 'Europe/London', 'en-GB')).toEqual({
      kind: 'day',
      day: 'Tuesday',
      time: '4:30',
    });
    // Monday 20:00 UTC is Tuesday 01:30 in Kolkata but still Monday in London.
    expect(nextOpening('2026-03-02T20:00:00Z', now, 'Europe/London', 'en-GB').kind).toBe('today');
    expect(nextOpening('2026-03-02T20:00:00Z', now, 'Asia/Kolkata', 'en-IN').kind).toBe('day');
  });
});

describe('the hours form schema', () => {
  const base = { timeZone: 'Asia/Kolkata', away: false, awayMessage: null };

  it('accepts several ranges a day, 24:00 and ranges across midnight', () => {
    const parsed = shopHoursSchema.safeParse({
      ...base,
      hours: [
        { day: 1, from: '10:00', to: '13:00' },
        { day: 1, from: '16:00', to: '20:00' },
        { day: 2, from: '00:00', to: '24:00' },
        { day: 5, from: '22:00', to: '02:00' },
      ],
    });
    expect(parsed.success).toBe(true);
  });

  it('refuses overlaps (also across midnight), empty ranges, bad times and unknown zones', () => {
    const fails = (input: object) => !shopHoursSchema.safeParse({ ...base, ...input }).success;
    expect(
      fails({
        hours: [
          { day: 1, from: '10:00', to: '13:00' },
          { day: 1, from: '12:00', to: '14:00' },
        ],
      }),
    ).toBe(true);
    expect(
      fails({
        hours: [
          { day: 1, from: '22:00', to: '03:00' },
          { day: 2, from: '02:00', to: '05:00' },
        ],
      }),
    ).toBe(true);
    expect(
      fails({
        hours: [
          { day: 7, from: '22:00', to: '03:00' },
          { day: 1, from: '02:00', to: '05:00' },
        ],
      }),
    ).toBe(true);
    expect(fails({ hours: [{ day: 1, from: '10:00', to: '10:00' }] })).toBe(true);
    expect(fails({ hours: [{ day: 1, from: '9:00', to: '10:00' }] })).toBe(true);
    expect(fails({ hours: [{ day: 8, from: '09:00', to: '10:00' }] })).toBe(true);
    expect(fails({ hours: [], timeZone: 'Mars/Olympus' })).toBe(true);
    expect(fails({ hours: [], awayMessage: 'x'.repeat(121) })).toBe(true);
  });
});
