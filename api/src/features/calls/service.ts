import type { Knex } from 'knex';
import { queueNotice } from '../notices/service';
import {
  CALL_ERROR_CODES as CODES,
  CALL_INITIATE_RATE,
  CALL_MESSAGES as MSG,
  SIGNALS_PAGE_SIZE,
  type CallEndReasonInput,
  type CallHistoryResponse,
  type CallSignalsResponse,
  type CallStatusResponse,
  type CallSummary,
  type EndCallResponse,
  type IncomingCallsResponse,
  type InitiateCallResponse,
  type RespondCallResponse,
  type SendSignalInput,
} from '../../../contract/calls';
import { SELLING_ERROR_CODES, SELLING_MESSAGES, type CallProduct } from '../../../contract/call-selling';
import { LIVE_CALL_STATUSES, TERMINAL_CALL_STATUSES } from '../../../contract/constants';
import type { AppDeps, SessionUser } from '../../http/context';
import { conflict, notFound, tooManyRequests } from '../../http/errors';
import { metrics } from '../../http/metrics';
import { hitRateLimit } from '../../http/rate-limit';
import { SESSION_USER_CTE, sessionBindings, type SessionRow } from '../../http/session';
import { hotQuery } from '../../../../db/connection';
import type { VideoTokenResponse } from '../../../contract/video';
import { pruneSignalEvents } from '../events/service';
import { loadCallProduct, loadCallProducts } from '../selling/products';
import { answerCallback, loadCallState } from '../schedule/service';
import { SHOP_HOURS_ERROR_CODES, SHOP_HOURS_MESSAGES } from '../../../contract/shop-hours';
import {
  presentCallBrief,
  presentCallStatus,
  presentCallSummary,
  presentHistoryEntry,
  presentIncomingCall,
  presentSignal,
  type CallRow,
  type CallWithNamesRow,
  type SignalRow,
} from './presenter';

/**
 * Told about each new call so another feature (web push) can ring the seller. It runs after the call is
 * stored and is never awaited by the customer's request; its failures are only logged.
 */
export type IncomingCallNotifier = (
  call: CallSummary,
  callerName: string,
  product: CallProduct | null,
) => void | Promise<void>;

type CallsDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

const UNANSWERED = ['pending', 'ringing'] as const;
const MAX_HISTORY = 200;

const isUniqueViolation = (err: unknown, index: string) => {
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  return (
    e?.code === '23505' &&
    (e.constraint === index || (typeof e.message === 'string' && e.message.includes(index)))
  );
};

const ringCutoff = (deps: CallsDeps) => new Date(deps.clock.now().getTime() - deps.config.callRingTimeoutMs);

/**
 * Turns unanswered calls older than the ring timeout into 'missed'. One guarded UPDATE: a call that an
 * accept, decline or hang-up got to first no longer matches, so exactly one of them wins. The end time is
 * the moment the ringing stopped, not the moment somebody noticed.
 */
export async function expireUnansweredCalls(
  db: Knex,
  now: Date,
  ringTimeoutMs: number,
  scope: { callId?: number; sellerId?: number; callerId?: number; userId?: number } = {},
): Promise<number> {
  const q = db('calls')
    .whereIn('status', UNANSWERED)
    .where('created_at', '<=', new Date(now.getTime() - ringTimeoutMs));
  if (scope.callId !== undefined) q.where('id', scope.callId);
  if (scope.sellerId !== undefined) q.where('seller_id', scope.sellerId);
  if (scope.callerId !== undefined) q.where('caller_id', scope.callerId);
  if (scope.userId !== undefined)
    q.where((w) => w.where('caller_id', scope.userId!).orWhere('seller_id', scope.userId!));
  const n = await q.update({
    status: 'missed',
    ended_at: db.raw(`created_at + (? * interval '1 millisecond')`, [ringTimeoutMs]),
    end_reason: 'timeout',
  });
  if (n) metrics.callsEnded.inc({ reason: 'timeout' }, n);
  return n;
}

/** An active call nobody has polled for this long (both sides) is over: both browsers are gone. */
export const ABANDONED_BOTH_MS = 60_000;
/** One side silent this long ends the call too (status is polled every 2 s while a call is open). */
export const ABANDONED_ONE_MS = 120_000;

