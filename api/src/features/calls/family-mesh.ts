import type { Knex } from 'knex';
import {
  FAMILY_ERROR_CODES as CODES,
  FAMILY_GUEST_SEEN_EVERY_MS,
  FAMILY_MESSAGES as MSG,
  type FamilyGuestStateResponse,
  type FamilyLike,
  type FamilyLikeKind,
  type FamilyLikeResponse,
  type FamilyMember,
  type FamilyParty,
  type FamilySignal,
  type FamilySignalResponse,
  type FamilyStateResponse,
} from '../../../contract/call-family';
import type { CallProduct } from '../../../contract/call-selling';
import type { CallStatus } from '../../../contract/constants';
import type { SignalKind } from '../../../contract/calls';
import { CALL_ERROR_CODES, CALL_MESSAGES } from '../../../contract/calls';
import type { SessionUser } from '../../http/context';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../http/errors';
import { loadCallItems } from '../selling/items';
import { forGuest } from './family-photo';
import { loadCallProduct } from '../selling/products';
import {
  familyCall,
  hashToken,
  presentGuest,
  settleGoneGuests,
  type FamilyCallRow,
  type FamilyDeps,
  type GuestRow,
} from './family';

/**
 * The call's mesh (issue #52, docs/product-rules.md §21): what the customer, the jeweller and each guest
 * read of the family, the WebRTC signals between two parties when one is a guest, and a guest's likes.
 */

const SIGNALS_PAGE = 200;
const callNotFound = () => notFound(CALL_MESSAGES.callNotFound, CALL_ERROR_CODES.callNotFound);

interface SignalRow {
  id: number | string;
  from_party: string;
  kind: SignalKind;
  payload: Record<string, unknown>;
}
interface LikeRow {
  id: number | string;
  guest_id: number;
  guest_name: string | null;
  product_id: number;
  product_name: string;
  kind: FamilyLikeKind;
  created_at: Date | string;
}

const presentLike = (r: LikeRow): FamilyLike => ({
  id: Number(r.id),
  guestId: r.guest_id,
  guestName: r.guest_name ?? '',
  productId: r.product_id,
  productName: r.product_name,
  kind: r.kind,
  createdAt: new Date(r.created_at).toISOString(),
});

const LIKES_SQL = `select l.id, l.guest_id, g.name as guest_name, l.product_id, p.name as product_name, l.kind,
       l.created_at
  from call_family_likes l join call_guests g on g.id = l.guest_id join products p on p.id = l.product_id`;

/** A call's likes, oldest first (also the summary's). */
export async function loadLikes(db: Knex, callId: number, after = 0): Promise<FamilyLike[]> {
  const { rows } = (await db.raw(`${LIKES_SQL} where l.call_id = ? and l.id > ? order by l.id`, [
    callId,
    after,
  ])) as { rows: LikeRow[] };
  return rows.map(presentLike);
}

async function signalsTo(
  db: Knex,
  callId: number,
  party: FamilyParty,
  after: number,
): Promise<FamilySignal[]> {
  const rows = (await db('call_family_signals')
    .where({ call_id: callId, to_party: party })
    .where('id', '>', after)
    .orderBy('id')
    .limit(SIGNALS_PAGE)
    .select('id', 'from_party', 'kind', 'payload')) as SignalRow[];
  return rows.map((r) => ({
    id: Number(r.id),
    from: r.from_party as FamilyParty,
    kind: r.kind,
    payload: r.payload,
  }));
}

async function loadGuests(db: Knex, callId: number): Promise<GuestRow[]> {
  return (await db('call_guests')
    .where('call_id', callId)
    .whereNot('state', 'invited')
    .orderBy('id')
    .select('id', 'call_id', 'invited_by', 'name', 'state', 'asked_at')) as GuestRow[];
}

/** What the customer and the jeweller read: who asked, who is in, the likes, the mesh signals to them. */
export async function familyState(
  deps: FamilyDeps,
  user: SessionUser,
  callId: number,
  after: number,
): Promise<FamilyStateResponse> {
  const call = await familyCall(deps.db, callId);
  if (!call || (call.caller_id !== user.id && call.seller_id !== user.id)) throw callNotFound();
  if (call.status === 'active') await settleGoneGuests(deps.db, callId, deps.clock.now());
  const me: FamilyParty = `u${user.id}`;
  const [guests, likes, signals] = await Promise.all([
    loadGuests(deps.db, callId),
    loadLikes(deps.db, callId),
    signalsTo(deps.db, callId, me, after),
  ]);
  return { callStatus: call.status as CallStatus, me, guests: guests.map(presentGuest), likes, signals };
}

/** The customer's first name only: a guest sees nothing of the customer beyond the call. */
const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

/**
 * What a guest's poll needs of a call that does not change while it runs: its parties, the shop's and the
 * piece's names, the customer's first name and the piece the call is about (as the guest first sees it).
 * Kept per database for CALL_STATICS_TTL_MS, so a poll reads none of it.
 */
