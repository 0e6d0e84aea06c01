import type { Knex } from 'knex';
import { queueNotice, shopNameOf } from '../notices/service';
import {
  CALLBACK_ERROR_CODES as CODES,
  CALLBACK_LIMITS,
  CALLBACK_MESSAGES as MSG,
  type CallbackListResponse,
  type CallbackRequest,
  type CallbackStatus,
  type CallbackWindow,
  type CreateCallbackInput,
} from '../../../contract/callbacks';
import {
  CALL_ERROR_CODES,
  CALL_MESSAGES,
  type IncomingCallsResponse,
  type InitiateCallResponse,
} from '../../../contract/calls';
import { SELLING_ERROR_CODES, SELLING_MESSAGES } from '../../../contract/call-selling';
import { LIVE_CALL_STATUSES } from '../../../contract/constants';
import type { AppDeps, SessionUser } from '../../http/context';
import { badRequest, conflict, notFound, tooManyRequests } from '../../http/errors';
import { endAbandonedCalls, expireUnansweredCalls } from '../calls/service';
import { loadCallProduct, loadCallProducts } from '../selling/products';
import {
  presentCallSummary,
  presentIncomingCall,
  type CallRow,
  type CallWithNamesRow,
} from '../calls/presenter';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger' | 'hooks'>;
const HOUR = 3_600_000;

interface RequestRow {
  id: number;
  customer_id: number;
  seller_id: number;
  product_id: number | null;
  from_call_id: number | null;
  note: string | null;
  preferred_window: CallbackWindow;
  preferred_at: Date | string | null;
  status: CallbackStatus;
  expires_at: Date | string;
  created_at: Date | string;
  closed_at: Date | string | null;
  answered_call_id: number | null;
  shop_name: string;
  customer_name: string;
  product_name: string | null;
}

const iso = (v: Date | string) => new Date(v).toISOString();
const isoOrNull = (v: Date | string | null) => (v === null ? null : iso(v));

function present(r: RequestRow): CallbackRequest {
  return {
    id: r.id,
    status: r.status,
    window: r.preferred_window,
    preferredAt: isoOrNull(r.preferred_at),
    note: r.note,
    createdAt: iso(r.created_at),
    expiresAt: iso(r.expires_at),
    closedAt: isoOrNull(r.closed_at),
    shop: { sellerId: r.seller_id, shopName: r.shop_name },
    customer: { id: r.customer_id, displayName: r.customer_name },
    product: r.product_id === null ? null : { id: r.product_id, name: r.product_name ?? '' },
    fromCallId: r.from_call_id,
    answeredCallId: r.answered_call_id,
  };
}

const withNames = (db: Knex) =>
  db('callback_requests as r')
    .join('users as cu', 'cu.id', 'r.customer_id')
    .join('users as su', 'su.id', 'r.seller_id')
    .leftJoin('seller_profiles as sp', 'sp.user_id', 'r.seller_id')
    .leftJoin('products as p', 'p.id', 'r.product_id')
    .select(
      'r.*',
      db.raw('coalesce(sp.shop_name, su.display_name) as shop_name'),
      'cu.display_name as customer_name',
      'p.name as product_name',
    );

/** Open requests past their time become 'expired' (one guarded UPDATE: a call-back that got there first wins). */
export async function expireCallbacks(db: Knex, now: Date, scope: { userId?: number } = {}): Promise<number> {
  const q = db('callback_requests').where('status', 'open').where('expires_at', '<=', now);
  if (scope.userId !== undefined)
    q.where((w) => w.where('customer_id', scope.userId!).orWhere('seller_id', scope.userId!));
  return q.update({ status: 'expired', closed_at: now });
}

/** When an open request expires: 'now' in 2 h, 'today' in 12 h, 'at' 2 h after the chosen time. */
function expiryOf(window: CallbackWindow, preferredAt: Date | null, now: Date): Date {
  if (window === 'at') return new Date(preferredAt!.getTime() + CALLBACK_LIMITS.afterChosenHours * HOUR);
  return new Date(
    now.getTime() + (window === 'now' ? CALLBACK_LIMITS.nowHours : CALLBACK_LIMITS.todayHours) * HOUR,
  );
}