/**
 * Ends active calls whose participants stopped polling (tabs closed without the unload beacon, a phone
 * that lost power). Without it such a call would keep the seller busy and the customer unable to call.
 */
export async function endAbandonedCalls(
  db: Knex,
  now: Date,
  scope: { sellerId?: number; callerId?: number } = {},
): Promise<number> {
  const both = new Date(now.getTime() - ABANDONED_BOTH_MS);
  const one = new Date(now.getTime() - ABANDONED_ONE_MS);
  const q = db('calls')
    .where('status', 'active')
    .where((w) =>
      w
        .whereRaw(
          'greatest(coalesce(caller_seen_at, answered_at), coalesce(seller_seen_at, answered_at)) < ?',
          [both],
        )
        .orWhereRaw(
          'least(coalesce(caller_seen_at, answered_at), coalesce(seller_seen_at, answered_at)) < ?',
          [one],
        ),
    );
  if (scope.sellerId !== undefined) q.where('seller_id', scope.sellerId);
  if (scope.callerId !== undefined) q.where('caller_id', scope.callerId);
  const n = await q.update({ status: 'ended', ended_at: now, end_reason: 'abandoned' });
  if (n) metrics.callsEnded.inc({ reason: 'abandoned' }, n);
  return n;
}

/** Records that a participant is still on an active call (their status or signal poll). */
async function touchActiveCall(db: Knex, callId: number, userId: number, now: Date): Promise<void> {
  await db('calls')
    .where({ id: callId, status: 'active' })
    .update({
      caller_seen_at: db.raw('case when caller_id = ? then ? else caller_seen_at end', [userId, now]),
      seller_seen_at: db.raw('case when seller_id = ? then ? else seller_seen_at end', [userId, now]),
    });
}

/** The periodic sweep: expire unanswered calls, end abandoned ones, drop signalling of calls that are over. */
export async function sweepCalls(
  deps: CallsDeps,
): Promise<{ expired: number; abandoned: number; signalsDeleted: number }> {
  const expired = await expireUnansweredCalls(deps.db, deps.clock.now(), deps.config.callRingTimeoutMs);
  const abandoned = await endAbandonedCalls(deps.db, deps.clock.now());
  const signalsDeleted = await deps
    .db('call_signals')
    .whereIn('call_id', deps.db('calls').select('id').whereIn('status', TERMINAL_CALL_STATUSES))
    .delete();
  await pruneSignalEvents(deps.db, TERMINAL_CALL_STATUSES);
  return { expired, abandoned, signalsDeleted };
}

/**
 * Users whose event stream is open are on their calls as surely as users who poll: their active calls are
 * marked seen, so a call carried by the stream alone is never taken for abandoned.
 */
export async function touchStreamingCalls(db: Knex, userIds: number[], now: Date): Promise<void> {
  if (!userIds.length) return;
  await db('calls')
    .where('status', 'active')
    .where((w) => w.whereIn('caller_id', userIds).orWhereIn('seller_id', userIds))
    .update({
      caller_seen_at: db.raw('case when caller_id = any(?) then ? else caller_seen_at end', [userIds, now]),
      seller_seen_at: db.raw('case when seller_id = any(?) then ? else seller_seen_at end', [userIds, now]),
    });
}

const withNames = (db: Knex) =>
  db('calls as c')
    .join('users as cu', 'cu.id', 'c.caller_id')
    .join('users as su', 'su.id', 'c.seller_id')
    .leftJoin('seller_profiles as sp', 'sp.user_id', 'c.seller_id')
    .select(
      'c.*',
      'cu.display_name as caller_name',
      'cu.avatar_url as caller_avatar_url',
      'sp.shop_name',
      'su.display_name as seller_display_name',
    );

/** The call if the user is one of its two participants; anyone else is told it does not exist. */
async function participantCall(db: Knex, callId: number, userId: number): Promise<CallRow> {
  const row = (await db('calls')
    .where('id', callId)
    .where((w) => w.where('caller_id', userId).orWhere('seller_id', userId))
    .first()) as CallRow | undefined;
  if (!row) throw notFound(MSG.callNotFound, CODES.callNotFound);
  return row;
}

/**
 * Starts a call from a customer to a seller; the call is pending until the seller's app picks it up. A call
 * placed from a product names it (`productId`): it must be a product of that shop that is not deleted.
 */
