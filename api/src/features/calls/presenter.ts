import type { CallProduct } from '../../../contract/call-selling';
import type { CallStatus } from '../../../contract/constants';
import type {
  CallHistoryEntry,
  CallSignal,
  CallStatusResponse,
  CallSummary,
  IncomingCall,
  SignalKind,
} from '../../../contract/calls';

/** A calls row as selected with `select *`. */
export interface CallRow {
  id: number;
  caller_id: number;
  seller_id: number;
  status: CallStatus;
  provider: 'p2p' | 'twilio';
  created_at: Date | string;
  ringing_at: Date | string | null;
  answered_at: Date | string | null;
  ended_at: Date | string | null;
  ended_by: number | null;
  end_reason: string | null;
  /** The piece the customer called about (migration 0013). */
  product_id: number | null;
  /** Who the call rings (migration 0015): the shop, or the customer for a jeweller's call-back. */
  direction?: 'to_seller' | 'to_customer';
}

/** A calls row with both parties' names joined in. */
export interface CallWithNamesRow extends CallRow {
  caller_name: string;
  caller_avatar_url: string | null;
  shop_name: string | null;
  seller_display_name: string;
}

export interface SignalRow {
  id: number | string;
  kind: SignalKind;
  payload: unknown;
  from_user_id: number;
  created_at: Date | string;
}

const iso = (v: Date | string): string => new Date(v).toISOString();
const isoOrNull = (v: Date | string | null): string | null => (v === null ? null : iso(v));

/** Whole seconds from answer to end; 0 when either is missing or the span is not positive. */
export function callDurationSeconds(row: Pick<CallRow, 'answered_at' | 'ended_at'>): number {
  if (!row.answered_at || !row.ended_at) return 0;
  const ms = new Date(row.ended_at).getTime() - new Date(row.answered_at).getTime();
  return ms > 0 ? Math.floor(ms / 1000) : 0;
}

export function presentCallSummary(row: CallRow): CallSummary {
  return {
    id: row.id,
    status: row.status,
    callerId: row.caller_id,
    sellerId: row.seller_id,
    createdAt: iso(row.created_at),
  };
}

/** The shape respond and end answer with (docs/product-rules.md §7: { id, status, callerId }, plus sellerId). */
export function presentCallBrief(row: CallRow): Omit<CallSummary, 'createdAt'> {
  return { id: row.id, status: row.status, callerId: row.caller_id, sellerId: row.seller_id };
}

export function presentIncomingCall(
  row: Pick<
    CallWithNamesRow,
    'id' | 'caller_id' | 'caller_name' | 'caller_avatar_url' | 'created_at' | 'direction'
  >,
  product: CallProduct | null,
): IncomingCall {
  return {
    callId: row.id,
    caller: { id: row.caller_id, displayName: row.caller_name, avatarUrl: row.caller_avatar_url },
    createdAt: iso(row.created_at),
    product,
    ...(row.direction === 'to_customer' ? { callBack: true } : {}),
  };
}

/**
 * Whether the viewer is the side the call rang (who answers; the other side rang and offers the video): the
 * seller for a customer's call, the customer for a jeweller's call-back (issue #22).
 */
export const isRung = (row: Pick<CallRow, 'seller_id' | 'direction'>, viewerId: number): boolean =>
  (row.seller_id === viewerId) !== (row.direction === 'to_customer');

/** The shop's name (its display name until it has a profile). */
export const shopName = (row: Pick<CallWithNamesRow, 'shop_name' | 'seller_display_name'>) =>
  row.shop_name ?? row.seller_display_name;

/** The call as seen by one participant: the other side is the participant. */
export function presentCallStatus(
  row: CallWithNamesRow,
  viewerId: number,
  product: CallProduct | null,
): CallStatusResponse {
  const isSeller = row.seller_id === viewerId;
  return {
    callId: row.id,
    status: row.status,
    isIncoming: isRung(row, viewerId),
    participantId: isSeller ? row.caller_id : row.seller_id,
    participantName: isSeller ? row.caller_name : shopName(row),
    createdAt: iso(row.created_at),
    answeredAt: isoOrNull(row.answered_at),
    endedAt: isoOrNull(row.ended_at),
    endReason: row.end_reason ?? null,
    shopName: shopName(row),
    product,
  };
}

export function presentHistoryEntry(
  row: CallWithNamesRow,
  viewerId: number,
  product: CallProduct | null,
): CallHistoryEntry {
  const isSeller = row.seller_id === viewerId;
  return {
    id: row.id,
    callId: row.id,
    calleeName: shopName(row),
    participantName: isSeller ? row.caller_name : shopName(row),
    participantId: isSeller ? row.caller_id : row.seller_id,
    isIncoming: isRung(row, viewerId),
    status: row.status,
    createdAt: iso(row.created_at),
    answeredAt: isoOrNull(row.answered_at),
    endedAt: isoOrNull(row.ended_at),
    durationSeconds: callDurationSeconds(row),
    product,
  };
}

export function presentSignal(row: SignalRow): CallSignal {
  const payload = typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload;
  return {
    id: Number(row.id),
    kind: row.kind,
    payload: payload as Record<string, unknown>,
    fromUserId: row.from_user_id,
    createdAt: iso(row.created_at),
  };
}