/** A customer asks the shop to call back. One open request per customer and shop. */
export async function createCallback(
  deps: Deps,
  customer: SessionUser,
  input: CreateCallbackInput,
): Promise<CallbackRequest> {
  const { db } = deps;
  const now = deps.clock.now();
  const shop = (await db('seller_profiles')
    .where({ user_id: input.sellerId, is_approved: true })
    .first('user_id', 'video_call_enabled')) as { user_id: number; video_call_enabled: boolean } | undefined;
  if (!shop) throw notFound(CALL_MESSAGES.sellerNotFound, CALL_ERROR_CODES.sellerNotFound);
  if (!shop.video_call_enabled) throw conflict(MSG.shopNoVideo, CALL_ERROR_CODES.videoDisabled);
  if (input.productId !== undefined) {
    const own = await db('products')
      .where({ id: input.productId, seller_id: input.sellerId })
      .whereNull('deleted_at')
      .first('id');
    if (!own) throw notFound(SELLING_MESSAGES.productNotInShop, SELLING_ERROR_CODES.productNotInShop);
  }
  if (input.fromCallId !== undefined) {
    const call = await db('calls')
      .where({ id: input.fromCallId, caller_id: customer.id, seller_id: input.sellerId })
      .first('id');
    if (!call) throw notFound(CALL_MESSAGES.callNotFound, CALL_ERROR_CODES.callNotFound);
  }
  const preferredAt = input.preferredAt ? new Date(input.preferredAt) : null;
  if (
    input.window === 'at' &&
    (preferredAt!.getTime() <= now.getTime() ||
      preferredAt!.getTime() > now.getTime() + CALLBACK_LIMITS.maxAheadDays * 24 * HOUR)
  )
    throw badRequest(MSG.timeInPast, 'callback_time_invalid');
  await expireCallbacks(db, now, { userId: customer.id });
  // Each request rings the jeweller's phone: withdrawn ones count too, so create → withdraw cannot repeat.
  const perDay = deps.config.schedule.callbacksPerShopPerDay;
  const today = (await db('callback_requests')
    .where({ customer_id: customer.id, seller_id: input.sellerId })
    .where('created_at', '>', new Date(now.getTime() - 24 * HOUR))
    .count({ n: '*' })) as { n: string | number }[];
  if (Number(today[0]?.n ?? 0) >= perDay)
    throw tooManyRequests(MSG.tooMany.replace('{n}', String(perDay)), 3600, CODES.tooMany);
  let id: number;
  try {
    [{ id }] = (await db('callback_requests')
      .insert({
        customer_id: customer.id,
        seller_id: input.sellerId,
        product_id: input.productId ?? null,
        from_call_id: input.fromCallId ?? null,
        note: input.note ? input.note : null,
        preferred_window: input.window,
        preferred_at: input.window === 'at' ? preferredAt : null,
        expires_at: expiryOf(input.window, preferredAt, now),
        created_at: now,
      })
      .returning('id')) as { id: number }[];
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw conflict(MSG.alreadyOpen, CODES.alreadyOpen);
    throw err;
  }
  const created = present((await withNames(db).where('r.id', id).first()) as RequestRow);
  // The jeweller is told by push (never awaited: the push feature logs its failures).
  for (const listener of deps.hooks.callbackRequested)
    listener({
      requestId: created.id,
      sellerId: created.shop.sellerId,
      customerName: created.customer.displayName,
      productName: created.product?.name ?? null,
    });
  return created;
}

/** The customer's requests, newest first, with how each ended. */
export async function listMyCallbacks(deps: Deps, customer: SessionUser): Promise<CallbackListResponse> {
  await expireCallbacks(deps.db, deps.clock.now(), { userId: customer.id });
  const rows = (await withNames(deps.db)
    .where('r.customer_id', customer.id)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(50)) as RequestRow[];
  return { requests: rows.map(present), openCount: rows.filter((r) => r.status === 'open').length };
}

/** The jeweller's queue: open requests oldest first, then those closed in the last 24 h. */
export async function callbackQueue(deps: Deps, seller: SessionUser): Promise<CallbackListResponse> {
  const now = deps.clock.now();
  await expireCallbacks(deps.db, now, { userId: seller.id });
  const rows = (await withNames(deps.db)
    .where('r.seller_id', seller.id)
    // A withdrawn request is the customer's change of mind, not the jeweller's work: never in the queue.
    .where((w) =>
      w
        .where('r.status', 'open')
        .orWhere((c) =>
          c.where('r.closed_at', '>', new Date(now.getTime() - 24 * HOUR)).whereNot('r.status', 'withdrawn'),
        ),
    )
    .orderByRaw(`(r.status = 'open') desc, r.created_at asc, r.id asc`)
    .limit(100)) as RequestRow[];
  return { requests: rows.map(present), openCount: rows.filter((r) => r.status === 'open').length };
}