export async function initiateCall(
  deps: CallsDeps,
  caller: SessionUser,
  sellerId: number,
  productId: number | undefined,
  notify?: IncomingCallNotifier,
  /** A booked appointment's call (issue #22): the booking is the permission, so hours and away do not apply. */
  opts: { appointmentId?: number } = {},
): Promise<InitiateCallResponse> {
  const { db } = deps;
  const now = deps.clock.now();
  const rate = await hitRateLimit(
    db,
    `call-initiate:${caller.id}`,
    deps.config.limits.callInitiatePerUserPerMinute,
    CALL_INITIATE_RATE.windowMs,
    now,
  );
  if (!rate.allowed) throw tooManyRequests(MSG.tooManyCalls, rate.retryAfterMs / 1000);
  // A call left behind by vanished browsers must not block this one (as the caller's or as a busy seller).
  await endAbandonedCalls(db, now, { callerId: caller.id });
  await endAbandonedCalls(db, now, { sellerId });

  const seller = (await db('users as u')
    .join('seller_profiles as sp', 'sp.user_id', 'u.id')
    .where('u.id', sellerId)
    .where('u.role', 'seller')
    .first('u.id', 'sp.is_approved', 'sp.video_call_enabled')) as
    { id: number; is_approved: boolean | null; video_call_enabled: boolean } | undefined;
  if (!seller || seller.is_approved !== true) throw notFound(MSG.sellerNotFound, CODES.sellerNotFound);
  if (!seller.video_call_enabled) throw conflict(MSG.videoDisabled, CODES.videoDisabled);
  // Hours and away decide whether the shop may be rung now (issue #22; the one call state of hours.ts).
  const shop = opts.appointmentId === undefined ? await loadCallState(db, sellerId, now) : null;
  if (shop?.state === 'closed') throw conflict(SHOP_HOURS_MESSAGES.closed, SHOP_HOURS_ERROR_CODES.closed);
  if (shop?.state === 'away') throw conflict(SHOP_HOURS_MESSAGES.away, SHOP_HOURS_ERROR_CODES.away);
  // Nothing would ring: no app of the jeweller's is open and no device of theirs takes push (issue #40).
  if (shop?.state === 'unreachable')
    throw conflict(SHOP_HOURS_MESSAGES.unreachable, SHOP_HOURS_ERROR_CODES.unreachable);
  if (productId !== undefined) {
    const own = await db('products')
      .where({ id: productId, seller_id: sellerId })
      .whereNull('deleted_at')
      .first('id');
    if (!own) throw notFound(SELLING_MESSAGES.productNotInShop, SELLING_ERROR_CODES.productNotInShop);
  }

  // A stale ringing call of this customer must not count as "in progress".
  await expireUnansweredCalls(db, now, deps.config.callRingTimeoutMs, { callerId: caller.id });

  const ownLive = await db('calls')
    .where('caller_id', caller.id)
    .whereIn('status', LIVE_CALL_STATUSES)
    .first('id');
  if (ownLive) throw conflict(MSG.callInProgress, CODES.callInProgress);
  const busy = await db('calls').where({ seller_id: sellerId, status: 'active' }).first('id');
  if (busy) throw conflict(MSG.sellerBusy, CODES.sellerBusy);

  let row: CallRow;
  try {
    [row] = (await db('calls')
      .insert({
        caller_id: caller.id,
        seller_id: sellerId,
        status: 'pending',
        provider: deps.config.video.provider,
        created_at: now,
        product_id: productId ?? null,
        ...(opts.appointmentId !== undefined ? { appointment_id: opts.appointmentId } : {}),
      })
      .returning('*')) as CallRow[];
  } catch (err) {
    if (isUniqueViolation(err, 'calls_one_live_per_caller'))
      throw conflict(MSG.callInProgress, CODES.callInProgress);
    throw err;
  }

  // The jeweller's missed call by SMS (issue #37): due when the ringing stops, sent only if unanswered.
  await queueNotice(
    db,
    {
      userId: sellerId,
      kind: 'missed_call',
      subject: `call:${row.id}`,
      params: { call: row.id, customer: caller.displayName },
    },
    now,
    new Date(now.getTime() + deps.config.callRingTimeoutMs + 1000),
  );
  const call = presentCallSummary(row);
  if (notify) {
    void Promise.resolve()
      .then(async () => notify(call, caller.displayName, await loadCallProduct(db, row.product_id)))
      .catch((err: unknown) => deps.logger.warn({ err, callId: call.id }, 'incoming call notifier failed'));
  }
  return { callId: call.id, status: 'pending', call };
}

