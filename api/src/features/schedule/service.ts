import type { Knex } from 'knex';
import type { Product } from '../../../contract/catalog';
import { SELLER_MESSAGES } from '../../../contract/sellers';
import type {
  ShopCallState,
  ShopHoursInput,
  ShopHoursResponse,
  HoursRange,
} from '../../../contract/shop-hours';
import { notFound } from '../../http/errors';
import { callStateCache } from './call-state-cache';
import { readHours, shopCallState, type ShopStateRow } from './hours';

/**
 * Whether a device of the shop's seller subscribed to web push (a call would ring it with the app closed), as
 * the `has_push` column of a query over seller_profiles sp.
 */
export const HAS_PUSH_SQL =
  'exists (select 1 from push_subscriptions ps where ps.user_id = sp.user_id) as has_push';

/** The columns shopCallState reads, over seller_profiles sp left-joined with seller_presence pr. */
export const callStateColumns = (db: Knex) => [
  'sp.video_call_enabled',
  'sp.away',
  'sp.away_message',
  'sp.video_hours',
  'sp.time_zone',
  'pr.last_polled_at',
  db.raw(HAS_PUSH_SQL),
];

const stateRows = (db: Knex) =>
  db('seller_profiles as sp').leftJoin('seller_presence as pr', 'pr.user_id', 'sp.user_id');

/** The call states of many shops in one query, by seller id (unknown sellers are left out). */
export async function loadCallStates(
  db: Knex,
  sellerIds: readonly number[],
  now: Date,
): Promise<Map<number, ShopCallState>> {
  const ids = [...new Set(sellerIds)];
  const out = new Map<number, ShopCallState>();
  if (!ids.length) return out;
  const rows = (await stateRows(db)
    .whereIn('sp.user_id', ids)
    .select('sp.user_id', ...callStateColumns(db))) as (ShopStateRow & { user_id: number })[];
  for (const r of rows) out.set(r.user_id, shopCallState(r, now));
  return out;
}

/** An approved shop's call state as a visitor sees it (issue #50); null when there is no such shop. */
export async function loadPublicCallState(
  db: Knex,
  sellerId: number,
  now: Date,
): Promise<ShopCallState | null> {
  // Polled by every open storefront and product page: read at most once a second per shop and process.
  const row = await callStateCache<ShopStateRow | undefined>(db).get(
    sellerId,
    now.getTime(),
    async () =>
      (await stateRows(db)
        .where({ 'sp.user_id': sellerId, 'sp.is_approved': true })
        .first(...callStateColumns(db))) as ShopStateRow | undefined,
  );
  return row ? shopCallState(row, now) : null;
}

/** One shop's call state; null when the seller has no shop. */
export async function loadCallState(db: Knex, sellerId: number, now: Date): Promise<ShopCallState | null> {
  return (await loadCallStates(db, [sellerId], now)).get(sellerId) ?? null;
}

/** Products with their shop's call state (one query for the shops of a page). */
export async function withCallStates<T extends { products: Product[] }>(
  db: Knex,
  answer: T,
  now: Date,
): Promise<T> {
  const states = await loadCallStates(
    db,
    answer.products.map((p) => p.sellerId),
    now,
  );
  for (const p of answer.products) p.callState = states.get(p.sellerId) ?? { state: 'disabled' };
  return answer;
}

/** The seller's own hours, time zone, away setting and resulting call state. */
export async function getShopHours(db: Knex, sellerId: number, now: Date): Promise<ShopHoursResponse> {
  const row = (await stateRows(db)
    .where('sp.user_id', sellerId)
    .first(...callStateColumns(db))) as ShopStateRow | undefined;
  if (!row) throw notFound(SELLER_MESSAGES.profileNotFound, 'seller_profile_not_found');
  const hours: HoursRange[] = readHours(row.video_hours).sort(
    (a, b) => a.day - b.day || a.from.localeCompare(b.from),
  );
  return {
    timeZone: row.time_zone,
    hours,
    away: row.away,
    awayMessage: row.away_message,
    callState: shopCallState(row, now),
  };
}

/** Replaces the seller's hours, time zone and away setting (the schema has checked them). */
export async function saveShopHours(
  db: Knex,
  sellerId: number,
  input: ShopHoursInput & { awayMessage: string | null },
  now: Date,
): Promise<ShopHoursResponse> {
  const updated = await db('seller_profiles')
    .where('user_id', sellerId)
    .update({
      video_hours: JSON.stringify(input.hours),
      time_zone: input.timeZone,
      away: input.away,
      away_message: input.awayMessage,
      updated_at: now,
    });
  if (!updated) throw notFound(SELLER_MESSAGES.profileNotFound, 'seller_profile_not_found');
  return getShopHours(db, sellerId, now);
}

/** A call-back the customer accepted answers its request. */
export async function answerCallback(db: Knex, callId: number, now: Date): Promise<void> {
  await db('callback_requests')
    .where('status', 'open')
    .whereIn(
      'id',
      db('calls').select('callback_request_id').where('id', callId).whereNotNull('callback_request_id'),
    )
    .update({ status: 'answered', closed_at: now, answered_call_id: callId });
}
