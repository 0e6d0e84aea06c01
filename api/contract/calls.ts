import { z } from 'zod';
import { positiveId, positiveIdFromQuery } from './ids';
import type { CallProduct } from './call-selling';
import type { VideoTokenResponse } from './video-token';
import { ID_MAX, SIGNAL_KINDS, type CallStatus } from './constants';

/** Every calls message: the product rules' own texts (docs/product-rules.md §1, §8) word for word, then the server's texts of ours. */
export const CALL_MESSAGES = {
  customersOnly: 'Video calling is only available for customers',
  // Client defaults when a response carries no error field (docs/product-rules.md §8).
  initiateFailed: 'Failed to initiate call',
  respondFailed: 'Failed to respond to call',
  endFailed: 'Failed to end call',
  statusFailed: 'Failed to get call status',
  incomingFailed: 'Failed to get incoming calls',
  historyFailed: 'Failed to fetch call history',
  historyLoadFailed: 'Could not fetch call history.',
  // Toasts (docs/product-rules.md §8).
  initiated: 'Call initiated successfully.',
  initiateFailedToast: 'Failed to initiate call.',
  callEnded: 'Call has ended.',
  endFailedToast: 'Failed to end call.',
  respondFailedToast: 'Failed to {action} call: {reason}',
  hangUpFailed: 'Failed to end call. Please try again.',
  // Server texts (the product rules leave them open; the 'already been responded to' fragment is load-bearing).
  sellerNotFound: 'Seller not found.',
  videoDisabled: 'This jeweller is not taking video calls right now.',
  callInProgress: 'You already have a call in progress.',
  sellerBusy: 'The jeweller is busy on another call. Please try again in a few minutes.',
  alreadyResponded: 'This call has already been responded to.',
  callNotFound: 'Call not found.',
  callNotActive: 'This call is not active.',
  sellersOnly: 'Only sellers receive video calls.',
  tooManyCalls: 'Too many call attempts. Please wait a minute and try again.',
  invalidSellerId: 'sellerId must be a positive integer.',
  invalidCallId: 'callId must be a positive integer.',
  invalidResponse: "response must be 'accept' or 'decline'.",
  invalidSignalKind: "kind must be one of 'offer', 'answer', 'candidate' or 'bye'.",
  invalidSignalPayload: 'payload must be a JSON object.',
  signalPayloadTooLarge: 'The signalling payload is too large.',
  invalidCursor: 'after must be a non-negative integer.',
} as const;
export type CallMessageId = keyof typeof CALL_MESSAGES;

/** Stable `code` values of call errors, for programs (the `error` field carries the message). */
export const CALL_ERROR_CODES = {
  customersOnly: 'customers_only',
  sellersOnly: 'sellers_only',
  sellerNotFound: 'seller_not_found',
  videoDisabled: 'video_calls_disabled',
  callInProgress: 'call_in_progress',
  sellerBusy: 'seller_busy',
  alreadyResponded: 'call_already_responded',
  callNotFound: 'call_not_found',
  callNotActive: 'call_not_active',
  tooManyCalls: 'rate_limited',
} as const;

/** Largest serialised signalling payload accepted (an SDP offer with many codecs stays well below). */
export const SIGNAL_PAYLOAD_MAX_CHARS = 32_000;
/** Most signals one poll returns; the client pages on with `after`. */
export const SIGNALS_PAGE_SIZE = 200;
/** Initiations per customer per minute. */
export const CALL_INITIATE_RATE = { limit: 5, windowMs: 60_000 } as const;

/** Unwraps a superjson-style body ({ json: {...} }); plain bodies pass through. */
const unwrapSuperjson = (v: unknown): unknown =>
  v && typeof v === 'object' && !Array.isArray(v) && 'json' in v && typeof v.json === 'object' && v.json
    ? v.json
    : v;

/** POST /_api/call/initiate (plain or superjson-style). */
export const initiateCallSchema = z.preprocess(
  unwrapSuperjson,
  z.object({
    sellerId: positiveId(CALL_MESSAGES.invalidSellerId),
    /** The piece the customer calls about: a product of that shop (call-selling.ts). */
    productId: positiveId('productId must be a positive integer.').optional(),
  }),
);
export type InitiateCallInput = z.infer<typeof initiateCallSchema>;

/** POST /_api/call/respond. */
export const respondCallSchema = z.preprocess(
  unwrapSuperjson,
  z.object({
    callId: positiveId(CALL_MESSAGES.invalidCallId),
    response: z.enum(['accept', 'decline'], { error: CALL_MESSAGES.invalidResponse }),
    /**
     * p2p: the answer to the offer the caller sent while the call rang, stored as the answerer's first signal
     * in the same request as the accept (an accept's only; ignored with a decline).
     */
    answer: z
      .record(z.string(), z.unknown(), { error: CALL_MESSAGES.invalidSignalPayload })
      .refine((p) => JSON.stringify(p).length <= SIGNAL_PAYLOAD_MAX_CHARS, {
        error: CALL_MESSAGES.signalPayloadTooLarge,
      })
      .optional(),
  }),
);
export type RespondCallInput = z.infer<typeof respondCallSchema>;

/** POST /_api/call/end (also the unload beacon's body). */
/**
 * Why a participant ends a call: a hang-up (the default), or the call's own end when the browser found no
 * network path between the two or lost the media for too long.
 */
