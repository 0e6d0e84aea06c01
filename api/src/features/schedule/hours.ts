import { DateTime } from 'luxon';
import {
  ALWAYS_OPEN,
  DEFAULT_TIME_ZONE,
  minutesOf,
  type HoursRange,
  type ShopCallState,
} from '../../../contract/shop-hours';
import { CALL_LIMITS } from '../../../contract/constants';

/**
 * The one place that decides a shop's call state (issue #22): the directory, the storefront, product cards,
 * the product page and `POST /_api/call/initiate` all ask `shopCallState`. Pure: the clock is an argument.
 */

/** What the call state is computed from: seller_profiles columns and the seller's presence. */
export interface ShopStateRow {
  video_call_enabled: boolean;
  away: boolean;
  away_message: string | null;
  video_hours: unknown;
  time_zone: string;
  /** The seller's app last polled for calls or held the event stream (seller_presence). */
  last_polled_at: Date | string | null;
  /** A device of the seller's subscribed to web push (push_subscriptions): a call rings it with the app closed. */
  has_push: boolean;
}

/** The stored hours (a jsonb array); anything unreadable counts as none. */
export function readHours(value: unknown): HoursRange[] {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? (parsed as HoursRange[]) : [...ALWAYS_OPEN];
}

export const zoneOrDefault = (zone: string) =>
  DateTime.now().setZone(zone).isValid ? zone : DEFAULT_TIME_ZONE;

/** The wall-clock time `hhmm` on `date`'s day in its zone ('24:00' is the next day's midnight). */
export function at(date: DateTime, hhmm: string): DateTime {
  const m = minutesOf(hhmm);
  return m === 1440 ? date.plus({ days: 1 }) : date.set({ hour: Math.floor(m / 60), minute: m % 60 });
}

/**
 * Whether `now` falls in one of the weekly ranges (in the shop's zone), and when the shop next opens. Ranges
 * past midnight belong to the day they start on, so yesterday's are looked at too. Daylight-saving days keep
 * wall-clock times (a range 01:00–03:00 on a day that skips 02:00 lasts an hour).
 */
export function hoursAt(
  hours: readonly HoursRange[],
  timeZone: string,
  now: Date,
): { open: boolean; opensAt: Date | null; closesAt: Date | null } {
  const zone = zoneOrDefault(timeZone);
  const today = DateTime.fromJSDate(now, { zone }).startOf('day');
  const t = now.getTime();
  let opensAt: number | null = null;
  let closesAt: number | null = null;
  for (let d = -1; d <= 7; d++) {
    const date = today.plus({ days: d });
    for (const r of hours) {
      if (r.day !== date.weekday) continue;
      const start = at(date, r.from);
      const crosses = minutesOf(r.to) <= minutesOf(r.from);
      const end = crosses ? at(date.plus({ days: 1 }), r.to) : at(date, r.to);
      const s = start.toMillis();
      const e = end.toMillis();
      if (s <= t && t < e) closesAt = Math.max(closesAt ?? 0, e);
      else if (s > t && (opensAt === null || s < opensAt)) opensAt = s;
    }
  }
  return {
    open: closesAt !== null,
    opensAt: opensAt === null ? null : new Date(opensAt),
    closesAt: closesAt === null ? null : new Date(closesAt),
  };
}

/** The shop's call state now. */
export function shopCallState(
  row: ShopStateRow,
  now: Date,
  onlineWindowMs: number = CALL_LIMITS.onlineWindowMs,
): ShopCallState {
  if (!row.video_call_enabled) return { state: 'disabled' };
  if (row.away) return { state: 'away', message: row.away_message };
  const h = hoursAt(readHours(row.video_hours), row.time_zone, now);
  if (!h.open)
    return {
      state: 'closed',
      opensAt: h.opensAt?.toISOString() ?? null,
      timeZone: zoneOrDefault(row.time_zone),
    };
  const seen = row.last_polled_at === null ? null : new Date(row.last_polled_at).getTime();
  if (seen !== null && now.getTime() - seen <= onlineWindowMs) return { state: 'available' };
  return row.has_push ? { state: 'offline' } : { state: 'unreachable' };
}
