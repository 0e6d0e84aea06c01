import type { Knex } from 'knex';
import type { CallStatus } from '../../../contract/constants';
import {
  EVENT_STREAM_BATCH,
  type AppointmentEvent,
  type CallStateEvent,
  type ShopEvent,
  type SignalEvent,
  type StreamEventMap,
  type StreamEventName,
} from '../../../contract/events';
import type { SignalKind } from '../../../contract/calls';
import type { FamilyParty, FamilySignal } from '../../../contract/call-family';
import type { AppDeps } from '../../http/context';
import { presentIncomingCall, type CallWithNamesRow } from '../calls/presenter';
import { loadCallItemsById } from '../selling/items';
import { loadCallProduct } from '../selling/products';

type EventsDeps = Pick<AppDeps, 'db' | 'clock' | 'config'>;

/** One event as the stream sends it. */
export interface StreamEvent<K extends StreamEventName = StreamEventName> {
  id: number;
  name: K;
  data: StreamEventMap[K];
}

interface EventRow {
  id: number | string;
  call_id: number;
  kind: 'incoming' | 'call' | 'signal' | 'item' | 'appointment' | 'shop' | 'family';
  payload: Record<string, unknown>;
}

const isoOrNull = (v: unknown): string | null =>
  v === null || v === undefined ? null : new Date(v as string).toISOString();

/** The user's latest event id: where a new stream starts (what came before, the client has read already). */
export async function latestEventId(db: Knex, userId: number): Promise<number> {
  const row = (await db('call_events').where('user_id', userId).max('id as id').first()) as
    { id: number | string | null } | undefined;
  return Number(row?.id ?? 0);
}

// The one rung: the seller, or the customer for a jeweller's call-back (issue #22), who sees the shop ringing.
const INCOMING_SQL = `select c.*,
       case when c.direction = 'to_customer' then coalesce(sp.shop_name, su.display_name) else cu.display_name end
         as caller_name,
       case when c.direction = 'to_customer' then su.avatar_url else cu.avatar_url end as caller_avatar_url
  from calls c join users cu on cu.id = c.caller_id join users su on su.id = c.seller_id
  left join seller_profiles sp on sp.user_id = c.seller_id
 where c.id = ? and (case when c.direction = 'to_customer' then c.caller_id else c.seller_id end) = ?
   and c.status in ('pending', 'ringing') and c.created_at > ?`;

/**
 * The user's events after `after`, oldest first, at most one batch. An incoming call is delivered only while
 * it still rings; delivering it to the seller's app marks it ringing, as the seller's poll does, which the
 * caller learns as a 'call' event.
 */
export async function readEvents(
  deps: EventsDeps,
  userId: number,
  after: number,
): Promise<{ events: StreamEvent[]; cursor: number; more: boolean }> {
  const { db } = deps;
  const rows = (await db('call_events')
    .where('user_id', userId)
    .where('id', '>', after)
    .orderBy('id', 'asc')
    .limit(EVENT_STREAM_BATCH)
    .select('id', 'call_id', 'kind', 'payload')) as EventRow[];
  // Items are loaded together: a burst of chat or shown products is one query, not one per event.
  const items = await loadCallItemsById(
    db,
    rows.filter((r) => r.kind === 'item').map((r) => Number(r.payload.itemId)),
  );
  const out: StreamEvent[] = [];
  for (const r of rows) {
    const id = Number(r.id);
    if (r.kind === 'incoming') {
      const now = deps.clock.now();
      const cutoff = new Date(now.getTime() - deps.config.callRingTimeoutMs);
      const found = (
        (await db.raw(INCOMING_SQL, [r.call_id, userId, cutoff])) as {
          rows: (CallWithNamesRow & { direction: string })[];
        }
      ).rows[0];
      // A call-back comes from the shop: the other party is the seller.
      const call = found?.direction === 'to_customer' ? { ...found, caller_id: found.seller_id } : found;
      // Over before it reached the app: not sent, and the cursor moves past it all the same.
      if (!call) continue;
      out.push({
        id,
        name: 'incoming',
        data: presentIncomingCall(call, await loadCallProduct(db, call.product_id)),
      });
    } else if (r.kind === 'call') {
      const p = r.payload;
      const data: CallStateEvent = {
        callId: r.call_id,
        status: p.status as CallStatus,
        endReason: (p.endReason as string | null) ?? null,
        answeredAt: isoOrNull(p.answeredAt),
        endedAt: isoOrNull(p.endedAt),
      };
      out.push({ id, name: 'call', data });
    } else if (r.kind === 'appointment') {
      // An appointment notice carries all it says (issue #22).
      out.push({ id, name: 'appointment', data: r.payload as unknown as AppointmentEvent });
    } else if (r.kind === 'shop') {
      // A shop event carries all it says (issue #48): written by the triggers of migration 0030.
      const p = r.payload;
      const data: ShopEvent =
        p.what === 'order-paid'
          ? { what: 'order-paid', orderId: Number(p.orderId), amountPaise: Number(p.amountPaise) }
          : p.what === 'hold'
            ? { what: 'hold', holdId: Number(p.holdId), productId: Number(p.productId) }
            : { what: 'callback', requestId: Number(p.requestId) };
      out.push({ id, name: 'shop', data });
    } else if (r.kind === 'family') {
      // Family in the call (issue #52, migration 0033): the app reads GET /_api/family/state on it.
      const p = r.payload;
      const what = p.what === 'like' || p.what === 'signal' ? p.what : 'guest';
      // A signal's own event carries it (migration 0034): the page answers a guest's offer from the event.
      const signal: FamilySignal | undefined =
        what === 'signal' && typeof p.kind === 'string'
          ? {
              id: Number(p.signalId),
              from: p.from as FamilyParty,
              kind: p.kind as SignalKind,
              payload: p.payload as Record<string, unknown>,
            }
          : undefined;
      out.push({ id, name: 'family', data: { callId: r.call_id, what, ...(signal ? { signal } : {}) } });
    } else if (r.kind === 'item') {
      // Rows are per participant, so an item here is always of one of the user's calls.
      const item = items.get(Number(r.payload.itemId));
      if (item) out.push({ id, name: 'item', data: item });
    } else {
      const p = r.payload;
      const data: SignalEvent = {
        callId: r.call_id,
        id: Number(p.id),
        kind: p.kind as SignalKind,
        payload: p.payload as Record<string, unknown>,
        fromUserId: Number(p.fromUserId),
        createdAt: isoOrNull(p.createdAt) ?? new Date(0).toISOString(),
      };
      out.push({ id, name: 'signal', data });
    }
  }
  const cursor = rows.length ? Number(rows[rows.length - 1].id) : after;
  return { events: out, cursor, more: rows.length === EVENT_STREAM_BATCH };
}

/** The seller's app has the call on screen: pending → ringing (the trigger tells the caller). */
export async function markRinging(deps: EventsDeps, callIds: number[]): Promise<void> {
  if (!callIds.length) return;
  const now = deps.clock.now();
  await deps
    .db('calls')
    .whereIn('id', callIds)
    .where('status', 'pending')
    .where('created_at', '>', new Date(now.getTime() - deps.config.callRingTimeoutMs))
    .update({ status: 'ringing', ringing_at: now });
}

/** The event log of calls that are over has no reader left for its signals (the bulk of it): drop them. */
export async function pruneSignalEvents(db: Knex, terminal: readonly string[]): Promise<number> {
  return db('call_events')
    .where('kind', 'signal')
    .whereIn('call_id', db('calls').select('id').whereIn('status', terminal))
    .delete();
}
