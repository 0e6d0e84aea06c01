import crypto from 'node:crypto';
import type { Knex } from 'knex';
import {
  FAMILY_DAY_MS,
  FAMILY_ERROR_CODES as CODES,
  FAMILY_GUEST_GONE_MS,
  FAMILY_JOIN_PATH,
  FAMILY_MAX_GUESTS,
  FAMILY_MAX_INVITES_PER_CALL,
  FAMILY_MAX_INVITES_PER_DAY,
  FAMILY_NAME_MAX,
  FAMILY_MESSAGES as MSG,
  FAMILY_OPEN_RATE,
  type FamilyAskResponse,
  type FamilyGuest,
  type FamilyGuestResponse,
  type FamilyInviteResponse,
  type FamilyOpenResponse,
  type GuestState,
} from '../../../contract/call-family';
import { CALL_ERROR_CODES, CALL_MESSAGES } from '../../../contract/calls';
import { VIDEO_MESSAGES, type IceServersResponse } from '../../../contract/video';
import type { AppDeps, SessionUser } from '../../http/context';
import { conflict, forbidden, notFound, tooManyRequests, unauthorized } from '../../http/errors';
import { hitRateLimit } from '../../http/rate-limit';
import { turnCredentials } from '../video/providers';

/**
 * Family in the call (issue #52, docs/product-rules.md §21): invitation links, a guest's part in one call,
 * and the jeweller's admit, decline and remove. Tokens are 32 random bytes; only their SHA-256 is stored.
 */

export type FamilyDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

export interface GuestRow {
  id: number;
  call_id: number;
  invited_by: number;
  name: string | null;
  state: GuestState;
  asked_at: Date | string | null;
}

/** A call as the family reads it: its parties, its status, the shop's and the piece's names. */
export interface FamilyCallRow {
  id: number;
  caller_id: number;
  seller_id: number;
  status: string;
  product_id: number | null;
  shop_name: string;
  product_name: string | null;
}

export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('base64url');
const newToken = () => crypto.randomBytes(32).toString('base64url');

const callNotFound = () => notFound(CALL_MESSAGES.callNotFound, CALL_ERROR_CODES.callNotFound);
const callNotLive = () => conflict(MSG.callNotLive, CODES.callNotLive);

export const FAMILY_CALL_SQL = `select c.id, c.caller_id, c.seller_id, c.status, c.product_id,
       coalesce(sp.shop_name, su.display_name) as shop_name, p.name as product_name
  from calls c join users su on su.id = c.seller_id
  left join seller_profiles sp on sp.user_id = c.seller_id
  left join products p on p.id = c.product_id
 where c.id = ?`;

export async function familyCall(db: Knex, callId: number, lock = false): Promise<FamilyCallRow | undefined> {
  const { rows } = (await db.raw(FAMILY_CALL_SQL + (lock ? ' for update of c' : ''), [callId])) as {
    rows: FamilyCallRow[];
  };
  return rows[0];
}

export function presentGuest(row: GuestRow): FamilyGuest {
  return {
    id: row.id,
    party: `g${row.id}`,
    name: row.name ?? '',
    state: row.state,
    askedAt: row.asked_at === null ? null : new Date(row.asked_at).toISOString(),
  };
}

/**
 * An admitted (or waiting) guest whose page went silent has left: a lost network never keeps a place in the
 * call. Scoped to one call; run by every read of its family state.
 */
export async function settleGoneGuests(db: Knex, callId: number, now: Date): Promise<number[]> {
  const rows = (await db('call_guests')
    .where('call_id', callId)
    .whereIn('state', ['asked', 'admitted'])
    .where('seen_at', '<', new Date(now.getTime() - FAMILY_GUEST_GONE_MS))
    .update({ state: 'left', ended_at: now })
    .returning('id')) as { id: number }[];
  return rows.map((r) => r.id);
}

/** The customer asks for a link to share. Only the call's customer, only while the call is on. */
export async function createInvite(
  deps: FamilyDeps,
  user: SessionUser,
  callId: number,
): Promise<FamilyInviteResponse> {
  const now = deps.clock.now();
  return deps.db.transaction(async (trx) => {
    // The call's row is locked so two taps at once cannot both take the last invitation.
    const call = await familyCall(trx, callId, true);
    if (!call || call.caller_id !== user.id) throw callNotFound();
    if (call.status !== 'active') throw callNotLive();
    const made = (await trx('call_guests').where('call_id', callId).count('* as n').first()) as { n: string };
    if (Number(made.n) >= FAMILY_MAX_INVITES_PER_CALL)
      throw conflict(MSG.tooManyInvites, CODES.tooManyInvites);
    const today = (await trx('call_guests')
      .where('invited_by', user.id)
      .where('created_at', '>', new Date(now.getTime() - FAMILY_DAY_MS))
      .count('* as n')
      .first()) as { n: string };
    if (Number(today.n) >= FAMILY_MAX_INVITES_PER_DAY)
      throw tooManyRequests(MSG.tooManyToday, 3600, CODES.tooManyToday);
    const token = newToken();
    const [row] = (await trx('call_guests')
      .insert({ call_id: callId, invited_by: user.id, invite_hash: hashToken(token), created_at: now })
      .returning('id')) as { id: number }[];
    return {
      guestId: row.id,
      token,
      path: `${FAMILY_JOIN_PATH}/${token}`,
      shopName: call.shop_name,
      productName: call.product_name,
    };
  });
}