export interface CallStatics {
  call: Omit<FamilyCallRow, 'status'>;
  customerName: string;
  piece: CallProduct | null;
  loadedAt: number;
}
const CALL_STATICS_TTL_MS = 60_000;
const CALL_STATICS_MAX = 2_000;
const staticsByDb = new WeakMap<Knex, Map<number, CallStatics>>();

export async function callStatics(db: Knex, callId: number, now: number): Promise<CallStatics> {
  let kept = staticsByDb.get(db);
  if (!kept) staticsByDb.set(db, (kept = new Map()));
  const hit = kept.get(callId);
  if (hit && now - hit.loadedAt < CALL_STATICS_TTL_MS) return hit;
  const { status: _status, ...call } = (await familyCall(db, callId))!;
  const [customer, piece] = await Promise.all([
    db('users').where('id', call.caller_id).first('display_name') as Promise<{ display_name: string }>,
    loadCallProduct(db, call.product_id),
  ]);
  const statics = { call, customerName: firstName(customer.display_name), piece, loadedAt: now };
  kept.delete(callId);
  kept.set(callId, statics);
  // The oldest entry goes first (a Map keeps its insertion order).
  if (kept.size > CALL_STATICS_MAX) kept.delete(kept.keys().next().value!);
  return statics;
}

/** Everyone in the call as a guest sees them: the customer (first name), the jeweller, the admitted guests. */
export function guestMembers(
  statics: CallStatics,
  admitted: readonly { id: number; name: string | null }[] | null,
): FamilyMember[] {
  const { call } = statics;
  return [
    { party: `u${call.caller_id}`, name: statics.customerName, role: 'customer' },
    { party: `u${call.seller_id}`, name: call.shop_name, role: 'jeweller' },
    ...(admitted ?? []).map((g): FamilyMember => ({ party: `g${g.id}`, name: g.name ?? '', role: 'guest' })),
  ];
}

/**
 * One guest poll's reading, in one statement: the guest (by the token's hash), the call's status, and once
 * admitted to a live call, the admitted guests, the signals to the guest after the cursor, and whether any
 * item or like came after theirs (loaded only then).
 */
const GUEST_POLL_SQL = `select g.id, g.call_id, g.invited_by, g.name, g.state, g.asked_at, g.seen_at,
       c.status, x.admitted, x.signals, x.new_items, x.new_likes
  from call_guests g join calls c on c.id = g.call_id
  left join lateral (
    select
      (select coalesce(json_agg(json_build_object('id', a.id, 'name', a.name) order by a.id), '[]'::json)
         from call_guests a where a.call_id = g.call_id and a.state = 'admitted') as admitted,
      (select coalesce(json_agg(json_build_object('id', s.id, 'from', s.from_party, 'kind', s.kind,
                                                  'payload', s.payload) order by s.id), '[]'::json)
         from (select id, from_party, kind, payload from call_family_signals
                where call_id = g.call_id and to_party = 'g' || g.id and id > ?
                order by id limit ${SIGNALS_PAGE}) s) as signals,
      exists (select 1 from call_items i where i.call_id = g.call_id and i.id > ?
                 and i.kind in ('product', 'message', 'photo')) as new_items,
      exists (select 1 from call_family_likes l where l.call_id = g.call_id and l.id > ?) as new_likes
     where g.state = 'admitted' and c.status = 'active') x on true
 where g.guest_hash = ?`;

interface GuestPollRow extends GuestRow {
  seen_at: Date | string | null;
  status: string;
  admitted: { id: number; name: string | null }[] | null;
  signals: { id: number | string; from: string; kind: SignalKind; payload: Record<string, unknown> }[] | null;
  new_items: boolean | null;
  new_likes: boolean | null;
}

export interface GuestCursors {
  /** The last mesh signal the page has. */
  after: number;
  /** The last call item (piece shown, chat) the page has. */
  afterItem: number;
  /** The last like the page has. */
  afterLike: number;
}

/**
 * What a guest reads, every FAMILY_GUEST_POLL_MS while their event stream is not open (family-stream.ts), and
 * every FAMILY_GUEST_STREAM_POLL_MS while it is: their own state; once
 * admitted, who is in the call, and what came since the page's cursors: what was shown and said (pieces and
 * chat and the jeweller's photos, family-photo.ts), the likes and the mesh signals addressed to them. An idle poll is one
 * statement; at most every FAMILY_GUEST_SEEN_EVERY_MS it also marks the guest still there (and settles the
 * call's silent guests).
 */
