import { z } from 'zod';
import { ID_MAX } from './constants';

/**
 * Call-back requests (issue #22, docs/product-rules.md "Call-back requests"): a customer asks a shop to call
 * back (optionally about a product, from a declined or missed call, with a note and a preferred window); the
 * jeweller sees a queue and calls back, which rings the customer. Open → answered, expired or withdrawn.
 */
export const CALLBACK_WINDOWS = ['now', 'today', 'at'] as const;
export type CallbackWindow = (typeof CALLBACK_WINDOWS)[number];
export const CALLBACK_STATUSES = ['open', 'answered', 'expired', 'withdrawn'] as const;
export type CallbackStatus = (typeof CALLBACK_STATUSES)[number];

/** Who a call rings (calls.direction): the shop, or the customer for the jeweller's call-back. */
export const CALL_DIRECTIONS = ['to_seller', 'to_customer'] as const;

export const CALLBACK_LIMITS = {
  noteMax: 500,
  /** How long a request stays open: 'now' 2 h, 'today' 12 h, 'at' until 2 h after the chosen time. */
  nowHours: 2,
  todayHours: 12,
  afterChosenHours: 2,
  /** A chosen time at most this far ahead. */
  maxAheadDays: 14,
} as const;

export const CALLBACK_MESSAGES = {
  notFound: 'Call-back request not found.',
  notOpen: 'This call-back request is no longer open.',
  alreadyOpen: 'You already have an open call-back request with this shop.',
  tooMany:
    'You have asked this shop to call back {n} times today. Please wait for their call, or try again tomorrow.',
  chooseTime: 'Choose a time for the call-back.',
  timeInPast: 'Choose a time in the future, within two weeks.',
  noteTooLong: 'The note can have at most 500 characters.',
  invalidWindow: "The window must be 'now', 'today' or 'at'.",
  invalidId: 'The id must be a positive integer.',
  customerBusy: 'The customer is on another call right now. Please try again in a few minutes.',
  shopNoVideo: 'This jeweller is not taking video calls right now.',
} as const;

export const CALLBACK_ERROR_CODES = {
  notFound: 'callback_not_found',
  notOpen: 'callback_not_open',
  alreadyOpen: 'callback_already_open',
  tooMany: 'too_many_callbacks',
  customerBusy: 'customer_busy',
} as const;

const M = CALLBACK_MESSAGES;
const id = z
  .number({ error: M.invalidId })
  .int({ error: M.invalidId })
  .positive({ error: M.invalidId })
  .max(ID_MAX, {
    error: M.invalidId,
  });

/** POST /_api/callbacks/create */
export const createCallbackSchema = z
  .object({
    sellerId: id,
    productId: id.optional(),
    fromCallId: id.optional(),
    note: z.string().trim().max(CALLBACK_LIMITS.noteMax, { error: M.noteTooLong }).optional(),
    window: z.enum(CALLBACK_WINDOWS, { error: M.invalidWindow }),
    preferredAt: z.iso.datetime({ offset: true, error: M.chooseTime }).optional(),
  })
  .strict()
  .refine((v) => v.window !== 'at' || v.preferredAt !== undefined, {
    error: M.chooseTime,
    path: ['preferredAt'],
  });
export type CreateCallbackInput = z.input<typeof createCallbackSchema>;

/** POST /_api/callbacks/withdraw and /_api/callbacks/call */
export const callbackIdSchema = z.object({ requestId: id }).strict();

/** POST /_api/callbacks/call-missed: "Call back" on one of today's missed or declined calls. */
export const callBackMissedSchema = z.object({ callId: id }).strict();

export interface CallbackRequest {
  id: number;
  status: CallbackStatus;
  window: CallbackWindow;
  preferredAt: string | null;
  note: string | null;
  createdAt: string;
  expiresAt: string;
  closedAt: string | null;
  shop: { sellerId: number; shopName: string };
  customer: { id: number; displayName: string };
  product: { id: number; name: string } | null;
  /** The missed or declined call it came from. */
  fromCallId: number | null;
  /** The jeweller's call that answered it. */
  answeredCallId: number | null;
}

/** GET /_api/callbacks/mine (customer) and /_api/callbacks/queue (seller: open first, then today's closed). */
export interface CallbackListResponse {
  requests: CallbackRequest[];
  /** Open requests: the dashboard's badge. */
  openCount: number;
}