async function inviteByToken(db: Knex, token: string) {
  return (await db('call_guests').where('invite_hash', hashToken(token)).first()) as GuestRow | undefined;
}

async function limitOpens(deps: FamilyDeps, ip: string): Promise<void> {
  const hit = await hitRateLimit(
    deps.db,
    `family-open:${ip}`,
    FAMILY_OPEN_RATE.limit,
    FAMILY_OPEN_RATE.windowMs,
    deps.clock.now(),
  );
  if (!hit.allowed)
    throw tooManyRequests(MSG.tooManyOpens, Math.ceil(hit.retryAfterMs / 1000), CODES.tooManyOpens);
}

/** What a link shows before the guest gives a name: the shop and the piece, nothing of the customer. */
export async function openInvite(deps: FamilyDeps, ip: string, token: string): Promise<FamilyOpenResponse> {
  await limitOpens(deps, ip);
  const invite = await inviteByToken(deps.db, token);
  const call = invite && (await familyCall(deps.db, invite.call_id));
  if (!invite || !call) throw notFound(MSG.linkNotFound, CODES.linkNotFound);
  return {
    shopName: call.shop_name,
    productName: call.product_name,
    link: call.status !== 'active' ? 'over' : invite.state !== 'invited' ? 'used' : 'open',
  };
}

/** An account's first name: a guest who signed in joins under it (the rest of the name stays theirs). */
const firstName = (name: string) => (name.trim().split(/\s+/)[0] ?? '').slice(0, FAMILY_NAME_MAX);

const isAccountTaken = (err: unknown) => {
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  return (
    e?.code === '23505' &&
    (e.constraint === 'call_guests_account_idx' ||
      (typeof e.message === 'string' && e.message.includes('call_guests_account_idx')))
  );
};

/**
 * The guest gives a name and asks to join: the link is used up (one guest per link) and the guest gets a
 * token of their own. One guarded update: of two asks with one link, exactly one wins. A guest signed in who
 * asks `asAccount` joins under the account's first name and the row keeps the account; the call's own
 * customer or jeweller is refused whichever way they ask, before the link is used.
 */
export async function askToJoin(
  deps: FamilyDeps,
  ip: string,
  user: SessionUser | undefined,
  ask: { token: string; name?: string | undefined; asAccount: boolean },
): Promise<FamilyAskResponse> {
  await limitOpens(deps, ip);
  const { token } = ask;
  if (user) {
    const invite = await inviteByToken(deps.db, token);
    const call = invite && (await familyCall(deps.db, invite.call_id));
    if (call && (call.caller_id === user.id || call.seller_id === user.id))
      throw conflict(MSG.ownCall, CODES.ownCall);
  }
  if (ask.asAccount && !user) throw unauthorized(MSG.signInFirst, CODES.signInFirst);
  const account = ask.asAccount ? user! : null;
  const name = account ? firstName(account.displayName) : (ask.name ?? '').trim();
  const now = deps.clock.now();
  const guestToken = newToken();
  let rows: { id: number; call_id: number }[];
  try {
    ({ rows } = (await deps.db.raw(
      `update call_guests g set state = 'asked', name = ?, user_id = ?, guest_hash = ?, asked_at = ?, seen_at = ?
         from calls c
        where g.invite_hash = ? and g.state = 'invited' and c.id = g.call_id and c.status = 'active'
        returning g.id, g.call_id`,
      [name, account?.id ?? null, hashToken(guestToken), now, now, hashToken(token)],
    )) as { rows: { id: number; call_id: number }[] });
  } catch (err) {
    // The account is already waiting or in this call as a guest (the partial unique index of migration 0035).
    if (isAccountTaken(err)) throw conflict(MSG.alreadyGuest, CODES.alreadyGuest);
    throw err;
  }
  if (rows[0]) return { guestId: rows[0].id, callId: rows[0].call_id, guestToken };
  const invite = await inviteByToken(deps.db, token);
  if (!invite) throw notFound(MSG.linkNotFound, CODES.linkNotFound);
  if (invite.state !== 'invited') throw conflict(MSG.linkUsed, CODES.linkUsed);
  throw conflict(MSG.callOver, CODES.callOver);
}