export async function guestState(
  deps: FamilyDeps,
  token: string,
  cursors: GuestCursors,
): Promise<FamilyGuestStateResponse> {
  const now = deps.clock.now();
  if (!token) throw unauthorized(MSG.notAGuest, CODES.notAGuest);
  const { rows } = (await deps.db.raw(GUEST_POLL_SQL, [
    cursors.after,
    cursors.afterItem,
    cursors.afterLike,
    hashToken(token),
  ])) as { rows: GuestPollRow[] };
  const row = rows[0];
  if (!row) throw unauthorized(MSG.notAGuest, CODES.notAGuest);
  const live = row.status === 'active';
  const waiting = row.state === 'asked' || row.state === 'admitted';
  let gone: number[] = [];
  if (
    live &&
    waiting &&
    (row.seen_at === null || now.getTime() - new Date(row.seen_at).getTime() >= FAMILY_GUEST_SEEN_EVERY_MS)
  ) {
    await deps
      .db('call_guests')
      .where('id', row.id)
      .whereIn('state', ['asked', 'admitted'])
      .update({ seen_at: now });
    gone = await settleGoneGuests(deps.db, row.call_id, now);
  }
  const statics = await callStatics(deps.db, row.call_id, now.getTime());
  const me: FamilyParty = `g${row.id}`;
  const base = {
    callId: row.call_id,
    me,
    state: row.state,
    callLive: live,
    shopName: statics.call.shop_name,
    productName: statics.call.product_name,
  };
  if (row.state !== 'admitted' || !live)
    return { ...base, piece: null, members: [], items: [], likes: [], signals: [] };
  const [items, likes] = await Promise.all([
    row.new_items ? loadCallItems(deps.db, row.call_id, cursors.afterItem, null) : [],
    row.new_likes ? loadLikes(deps.db, row.call_id, cursors.afterLike) : [],
  ]);
  const members = guestMembers(
    statics,
    (row.admitted ?? []).filter((g) => !gone.includes(g.id)),
  );
  return {
    ...base,
    piece: statics.piece,
    members,
    items: forGuest(items),
    likes,
    signals: (row.signals ?? []).map((s) => ({
      id: Number(s.id),
      from: s.from as FamilyParty,
      kind: s.kind,
      payload: s.payload,
    })),
  };
}

/** The parties of the live call now: its customer, its jeweller and its admitted guests. */
async function partiesOf(db: Knex, call: FamilyCallRow): Promise<Set<string>> {
  const admitted = (await db('call_guests').where({ call_id: call.id, state: 'admitted' }).select('id')) as {
    id: number;
  }[];
  return new Set([`u${call.caller_id}`, `u${call.seller_id}`, ...admitted.map((g) => `g${g.id}`)]);
}

/**
 * Stores one mesh signal from a party to another of the same live call; one of the two is a guest (the
 * customer–jeweller link keeps /_api/call/signal). A guest reaches only the parties of their own call.
 */
export async function sendFamilySignal(
  deps: FamilyDeps,
  from: { user: SessionUser | undefined; guest: GuestRow | undefined },
  input: { callId: number; to: string; kind: SignalKind; payload: Record<string, unknown> },
): Promise<FamilySignalResponse> {
  const call = await familyCall(deps.db, input.callId);
  const sender: FamilyParty | null = from.guest
    ? from.guest.call_id === input.callId
      ? `g${from.guest.id}`
      : null
    : from.user && (from.user.id === call?.caller_id || from.user.id === call?.seller_id)
      ? `u${from.user.id}`
      : null;
  if (!call || !sender) throw callNotFound();
  if (call.status !== 'active') throw conflict(MSG.callNotLive, CODES.callNotLive);
  const parties = await partiesOf(deps.db, call);
  if (!parties.has(sender)) throw forbidden(MSG.notAdmitted, CODES.notAdmitted);
  if (!parties.has(input.to) || input.to === sender || (sender[0] === 'u' && input.to[0] === 'u'))
    throw badRequest(MSG.invalidParty);
  const [row] = (await deps
    .db('call_family_signals')
    .insert({
      call_id: call.id,
      from_party: sender,
      to_party: input.to,
      kind: input.kind,
      payload: JSON.stringify(input.payload),
      created_at: deps.clock.now(),
    })
    .returning('id')) as { id: number | string }[];
  return { id: Number(row.id) };
}

/** A guest likes a piece shown in the call: the call's own piece, or one the jeweller showed. */
export async function likeShownPiece(
  deps: FamilyDeps,
  guest: GuestRow,
  productId: number,
  kind: FamilyLikeKind,
): Promise<FamilyLikeResponse> {
  const { rows } = (await deps.db.raw(
    `select c.status, g.state,
            (c.product_id = ? or exists (select 1 from call_items i where i.call_id = c.id
               and i.kind = 'product' and i.product_id = ?)) as shown
       from call_guests g join calls c on c.id = g.call_id where g.id = ?`,
    [productId, productId, guest.id],
  )) as { rows: { status: string; state: string; shown: boolean | null }[] };
  const r = rows[0]!;
  if (r.status !== 'active') throw conflict(MSG.callNotLive, CODES.callNotLive);
  if (r.state !== 'admitted') throw forbidden(MSG.notAdmitted, CODES.notAdmitted);
  if (!r.shown) throw notFound(MSG.notShown, CODES.notShown);
  const [row] = (await deps
    .db('call_family_likes')
    .insert({
      call_id: guest.call_id,
      guest_id: guest.id,
      product_id: productId,
      kind,
      created_at: deps.clock.now(),
    })
    .returning('id')) as { id: number | string }[];
  const { rows: likes } = (await deps.db.raw(`${LIKES_SQL} where l.id = ?`, [row.id])) as { rows: LikeRow[] };
  return { like: presentLike(likes[0]!) };
}