/**
 * Presence is rewritten only when the last write for that seller is older than this, so a seller polling
 * every 4 s is written about every other poll instead of every one. The directory's online window (15 s) is
 * longer than this plus a poll interval plus the batch delay, so an app that keeps polling never shows as
 * offline.
 */
export const PRESENCE_REFRESH_MS = 5_000;
/** How often a process writes the presence refreshes it has gathered, in one statement. */
export const PRESENCE_FLUSH_MS = 1_000;

const PRESENCE_UPSERT = `insert into seller_presence (user_id, last_polled_at)
  select * from unnest(?::int[], ?::timestamptz[]) where (select set_config('synchronous_commit', 'off', true)) is not null
  on conflict (user_id) do update set last_polled_at = excluded.last_polled_at
    where seller_presence.last_polled_at < excluded.last_polled_at`;

/**
 * Records which sellers' apps are polling (the directory's online badge) without a write per poll: polls are
 * gathered in memory and written every PRESENCE_FLUSH_MS in one statement, so 1,250 polls a second cost one
 * small write a second. A seller this process has not seen lately (the app just opened: its first poll or its
 * event stream) is written at once instead (issue #50): the jeweller who opened the app a moment ago can be
 * rung, and a customer's page sees the shop become available on its next look. A seller whose last event
 * stream here closed (the app closed) is written as gone at once, so the shop stops offering calls it cannot
 * answer; another of the seller's devices still polling or streaming writes it back within PRESENCE_REFRESH_MS.
 *
 * The batched writes commit without waiting for the WAL flush (synchronous_commit off for their transaction
 * only): presence is soft state that the next poll rewrites, so a crash can lose at most a second of these
 * marks.
 */
export class PresenceRecorder {
  /** Seller id → when this process last queued that seller's presence, in ms. */
  private readonly noted = new Map<number, number>();
  private readonly queued = new Map<number, string>();

  constructor(
    private readonly db: Knex,
    /** A write that changed whether the seller is reachable (the shop's public call state) has committed. */
    private readonly changed: (sellerId: number) => void = () => undefined,
  ) {}

  /**
   * Notes a poll; the seller is written with the next batch unless written lately, or at once (the promise)
   * when this process has not seen the seller lately.
   */
  polled(sellerId: number, now: Date): Promise<void> | undefined {
    const ms = now.getTime();
    const last = this.noted.get(sellerId);
    if (last !== undefined && ms - last < PRESENCE_REFRESH_MS) return undefined;
    this.noted.set(sellerId, ms);
    if (last === undefined) {
      this.queued.delete(sellerId);
      return hotQuery(this.db, 'presence_upsert', PRESENCE_UPSERT, [[sellerId], [now.toISOString()]]).then(
        () => this.changed(sellerId),
      );
    }
    this.queued.set(sellerId, now.toISOString());
    return undefined;
  }

  /** The seller's app opened here (its event stream): written at once. */
  arrived(sellerId: number, now: Date): Promise<void> {
    this.noted.delete(sellerId);
    return this.polled(sellerId, now) ?? Promise.resolve();
  }

  /**
   * The seller's last event stream here closed: the presence this process wrote is taken back at once (a
   * later write, by another process or device, is left alone).
   */
  async left(sellerId: number, now: Date): Promise<void> {
    const last = this.noted.get(sellerId);
    this.noted.delete(sellerId);
    this.queued.delete(sellerId);
    await this.db('seller_presence')
      .where('user_id', sellerId)
      .where('last_polled_at', '<=', new Date(last ?? now.getTime()))
      .delete();
    this.changed(sellerId);
  }

  /** Writes the gathered polls and forgets sellers that stopped polling. */
  async flush(now: Date): Promise<void> {
    const forget = now.getTime() - 4 * PRESENCE_REFRESH_MS;
    for (const [id, ms] of this.noted) if (ms < forget) this.noted.delete(id);
    if (!this.queued.size) return;
    const ids = [...this.queued.keys()];
    const times = [...this.queued.values()];
    this.queued.clear();
    await hotQuery(this.db, 'presence_upsert', PRESENCE_UPSERT, [ids, times]);
  }
}