/** The guest a request's header names, or 401: a guest token grants this guest's part and nothing else. */
export async function guestOf(db: Knex, header: string): Promise<GuestRow> {
  const row = header
    ? ((await db('call_guests').where('guest_hash', hashToken(header)).first()) as GuestRow | undefined)
    : undefined;
  if (!row) throw unauthorized(MSG.notAGuest, CODES.notAGuest);
  return row;
}

const DECISIONS = {
  admit: { from: ['asked'], to: 'admitted' },
  decline: { from: ['asked'], to: 'declined' },
  remove: { from: ['asked', 'admitted'], to: 'removed' },
} as const;

/** The jeweller admits, declines or removes a guest. A guest is never in the call without this tap. */
export async function decideGuest(
  deps: FamilyDeps,
  user: SessionUser,
  callId: number,
  guestId: number,
  action: keyof typeof DECISIONS,
): Promise<FamilyGuestResponse> {
  const now = deps.clock.now();
  return deps.db.transaction(async (trx) => {
    const call = await familyCall(trx, callId, true);
    if (!call || call.seller_id !== user.id) throw callNotFound();
    if (call.status !== 'active') throw callNotLive();
    await settleGoneGuests(trx, callId, now);
    const guest = (await trx('call_guests').where({ id: guestId, call_id: callId }).first()) as
      GuestRow | undefined;
    if (!guest || guest.state === 'invited') throw notFound(MSG.guestNotFound, CODES.guestNotFound);
    const rule = DECISIONS[action];
    if (!(rule.from as readonly string[]).includes(guest.state))
      throw conflict(MSG.cannotDecide, CODES.cannotDecide);
    if (action === 'admit') {
      const inCall = (await trx('call_guests')
        .where({ call_id: callId, state: 'admitted' })
        .count('* as n')
        .first()) as { n: string };
      if (Number(inCall.n) >= FAMILY_MAX_GUESTS) throw conflict(MSG.callFull, CODES.callFull);
    }
    const [row] = (await trx('call_guests')
      .where('id', guestId)
      .update({
        state: rule.to,
        ...(action === 'admit' ? { admitted_at: now, seen_at: now } : { ended_at: now }),
      })
      .returning(['id', 'call_id', 'invited_by', 'name', 'state', 'asked_at'])) as GuestRow[];
    return { guest: presentGuest(row) };
  });
}

/** The guest leaves (or closes the page: the same request as a beacon). */
export async function leaveCall(deps: FamilyDeps, guest: GuestRow): Promise<FamilyGuestResponse> {
  const [row] = (await deps
    .db('call_guests')
    .where('id', guest.id)
    .whereIn('state', ['asked', 'admitted'])
    .update({ state: 'left', ended_at: deps.clock.now() })
    .returning(['id', 'call_id', 'invited_by', 'name', 'state', 'asked_at'])) as GuestRow[];
  return { guest: presentGuest(row ?? guest) };
}

/**
 * The ICE servers of an admitted guest of a live p2p call, as a participant gets them: the static ones, and
 * with our relay configured a credential of the guest's own, named for this call and this guest
 * (`c<call>g<guest>`) and valid for TURN_CREDENTIAL_TTL_SECONDS. Nothing before the jeweller's Admit, nothing
 * once the guest's part or the call is over; bounded per guest like a participant's.
 */
export async function guestIceServers(deps: FamilyDeps, guest: GuestRow): Promise<IceServersResponse> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const limit = await hitRateLimit(
    db,
    `ice:guest:${guest.id}`,
    config.limits.iceServersPerUserPerMinute,
    60_000,
    now,
  );
  if (!limit.allowed)
    throw tooManyRequests(
      VIDEO_MESSAGES.tooManyIceRequests,
      limit.retryAfterMs / 1000,
      'too_many_ice_requests',
    );
  const { rows } = (await db.raw(
    `select c.status, c.provider, g.state from call_guests g join calls c on c.id = g.call_id where g.id = ?`,
    [guest.id],
  )) as { rows: { status: string; provider: string; state: GuestState }[] };
  const row = rows[0]!;
  if (row.status !== 'active') throw callNotLive();
  if (row.state !== 'admitted') throw forbidden(MSG.notAdmitted, CODES.notAdmitted);
  if (row.provider !== 'p2p') return { iceServers: [] };
  const { iceServers, turn } = config.video;
  if (!turn) return { iceServers };
  return {
    iceServers: [...iceServers, turnCredentials(turn, guest.call_id, `g${guest.id}`, now.getTime())],
    ttlSeconds: turn.ttlSeconds,
  };
}
