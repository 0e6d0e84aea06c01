/**
 * The zod-free part of shop hours (issue #22): the types, the call state and how it reads. The PWA's first page
 * (call buttons, call-state badges) imports this module, never shop-hours.ts, whose zod schemas would add ~25 KB
 * (gzip) to a visitor's first load; shop-hours.ts re-exports it for the server.
 */
import { TIME_OF_DAY } from './time-format';

/** ISO weekdays: 1 = Monday … 7 = Sunday. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * One range of video hours on a weekday, in the shop's time zone: `from` 00:00–23:59, `to` 00:01–24:00. A `to`
 * at or before `from` runs past midnight into the next day (22:00–02:00).
 */
export interface HoursRange {
  day: Weekday;
  from: string;
  to: string;
}

export const DEFAULT_TIME_ZONE = 'Asia/Kolkata';
/** Ranges a shop may set in all (several a day). */
export const MAX_HOURS_RANGES = 28;
export const AWAY_MESSAGE_MAX = 120;

/** Every day 00:00–24:00: the hours of a shop that never set any (and of the demo shops). */
export const ALWAYS_OPEN: readonly HoursRange[] = WEEKDAYS.map((day) => ({
  day,
  from: '00:00',
  to: '24:00',
}));

/**
 * A shop's call state now:
 * - `available`: in hours and the jeweller's app is reachable (open, or rung by push);
 * - `offline`: in hours, the jeweller's app is not open, but a device of theirs subscribed to push (a call rings
 *   it there);
 * - `unreachable`: in hours, but nothing would ring (no app open, no push subscription): no call is placed, the
 *   shop offers a call-back request and a video appointment instead (issue #40);
 * - `closed`: outside its hours; `opensAt` is the next opening (UTC ISO), null when it has no hours at all, read
 *   in the shop's `timeZone` (its hours are kept in it: "Opens Sunday 10:00" means the shop's Sunday 10:00);
 * - `away`: the jeweller switched to away, with a short message;
 * - `disabled`: the shop does not take video calls.
 */
export type ShopCallState =
  | { state: 'available' }
  | { state: 'offline' }
  | { state: 'unreachable' }
  | { state: 'closed'; opensAt: string | null; timeZone: string }
  | { state: 'away'; message: string | null }
  | { state: 'disabled' };

export type ShopCallStateName = ShopCallState['state'];

/** The codes of `POST /_api/call/initiate`'s refusals of a shop that cannot be rung now (409). */
export const SHOP_HOURS_ERROR_CODES = {
  closed: 'shop_closed',
  away: 'shop_away',
  unreachable: 'seller_unreachable',
} as const;

/** Whether a call may be placed now: the server refuses closed, away, unreachable and disabled shops. */
export const canRing = (s: ShopCallState): boolean => s.state === 'available' || s.state === 'offline';

/**
 * How the next opening reads for a viewer: `today` ("Back at 10:00"), `day` ("Opens Monday 10:00", within a
 * week) or `date` ("Opens 12 May 10:00"). Day and time in the viewer's time zone and language (Tamil day names
 * with 'ta-IN'); the clock time on the locale's own clock (time-format.ts).
 */
export function nextOpening(
  opensAt: string | Date,
  now: Date,
  timeZone: string,
  locale: string,
): { kind: 'today' | 'day' | 'date'; day: string; time: string } {
  const at = new Date(opensAt);
  const dayKey = (d: Date) =>
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
      d,
    );
  const time = new Intl.DateTimeFormat(locale, { timeZone, ...TIME_OF_DAY }).format(at);
  if (dayKey(at) === dayKey(now)) return { kind: 'today', day: '', time };
  const days = (Date.parse(dayKey(at)) - Date.parse(dayKey(now))) / 86_400_000;
  if (days < 7) {
    return {
      kind: 'day',
      day: new Intl.DateTimeFormat(locale, { timeZone, weekday: 'long' }).format(at),
      time,
    };
  }
  return {
    kind: 'date',
    day: new Intl.DateTimeFormat(locale, { timeZone, day: 'numeric', month: 'long' }).format(at),
    time,
  };
}

/** How often a storefront or product page asks its shop's call state while it is shown (issue #50). */
export const SHOP_CALL_STATE_POLL_MS = 5_000;