const INCOMING_SQL = `select c.id, c.caller_id, c.created_at, c.status, c.product_id, cu.display_name as caller_name,
       cu.avatar_url as caller_avatar_url
  from calls c join users cu on cu.id = c.caller_id
 where c.seller_id = ? and c.status in ('pending', 'ringing') and c.direction = 'to_seller'
 order by c.created_at, c.id`;

/** The session's user and, for a seller, each unanswered call with its caller: a row per call, or one row. */
const POLL_SQL = `with ${SESSION_USER_CTE}
select me.*, c.id as call_id, c.caller_id, c.created_at as call_created_at, c.status as call_status,
       c.product_id, cu.display_name as caller_name, cu.avatar_url as caller_avatar_url
  from me left join (calls c join users cu on cu.id = c.caller_id)
    on c.seller_id = me.id and me.role = 'seller' and c.status in ('pending', 'ringing')
       and c.direction = 'to_seller'
 order by c.created_at, c.id`;

type IncomingRow = Pick<
  CallWithNamesRow,
  'id' | 'caller_id' | 'created_at' | 'status' | 'caller_name' | 'caller_avatar_url' | 'product_id'
>;

type PollRow = SessionRow & {
  call_id: number | null;
  caller_id: number;
  call_created_at: Date;
  call_status: CallWithNamesRow['status'];
  product_id: number | null;
  caller_name: string;
  caller_avatar_url: string | null;
};

/**
 * The first half of a seller's poll, in one round trip: the session of the request (as the session
 * middleware would read it) and that user's unanswered calls when the user is a seller.
 */
export async function readPoll(
  deps: CallsDeps,
  sessionId: string,
): Promise<{ session: SessionRow | undefined; calls: IncomingRow[] }> {
  const rows = await hotQuery<PollRow>(
    deps.db,
    'calls_poll',
    POLL_SQL,
    sessionBindings(sessionId, deps.clock.now()),
  );
  return {
    session: rows[0],
    calls: rows.flatMap((r) =>
      r.call_id === null
        ? []
        : [
            {
              id: r.call_id,
              caller_id: r.caller_id,
              created_at: r.call_created_at,
              status: r.call_status,
              caller_name: r.caller_name,
              caller_avatar_url: r.caller_avatar_url,
              product_id: r.product_id,
            },
          ],
    ),
  };
}

/**
 * A seller's poll, given the unanswered calls readPoll found: records presence, expires what rang too long,
 * marks newly delivered calls ringing and lists the calls still waiting for an answer, oldest first.
 *
 * 1,250 polls a second is the target load, and nearly every poll finds nothing: so a poll is one prepared
 * read (readPoll, a partial index), and only when that finds a call still pending or past the ring timeout
 * does it run the guarded UPDATEs, then read again. Presence goes through the PresenceRecorder, in batches (at once for an app just opened).
 */
export async function pollIncomingCalls(
  deps: CallsDeps,
  seller: SessionUser,
  unanswered: IncomingRow[],
  presence?: PresenceRecorder,
): Promise<IncomingCallsResponse> {
  const { db } = deps;
  const now = deps.clock.now();
  const ringMs = deps.config.callRingTimeoutMs;
  const cutoff = now.getTime() - ringMs;
  await presence?.polled(seller.id, now);
  let live = unanswered;
  if (live.some((r) => r.status === 'pending' || new Date(r.created_at).getTime() <= cutoff)) {
    await expireUnansweredCalls(db, now, ringMs, { sellerId: seller.id });
    await db('calls')
      .where({ seller_id: seller.id, status: 'pending', direction: 'to_seller' })
      .where('created_at', '>', new Date(cutoff))
      .update({ status: 'ringing', ringing_at: now });
    live = await hotQuery<IncomingRow>(db, 'calls_incoming', INCOMING_SQL, [seller.id]);
  }
  live = live.filter((r) => new Date(r.created_at).getTime() > cutoff);
  // Only a ringing call placed from a product costs a second read; an empty poll stays one statement.
  const products = await loadCallProducts(
    db,
    live.flatMap((r) => (r.product_id === null ? [] : [r.product_id])),
  );
  return {
    calls: live.map((r) =>
      presentIncomingCall(r, r.product_id === null ? null : (products.get(r.product_id) ?? null)),
    ),
  };
}