/** The customer withdraws an open request. */
export async function withdrawCallback(
  deps: Deps,
  customer: SessionUser,
  requestId: number,
): Promise<CallbackRequest> {
  const { db } = deps;
  const now = deps.clock.now();
  await expireCallbacks(db, now, { userId: customer.id });
  const own = await db('callback_requests').where({ id: requestId, customer_id: customer.id }).first('id');
  if (!own) throw notFound(MSG.notFound, CODES.notFound);
  const n = await db('callback_requests')
    .where({ id: requestId, status: 'open' })
    .update({ status: 'withdrawn', closed_at: now });
  if (!n) throw conflict(MSG.notOpen, CODES.notOpen);
  return present((await withNames(db).where('r.id', requestId).first()) as RequestRow);
}

/**
 * The jeweller calls back: a call in the reverse direction (direction 'to_customer'), whose caller_id is still
 * the customer and seller_id the shop, so every participant check of the calls area holds; the 'incoming' event
 * goes to the customer. The request is answered when the customer accepts (respondToCall).
 */
export async function callBack(
  deps: Deps,
  seller: SessionUser,
  requestId: number,
): Promise<InitiateCallResponse> {
  const { db } = deps;
  const now = deps.clock.now();
  await expireCallbacks(db, now, { userId: seller.id });
  const request = (await db('callback_requests').where({ id: requestId, seller_id: seller.id }).first()) as
    (RequestRow & { customer_id: number }) | undefined;
  if (!request) throw notFound(MSG.notFound, CODES.notFound);
  if (request.status !== 'open') throw conflict(MSG.notOpen, CODES.notOpen);
  const answer = await ringCustomer(deps, seller, {
    customerId: request.customer_id,
    productId: request.product_id,
    callbackRequestId: request.id,
  });
  // "Lakshmi Jewellers will call you in a few minutes", by SMS when the customer opted in (issue #37).
  const shop = await shopNameOf(db, seller.id);
  await queueNotice(
    db,
    {
      userId: request.customer_id,
      kind: 'callback_soon',
      subject: `callback:${request.id}`,
      params: { shop },
    },
    now,
  );
  return answer;
}

/**
 * A call from the shop that rings the customer (direction 'to_customer'): the jeweller's call-back, or the
 * jeweller starting a booked appointment's call. Both sides must be free.
 */
export async function ringCustomer(
  deps: Deps,
  seller: SessionUser,
  target: {
    customerId: number;
    productId: number | null;
    callbackRequestId?: number;
    appointmentId?: number;
  },
): Promise<InitiateCallResponse> {
  const { db } = deps;
  const now = deps.clock.now();
  const request = { customer_id: target.customerId, product_id: target.productId };
  await endAbandonedCalls(db, now, { callerId: request.customer_id });
  await endAbandonedCalls(db, now, { sellerId: seller.id });
  await expireUnansweredCalls(db, now, deps.config.callRingTimeoutMs, { callerId: request.customer_id });
  const busy = await db('calls').where({ seller_id: seller.id, status: 'active' }).first('id');
  if (busy) throw conflict(CALL_MESSAGES.sellerBusy, CALL_ERROR_CODES.sellerBusy);
  const live = await db('calls')
    .where('caller_id', request.customer_id)
    .whereIn('status', LIVE_CALL_STATUSES)
    .first('id');
  if (live) throw conflict(MSG.customerBusy, CODES.customerBusy);
  let row: CallRow;
  try {
    [row] = (await db('calls')
      .insert({
        caller_id: request.customer_id,
        seller_id: seller.id,
        direction: 'to_customer',
        callback_request_id: target.callbackRequestId ?? null,
        appointment_id: target.appointmentId ?? null,
        status: 'pending',
        provider: deps.config.video.provider,
        created_at: now,
        product_id: request.product_id,
      })
      .returning('*')) as CallRow[];
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw conflict(MSG.customerBusy, CODES.customerBusy);
    throw err;
  }
  const call = presentCallSummary(row);
  // The customer's app rings from the 'incoming' event (open app) or the call-back poll; a closed app by push.
  const product = await loadCallProduct(db, row.product_id);
  const shop = (await db('users as u')
    .leftJoin('seller_profiles as sp', 'sp.user_id', 'u.id')
    .where('u.id', seller.id)
    .first(db.raw('coalesce(sp.shop_name, u.display_name) as name'))) as { name: string };
  for (const listener of deps.hooks.incomingCall)
    listener({
      callId: call.id,
      sellerId: seller.id,
      callerId: request.customer_id,
      callerName: shop.name,
      productName: product?.name ?? null,
      rungUserId: request.customer_id,
    });
  return { callId: call.id, status: 'pending', call };
}

