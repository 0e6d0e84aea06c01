import { z } from 'zod';
import { AWAY_MESSAGE_MAX, MAX_HOURS_RANGES, type HoursRange, type ShopCallState } from './shop-call-state';

// The zod-free part (types, canRing, nextOpening) lives in shop-call-state.ts, which the PWA's first page imports.
export * from './shop-call-state';

/**
 * Shop hours, away and the one call state of a shop (issue #22, docs/product-rules.md "Shop hours"): what the
 * server computes (api/src/features/schedule/hours.ts) and every screen shows (cards, directory, storefront,
 * product page), and what `POST /_api/call/initiate` enforces.
 */

export const SHOP_HOURS_MESSAGES = {
  // POST /_api/call/initiate refusals (409).
  closed: 'This shop is closed for video calls now. Request a call-back or book a video appointment.',
  away: 'The jeweller is away right now. Request a call-back or book a video appointment.',
  unreachable:
    "The jeweller's app is not open, so a call would ring nobody. Request a call-back or book a video appointment.",
  // Validation of the hours form.
  invalidTime: 'Times are written HH:MM (00:00 to 24:00).',
  invalidDay: 'Days are 1 (Monday) to 7 (Sunday).',
  emptyRange: 'A range must not start and end at the same time.',
  tooManyRanges: `At most ${MAX_HOURS_RANGES} ranges of hours.`,
  overlappingRanges: 'Two ranges of the same day overlap.',
  invalidTimeZone: 'Unknown time zone.',
  awayMessageTooLong: `The away message can have at most ${AWAY_MESSAGE_MAX} characters.`,
  invalidAway: 'Away must be true or false.',
} as const;
export type ShopHoursMessageId = keyof typeof SHOP_HOURS_MESSAGES;

/**
 * The answer of `GET /_api/shop/call_state?sellerId=` (its query: catalog.ts shopCallStateQuerySchema): one
 * shop's call state as it is now, never cached (issue #50). A storefront or product page asks it every
 * SHOP_CALL_STATE_POLL_MS while shown, so its Video Call button comes and goes with the jeweller's app.
 */
export interface ShopCallStateResponse {
  sellerId: number;
  callState: ShopCallState;
}

const M = SHOP_HOURS_MESSAGES;
const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** Minutes since midnight of 'HH:MM' (24:00 → 1440). */
export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * An IANA zone as the tz database spells it: "UTC" or an area and a location ("Asia/Kolkata",
 * "America/Argentina/Buenos_Aires"), each part of the location starting with a capital. Legacy names ("EST",
 * "US/Eastern"), offsets ("+05:30") and other spellings ("asia/kolkata", which the runtime would accept) are not.
 */
const IANA_NAME =
  /^(?:UTC|(?:Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)(?:\/[A-Z][A-Za-z0-9_+-]*)+)$/;

/**
 * True for a real IANA time zone the runtime knows, spelled as the tz database does (issue #48: the seller's
 * hours take a zone from a list, and the server accepts nothing else).
 */
export function isTimeZone(zone: string): boolean {
  if (!IANA_NAME.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const hoursRangeSchema = z
  .object({
    day: z
      .number({ error: M.invalidDay })
      .int({ error: M.invalidDay })
      .min(1, { error: M.invalidDay })
      .max(7, {
        error: M.invalidDay,
      }),
    from: z.string({ error: M.invalidTime }).regex(TIME, { error: M.invalidTime }),
    to: z.string({ error: M.invalidTime }).regex(TIME, { error: M.invalidTime }),
  })
  .strict()
  .refine((r) => r.from !== '24:00', { error: M.invalidTime, path: ['from'] })
  .refine((r) => minutesOf(r.from) !== minutesOf(r.to) % 1440 || r.to === '24:00', {
    error: M.emptyRange,
    path: ['to'],
  });

/** The minutes of the week ([start, end) from Monday 00:00) a range covers; past midnight runs into the next day. */
export function weekSpan(r: HoursRange): [number, number] {
  const start = (r.day - 1) * 1440 + minutesOf(r.from);
  const from = minutesOf(r.from);
  const to = minutesOf(r.to);
  return [start, start + (to > from ? to - from : 1440 - from + to)];
}

function overlaps(ranges: readonly HoursRange[]): boolean {
  const WEEK = 7 * 1440;
  const spans = ranges.flatMap((r) => {
    const [s, e] = weekSpan(r);
    // Sunday past midnight wraps to Monday morning.
    return e > WEEK ? [[s, WEEK] as const, [0, e - WEEK] as const] : [[s, e] as const];
  });
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) if (spans[i][0] < spans[i - 1][1]) return true;
  return false;
}

/** POST /_api/seller/hours: the whole weekly hours, time zone and away setting of the seller's shop. */
export const shopHoursSchema = z
  .object({
    timeZone: z.string({ error: M.invalidTimeZone }).max(64).refine(isTimeZone, { error: M.invalidTimeZone }),
    hours: z
      .array(hoursRangeSchema)
      .max(MAX_HOURS_RANGES, { error: M.tooManyRanges })
      .refine((h) => !overlaps(h as HoursRange[]), { error: M.overlappingRanges }),
    away: z.boolean({ error: M.invalidAway }),
    awayMessage: z
      .string()
      .trim()
      .max(AWAY_MESSAGE_MAX, { error: M.awayMessageTooLong })
      .nullable()
      .transform((v) => (v ? v : null)),
  })
  .strict();
export type ShopHoursInput = z.input<typeof shopHoursSchema>;

/** GET /_api/seller/hours and the answer of POST /_api/seller/hours. */
export interface ShopHoursResponse {
  timeZone: string;
  hours: HoursRange[];
  away: boolean;
  awayMessage: string | null;
  callState: ShopCallState;
}