export const CALL_END_REASONS = ['hangup', 'no_route', 'connection_lost'] as const;
export type CallEndReasonInput = (typeof CALL_END_REASONS)[number];

export const endCallSchema = z.preprocess(
  unwrapSuperjson,
  z.object({
    callId: positiveId(CALL_MESSAGES.invalidCallId),
    reason: z
      .enum(CALL_END_REASONS, { error: "reason must be 'hangup', 'no_route' or 'connection_lost'." })
      .default('hangup'),
  }),
);

/** GET /_api/call/status and /_api/video/token query. */
export const callIdQuerySchema = z.object({ callId: positiveIdFromQuery(CALL_MESSAGES.invalidCallId) });

/** POST /_api/call/signal: WebRTC signalling for the p2p provider. */
export const sendSignalSchema = z.preprocess(
  unwrapSuperjson,
  z.object({
    callId: positiveId(CALL_MESSAGES.invalidCallId),
    kind: z.enum(SIGNAL_KINDS, { error: CALL_MESSAGES.invalidSignalKind }),
    payload: z
      .record(z.string(), z.unknown(), { error: CALL_MESSAGES.invalidSignalPayload })
      .refine((p) => JSON.stringify(p).length <= SIGNAL_PAYLOAD_MAX_CHARS, {
        error: CALL_MESSAGES.signalPayloadTooLarge,
      }),
  }),
);
export type SendSignalInput = z.infer<typeof sendSignalSchema>;

/** GET /_api/call/signals query: signals after the last id the client has seen. */
export const signalsQuerySchema = z.object({
  callId: positiveIdFromQuery(CALL_MESSAGES.invalidCallId),
  after: z.coerce
    .number({ error: CALL_MESSAGES.invalidCursor })
    .int({ error: CALL_MESSAGES.invalidCursor })
    .min(0, { error: CALL_MESSAGES.invalidCursor })
    .max(ID_MAX, { error: CALL_MESSAGES.invalidCursor })
    .default(0),
});

/** A call as the state-changing endpoints return it. */
export interface CallSummary {
  id: number;
  status: CallStatus;
  callerId: number;
  sellerId: number;
  createdAt: string;
}

/** 201 answer of POST /_api/call/initiate. */
export interface InitiateCallResponse {
  callId: number;
  status: 'pending';
  call: CallSummary;
  /**
   * p2p with ICE servers configured: the caller's ring-time ICE servers (as GET /_api/video/ice-servers gives
   * them), so its browser starts gathering and makes its offer without another request.
   */
  iceServers?: unknown[];
}

/** One entry of GET /_api/call/incoming. */
export interface IncomingCall {
  callId: number;
  caller: { id: number; displayName: string; avatarUrl: string | null };
  createdAt: string;
  /** The piece the customer is calling about, if the call was placed from a product. */
  product: CallProduct | null;
  /** A jeweller's call-back ringing the customer (issue #22): `caller` is then the shop. */
  callBack?: boolean;
}
export interface IncomingCallsResponse {
  calls: IncomingCall[];
}

/** Answer of POST /_api/call/respond. */
export interface RespondCallResponse {
  call: Omit<CallSummary, 'createdAt'>;
  /** An accept's: the accepting side's video token, so that its browser joins without asking for one. */
  token?: VideoTokenResponse;
}

/** Answer of POST /_api/call/end (the same for a call that had already ended). */
export interface EndCallResponse {
  callId: number;
  status: CallStatus;
  call: Omit<CallSummary, 'createdAt'>;
}

/** Answer of GET /_api/call/status, seen from the requesting participant. */
export interface CallStatusResponse {
  callId: number;
  status: CallStatus;
  /** The viewer is the side rung, who answers (the other offers the video): the seller, or a call-back's customer. */
  isIncoming: boolean;
  participantId: number;
  participantName: string;
  createdAt: string;
  answeredAt: string | null;
  endedAt: string | null;
  /** How an ended call ended: hangup, declined, timeout, abandoned, no_route, connection_lost. */
  endReason: string | null;
  /** The shop called (the same as participantName on the customer's side). */
  shopName: string;
  /** The piece the customer called about. */
  product: CallProduct | null;
}

/** One row of GET /_api/calls/history. */
export interface CallHistoryEntry {
  id: number;
  callId: number;
  /** The shop that was called. */
  calleeName: string;
  /** The other side: the shop for a customer, the caller's display name for a seller. */
  participantName: string;
  participantId: number;
  /** The viewer is the side rung, who answers (the other offers the video): the seller, or a call-back's customer. */
  isIncoming: boolean;
  status: CallStatus;
  createdAt: string;
  answeredAt: string | null;
  endedAt: string | null;
  /** Seconds between answer and end; 0 when the call was never connected or has not ended. */
  durationSeconds: number;
  /** The piece the customer called about. */
  product: CallProduct | null;
}
export interface CallHistoryResponse {
  calls: CallHistoryEntry[];
}

export type SignalKind = (typeof SIGNAL_KINDS)[number];

/** One relayed signal of GET /_api/call/signals. */
export interface CallSignal {
  id: number;
  kind: SignalKind;
  payload: Record<string, unknown>;
  fromUserId: number;
  createdAt: string;
}
export interface CallSignalsResponse {
  signals: CallSignal[];
  status: CallStatus;
}
export interface SendSignalResponse {
  id: number;
}