/** The call, when `userId` is the one it rings: the seller, or the customer for a call-back (issue #22). */
const rungBy = (q: Knex.QueryBuilder, callId: number, userId: number) =>
  q
    .where('id', callId)
    .where((w) =>
      w
        .where((a) => a.where('direction', 'to_seller').where('seller_id', userId))
        .orWhere((b) => b.where('direction', 'to_customer').where('caller_id', userId)),
    );

/** The one the call rings (the seller, or the customer for a jeweller's call-back) accepts or declines it. */
export async function respondToCall(
  deps: CallsDeps,
  seller: SessionUser,
  callId: number,
  response: 'accept' | 'decline',
  answer?: Record<string, unknown>,
  /** The accepting side's video token, issued with the accept so that its browser needs no request for it. */
  issueToken?: (call: CallRow) => VideoTokenResponse | null,
): Promise<RespondCallResponse> {
  const { db } = deps;
  const now = deps.clock.now();
  // The status and ring-time conditions make this the single point where a racing decline, accept,
  // hang-up or expiry is decided: whichever UPDATE commits first changes the row, the others match nothing.
  // An accept is one statement before its answer goes out (Accept is instant, docs/product-rules.md §19):
  // what explains a refusal (not this user's call, rung out) is read only when the update matched nothing.
  const guarded = rungBy(db('calls'), callId, seller.id)
    .whereIn('status', UNANSWERED)
    .where('created_at', '>', ringCutoff(deps));
  let rows: CallRow[];
  try {
    rows = (await (
      response === 'accept'
        ? guarded.update({ status: 'active', answered_at: now })
        : guarded.update({ status: 'declined', ended_at: now, ended_by: seller.id, end_reason: 'declined' })
    ).returning('*')) as CallRow[];
  } catch (err) {
    if (isUniqueViolation(err, 'calls_one_active_per_seller'))
      throw conflict(MSG.sellerBusy, CODES.sellerBusy);
    throw err;
  }
  if (!rows.length) {
    const existing = (await rungBy(db('calls'), callId, seller.id).first('id')) as { id: number } | undefined;
    if (!existing) throw notFound(MSG.callNotFound, CODES.callNotFound);
    await expireUnansweredCalls(db, now, deps.config.callRingTimeoutMs, { callId });
    throw conflict(MSG.alreadyResponded, CODES.alreadyResponded);
  }
  const call = rows[0];
  if (response === 'decline') metrics.callsEnded.inc({ reason: 'declined' });
  if (response === 'accept') {
    const to = call.caller_id === seller.id ? call.seller_id : call.caller_id;
    await Promise.all([
      answerCallback(db, callId, now),
      // The answer to the offer that arrived while it rang goes out with the accept: the caller reads both in
      // one batch of its event stream, not a request later.
      answer &&
        db('call_signals').insert({
          call_id: callId,
          from_user_id: seller.id,
          to_user_id: to,
          kind: 'answer',
          payload: JSON.stringify(answer),
          created_at: now,
        }),
    ]);
    const token = issueToken?.(call);
    if (token) return { call: presentCallBrief(call), token };
  }
  return { call: presentCallBrief(call) };
}

/**
 * Either participant ends the call (a hang-up, or the call's own end: no network path, media lost); ending a
 * call that is already over answers with how it ended.
 */
export async function endCall(
  deps: CallsDeps,
  user: SessionUser,
  callId: number,
  reason: CallEndReasonInput = 'hangup',
): Promise<EndCallResponse> {
  const { db } = deps;
  const now = deps.clock.now();
  await participantCall(db, callId, user.id);
  // A call that rang out before the hang-up arrived stays 'missed'.
  await expireUnansweredCalls(db, now, deps.config.callRingTimeoutMs, { callId });
  const [ended] = (await db('calls')
    .where('id', callId)
    .whereIn('status', LIVE_CALL_STATUSES)
    .update({ status: 'ended', ended_at: now, ended_by: user.id, end_reason: reason })
    .returning('*')) as CallRow[];
  if (ended) metrics.callsEnded.inc({ reason });
  await db('call_signals').where('call_id', callId).delete();
  const row = ended ?? ((await db('calls').where('id', callId).first()) as CallRow);
  return { callId: row.id, status: row.status, call: presentCallBrief(row) };
}

