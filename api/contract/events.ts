import type { CallStatus } from './constants';
import type { CallItem } from './call-selling';
import type { CallSignal, IncomingCall } from './calls';
import type { AppointmentNotice } from './appointments';
import type { FamilyEvent } from './call-family';

/**
 * The event stream (GET /_api/events, Server-Sent Events): one per signed-in tab, carrying what happens to
 * the user's calls the moment it is stored. Polling stays the authoritative fallback; a client that loses
 * the stream polls until it is back, and resumes the stream from the last event id it saw (the
 * `Last-Event-ID` header that EventSource sends by itself, or `?after=`), so nothing is missed or doubled.
 */

/** The reconnection delay the stream asks EventSource to use after a drop. */
export const EVENT_STREAM_RETRY_MS = 1_500;
/** Most events one read of the log sends at once; the stream reads again until it has caught up. */
export const EVENT_STREAM_BATCH = 200;

/** The first event of every stream: the cursor it starts from (the user's latest event id). */
export interface HelloEvent {
  cursor: number;
}

/** A call started ringing for this seller ('incoming'): the same shape as an entry of /_api/call/incoming. */
export type IncomingEvent = IncomingCall;

/** A call's status changed ('call'): ringing, active, declined, ended or missed. */
export interface CallStateEvent {
  callId: number;
  status: CallStatus;
  endReason: string | null;
  answeredAt: string | null;
  endedAt: string | null;
}

/** A WebRTC signal addressed to this user ('signal'): the same shape as /_api/call/signals lists. */
export interface SignalEvent extends CallSignal {
  callId: number;
}

/**
 * Something shown, sent or said in a call ('item', to both participants): a product, a photo or a chat
 * message, the same shape as GET /_api/call/items lists.
 */
export type ItemEvent = CallItem;

/**
 * Something happened to one of the user's video appointments ('appointment', issue #22): booked, the reminder
 * 15 minutes before, the start, rescheduled or cancelled (with the reason).
 */
export type AppointmentEvent = AppointmentNotice;

/**
 * Something the jeweller's open dashboard shows changed ('shop', issue #48): a call-back request made, a piece
 * held, an order paid. The dashboard refreshes what it shows of it; a missed call comes as a 'call' event.
 */
export type ShopEvent =
  | { what: 'callback'; requestId: number }
  | { what: 'hold'; holdId: number; productId: number }
  | { what: 'order-paid'; orderId: number; amountPaise: number };

export interface StreamEventMap {
  hello: HelloEvent;
  incoming: IncomingEvent;
  call: CallStateEvent;
  signal: SignalEvent;
  item: ItemEvent;
  appointment: AppointmentEvent;
  shop: ShopEvent;
  /** Family in the call (issue #52): a guest asked, was admitted or left, a like, a mesh signal to the reader. */
  family: FamilyEvent;
}
export type StreamEventName = keyof StreamEventMap;
export const STREAM_EVENT_NAMES: readonly StreamEventName[] = [
  'hello',
  'incoming',
  'call',
  'signal',
  'item',
  'appointment',
  'shop',
  'family',
];

/** `after` of GET /_api/events: a non-negative integer event id. */
export const EVENTS_MESSAGES = {
  invalidCursor: 'after must be a non-negative integer.',
} as const;