/**
 * "Call back" on a missed or declined call of the jeweller's (the dashboard's missed calls): the customer's open
 * request with the shop is used, or one is opened for them (window 'now', about the call's product), and the
 * call-back rings the customer as callBack does.
 */
export async function callBackMissed(
  deps: Deps,
  seller: SessionUser,
  callId: number,
): Promise<InitiateCallResponse> {
  const { db } = deps;
  const now = deps.clock.now();
  const call = (await db('calls')
    .where({ id: callId, seller_id: seller.id, direction: 'to_seller' })
    .whereIn('status', ['missed', 'declined'])
    .first('caller_id', 'product_id')) as { caller_id: number; product_id: number | null } | undefined;
  if (!call) throw notFound(CALL_MESSAGES.callNotFound, CALL_ERROR_CODES.callNotFound);
  await expireCallbacks(db, now, { userId: seller.id });
  const open = (await db('callback_requests')
    .where({ customer_id: call.caller_id, seller_id: seller.id, status: 'open' })
    .first('id')) as { id: number } | undefined;
  let requestId = open?.id;
  if (requestId === undefined) {
    // A concurrent request of the customer's wins the one open slot; then that one is used.
    const [row] = (await db('callback_requests')
      .insert({
        customer_id: call.caller_id,
        seller_id: seller.id,
        product_id: call.product_id,
        from_call_id: callId,
        preferred_window: 'now',
        expires_at: expiryOf('now', null, now),
        created_at: now,
      })
      .onConflict(db.raw(`(customer_id, seller_id) where status = 'open'`))
      .ignore()
      .returning('id')) as { id: number }[];
    requestId =
      row?.id ??
      (
        (await db('callback_requests')
          .where({ customer_id: call.caller_id, seller_id: seller.id, status: 'open' })
          .first('id')) as { id: number }
      ).id;
  }
  return callBack(deps, seller, requestId);
}

/**
 * The jeweller's call-backs ringing this customer (the fallback poll of a customer with an open request, while
 * the event stream is not open): marks them ringing like a seller's poll does; the caller shown is the shop.
 */
export async function ringingCallbacks(deps: Deps, customer: SessionUser): Promise<IncomingCallsResponse> {
  const { db } = deps;
  const now = deps.clock.now();
  const ringMs = deps.config.callRingTimeoutMs;
  await expireUnansweredCalls(db, now, ringMs, { callerId: customer.id });
  const cutoff = new Date(now.getTime() - ringMs);
  await db('calls')
    .where({ caller_id: customer.id, status: 'pending', direction: 'to_customer' })
    .where('created_at', '>', cutoff)
    .update({ status: 'ringing', ringing_at: now });
  const rows = (await db('calls as c')
    .join('users as su', 'su.id', 'c.seller_id')
    .leftJoin('seller_profiles as sp', 'sp.user_id', 'c.seller_id')
    .where({ 'c.caller_id': customer.id, 'c.direction': 'to_customer' })
    .whereIn('c.status', ['pending', 'ringing'])
    .where('c.created_at', '>', cutoff)
    .orderBy([
      { column: 'c.created_at', order: 'asc' },
      { column: 'c.id', order: 'asc' },
    ])
    .select(
      'c.id',
      'c.seller_id',
      'c.created_at',
      'c.product_id',
      'c.direction',
      db.raw('coalesce(sp.shop_name, su.display_name) as caller_name'),
      'su.avatar_url as caller_avatar_url',
    )) as (CallWithNamesRow & { direction: 'to_customer' })[];
  const products = await loadCallProducts(
    db,
    rows.flatMap((r) => (r.product_id === null ? [] : [r.product_id])),
  );
  return {
    calls: rows.map((r) =>
      presentIncomingCall(
        { ...r, caller_id: r.seller_id },
        r.product_id === null ? null : (products.get(r.product_id) ?? null),
      ),
    ),
  };
}