/** The call as one participant sees it. */
export async function getCallStatus(
  deps: CallsDeps,
  user: SessionUser,
  callId: number,
): Promise<CallStatusResponse> {
  const { db } = deps;
  await participantCall(db, callId, user.id);
  await expireUnansweredCalls(db, deps.clock.now(), deps.config.callRingTimeoutMs, { callId });
  await touchActiveCall(db, callId, user.id, deps.clock.now());
  const row = (await withNames(db).where('c.id', callId).first()) as CallWithNamesRow;
  return presentCallStatus(row, user.id, await loadCallProduct(db, row.product_id));
}

/** The user's calls, newest first: made by a customer, received by a seller. */
export async function listCallHistory(deps: CallsDeps, user: SessionUser): Promise<CallHistoryResponse> {
  const { db } = deps;
  await expireUnansweredCalls(db, deps.clock.now(), deps.config.callRingTimeoutMs, { userId: user.id });
  const rows = (await withNames(db)
    .where((w) => w.where('c.caller_id', user.id).orWhere('c.seller_id', user.id))
    .orderBy([
      { column: 'c.created_at', order: 'desc' },
      { column: 'c.id', order: 'desc' },
    ])
    .limit(MAX_HISTORY)) as CallWithNamesRow[];
  const products = await loadCallProducts(
    db,
    rows.flatMap((r) => (r.product_id === null ? [] : [r.product_id])),
  );
  return {
    calls: rows.map((r) =>
      presentHistoryEntry(r, user.id, r.product_id === null ? null : (products.get(r.product_id) ?? null)),
    ),
  };
}

/**
 * Stores one WebRTC signal addressed to the other participant. The insert selects the call in the same
 * statement, so a signal can never be stored for a call that stopped being active a moment earlier.
 * While the call still rings, only the one who placed it may send, and only its offer and candidates: the
 * answering side has them when it picks up, and nothing of the answering side travels before its accept.
 */
export async function sendSignal(
  deps: CallsDeps,
  user: SessionUser,
  input: SendSignalInput,
): Promise<{ id: number }> {
  const { db } = deps;
  const call = await participantCall(db, input.callId, user.id);
  const to = call.caller_id === user.id ? call.seller_id : call.caller_id;
  const result = (await db.raw(
    `insert into call_signals (call_id, from_user_id, to_user_id, kind, payload, created_at)
     select id, ?, ?, ?, ?::jsonb, ? from calls
      where id = ?
        and (status = 'active'
             or (status in ('pending', 'ringing') and created_at > ? and ? in ('offer', 'candidate')
                 and (case when direction = 'to_customer' then seller_id else caller_id end) = ?))
     returning id`,
    [
      user.id,
      to,
      input.kind,
      JSON.stringify(input.payload),
      deps.clock.now(),
      input.callId,
      ringCutoff(deps),
      input.kind,
      user.id,
    ],
  )) as { rows: { id: number | string }[] };
  if (!result.rows.length) throw conflict(MSG.callNotActive, CODES.callNotActive);
  return { id: Number(result.rows[0].id) };
}

/**
 * Signals addressed to the user after the given id, in the order they were sent, with the call's status.
 * Readable by both participants in any status: while the call rings the one it rings finds the caller's offer
 * here, and the caller's app polls this (every 250 ms, without an event stream) to learn of the accept at once.
 * Polled that often, it does the least work per status: expiry for an unanswered call, presence for an
 * active one.
 */
export async function listSignals(
  deps: CallsDeps,
  user: SessionUser,
  callId: number,
  after: number,
): Promise<CallSignalsResponse> {
  const { db } = deps;
  const call = await participantCall(db, callId, user.id);
  let status = call.status;
  if (status === 'active') await touchActiveCall(db, callId, user.id, deps.clock.now());
  else if (status === 'pending' || status === 'ringing') {
    const expired = await expireUnansweredCalls(db, deps.clock.now(), deps.config.callRingTimeoutMs, {
      callId,
    });
    if (expired) status = 'missed';
  }
  const rows = (await db('call_signals')
    .where({ call_id: callId, to_user_id: user.id })
    .where('id', '>', after)
    .orderBy('id', 'asc')
    .limit(SIGNALS_PAGE_SIZE)
    .select('id', 'kind', 'payload', 'from_user_id', 'created_at')) as SignalRow[];
  return { signals: rows.map(presentSignal), status };
}
