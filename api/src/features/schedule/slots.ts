import { DateTime } from 'luxon';
import { minutesOf, type HoursRange } from '../../../contract/shop-hours';
import type { Slot } from '../../../contract/appointments';
import { at, zoneOrDefault } from './hours';

const MINUTE = 60_000;

/** What a shop's free slots are computed from (seller_profiles and its booked appointments). */
export interface SlotRules {
  hours: readonly HoursRange[];
  breaks: readonly HoursRange[];
  timeZone: string;
  slotMinutes: number;
  bufferMinutes: number;
  /** The shop's booked appointments (any that may touch the horizon). */
  booked: readonly { startsAt: Date; endsAt: Date }[];
}

/** The [start, end) instants, in ms, of weekly ranges on the days from `first` for `days` days (shop zone). */
function spans(ranges: readonly HoursRange[], first: DateTime, days: number): [number, number][] {
  const out: [number, number][] = [];
  for (let d = 0; d < days; d++) {
    const date = first.plus({ days: d });
    for (const r of ranges) {
      if (r.day !== date.weekday) continue;
      const crosses = minutesOf(r.to) <= minutesOf(r.from);
      out.push([
        at(date, r.from).toMillis(),
        (crosses ? at(date.plus({ days: 1 }), r.to) : at(date, r.to)).toMillis(),
      ]);
    }
  }
  return out;
}

/**
 * The shop's free slots starting after `now` and before `now + horizonDays` (docs/product-rules.md "Video
 * appointments"). Each range of the weekly hours (in the shop's zone; a range past midnight belongs to the day
 * it starts on) is cut into slots of `slotMinutes` from its start, `bufferMinutes` apart; a slot must end
 * inside its range, must not touch a break, and must keep `bufferMinutes` clear of every booked appointment.
 * Pure: the clock is an argument. Daylight-saving days keep wall-clock range edges.
 */
export function freeSlots(rules: SlotRules, now: Date, horizonDays: number): Slot[] {
  const zone = zoneOrDefault(rules.timeZone);
  const t0 = now.getTime();
  const until = t0 + horizonDays * 24 * 60 * MINUTE;
  // Yesterday too: a range of last night may still run past midnight.
  const first = DateTime.fromJSDate(now, { zone }).startOf('day').minus({ days: 1 });
  const days = horizonDays + 2;
  const slot = rules.slotMinutes * MINUTE;
  const step = slot + rules.bufferMinutes * MINUTE;
  const buffer = rules.bufferMinutes * MINUTE;
  const breaks = spans(rules.breaks, first, days);
  const booked = rules.booked.map((b) => [b.startsAt.getTime(), b.endsAt.getTime()] as const);
  const seen = new Set<number>();
  const out: Slot[] = [];
  for (const [from, to] of spans(rules.hours, first, days)) {
    for (let s = from; s + slot <= to; s += step) {
      const e = s + slot;
      if (s <= t0 || s >= until || seen.has(s)) continue;
      if (breaks.some(([bs, be]) => s < be && bs < e)) continue;
      if (booked.some(([bs, be]) => s < be + buffer && bs < e + buffer)) continue;
      seen.add(s);
      out.push({ startsAt: new Date(s).toISOString(), endsAt: new Date(e).toISOString() });
    }
  }
  return out.sort((a, b) => a.startsAt.localeCompare(b.startsAt));
}
