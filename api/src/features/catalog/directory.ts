import type { Knex } from 'knex';
import {
  CATALOG_MESSAGES,
  type ProductListQuery,
  type SellerCard,
  type SellerListQuery,
  type SellerListResponse,
  type StoreResponse,
} from '../../../contract/catalog';
import { CALL_LIMITS } from '../../../contract/constants';
import { toNumber } from '../../../../db/connection';
import { notFound } from '../../http/errors';
import { presentSellerCard, presentStoreProfile, type SellerCardRow } from './presenter';
import { listProducts } from './products';
import { sellerCards } from './seller-cards';
import { escapeLike, withLocalSettings } from './search';
import { directoryNameMatches, hasTamil } from './shop-names';

/**
 * The shops a directory search matches, by shop name, seller name or city: the text anywhere in them, or a
 * word of theirs like it (pg_trgm's word similarity). Each branch is served by its trigram index (migrations
 * 0001 and 0009) when sequential scans are off (see listSellers); the names are only ever scored there. The
 * matches come as one array (computed once) that the shops are then read by: as an IN (subquery) the planner
 * misjudged how many there would be and compared every shop with every match (720,000 pairs for 'lakshmi').
 */
const DIRECTORY_MATCH = `sp.user_id = any(array(
    select s.user_id from seller_profiles s where s.shop_name ilike ? or ? <% s.shop_name
    union select s.user_id from seller_profiles s where s.city ilike ? or ? <% s.city
    union select u2.id from users u2 where u2.role = 'seller' and (u2.display_name ilike ? or ? <% u2.display_name)))`;

/**
 * The jeweller directory: approved shops filtered by city, state and a search, best rated first. A search
 * runs in a transaction with sequential scans off: the planner otherwise read every shop and seller and
 * scored three columns of each (42-65 ms at 2,000 sellers) instead of asking the trigram indexes.
 */
export async function listSellers(db: Knex, q: SellerListQuery, now: Date): Promise<SellerListResponse> {
  if (!q.searchQuery) return listSellersOn(db, q, now);
  const text = q.searchQuery;
  // Names in Tamil script, or typed by ear, are matched by their sound (shop-names.ts, §20.2).
  if (hasTamil(text)) return listSellersOn(db, q, now, await directoryNameMatches(db, text));
  const found = await withLocalSettings(db, { enable_seqscan: 'off' }, (trx) => listSellersOn(trx, q, now));
  if (found.pagination.totalSellers > 0) return found;
  const ids = await directoryNameMatches(db, text);
  return ids.length ? listSellersOn(db, q, now, ids) : found;
}

/** A page of the directory; `byName`: the shops a search matched by sound, instead of the trigram match. */
async function listSellersOn(
  db: Knex,
  q: SellerListQuery,
  now: Date,
  byName?: number[],
): Promise<SellerListResponse> {
  const filters = (qb: Knex.QueryBuilder) => {
    if (q.city) qb.whereRaw('lower(sp.city) = lower(?)', [q.city]);
    if (q.state) qb.whereRaw('lower(sp.state) = lower(?)', [q.state]);
    if (byName) qb.whereRaw('sp.user_id = any(?::int[])', [byName]);
    else if (q.searchQuery) {
      const text = q.searchQuery.toLowerCase();
      const contains = `%${escapeLike(text)}%`;
      qb.whereRaw(DIRECTORY_MATCH, [contains, text, contains, text, contains, text]);
    }
    return qb;
  };
  const offset = (q.page - 1) * q.limit;
  // A search's total comes with its page (a window count over its matches, before the limit), sparing a
  // second pass over the trigram indexes; the whole directory is counted on its own (the window would hold
  // every shop's row to count them).
  const rows = (await db
    .from(filters(sellerCards(db)).as('s'))
    .select('*', ...(q.searchQuery ? [db.raw('count(*) over () as total_count')] : []))
    .orderBy([
      { column: 's.rating_score', order: 'desc' },
      { column: 's.product_count', order: 'desc' },
    ])
    .orderByRaw('lower(s.shop_name) asc, s.user_id asc')
    .limit(q.limit)
    .offset(offset)) as (SellerCardRow & { total_count?: unknown })[];
  let total: number;
  if (rows.length > 0 && rows[0].total_count !== undefined) total = toNumber(rows[0].total_count);
  else if (rows.length > 0 && rows.length < q.limit) total = offset + rows.length;
  else {
    const [c] = (await filters(
      db.from('seller_profiles as sp').join('users as u', 'u.id', 'sp.user_id').where('sp.is_approved', true),
    ).count({ count: '*' })) as { count: unknown }[];
    total = toNumber(c?.count);
  }
  const totalPages = Math.ceil(total / q.limit);
  return {
    sellers: rows.map((r) => presentSellerCard(r, now, CALL_LIMITS.onlineWindowMs)),
    pagination: { currentPage: q.page, page: q.page, limit: q.limit, totalSellers: total, totalPages },
  };
}

/**
 * Ratings a shop needs before the landing's "Top jewellers" lists it (docs/product-rules.md §20.4): one or two
 * ratings say little, and a lone 5★ would otherwise head the list.
 */
export const TOP_SELLER_MIN_RATINGS = 5;

/**
 * The landing page's top sellers: approved shops with public products and at least TOP_SELLER_MIN_RATINGS
 * ratings, in the order the cards read: the average rating shown, highest first; then more ratings, more
 * pieces, the name and the id, so equal ratings always come in the same order.
 */
export async function topSellers(db: Knex, limit: number, now: Date): Promise<SellerCard[]> {
  const rows = (await db
    .from(sellerCards(db).as('s'))
    .select('*')
    .where('s.product_count', '>', 0)
    .where('s.rating_count', '>=', TOP_SELLER_MIN_RATINGS)
    .orderBy([
      { column: 's.rating_avg', order: 'desc' },
      { column: 's.rating_count', order: 'desc' },
      { column: 's.product_count', order: 'desc' },
    ])
    .orderByRaw('lower(s.shop_name) asc, s.user_id asc')
    .limit(limit)) as SellerCardRow[];
  return rows.map((r) => presentSellerCard(r, now, CALL_LIMITS.onlineWindowMs));
}

/** A public store page by slug (case-insensitive) or by seller id; 404 unless the shop is approved. */
export async function getStore(
  db: Knex,
  by: { slug: string } | { sellerId: number },
  paging: { page: number; limit: number },
  now: Date,
): Promise<StoreResponse> {
  const q = sellerCards(db);
  if ('slug' in by) q.whereRaw('lower(sp.url_slug) = lower(?)', [by.slug]);
  else q.where('sp.user_id', by.sellerId);
  const row = (await q.first()) as SellerCardRow | undefined;
  if (!row) throw notFound(CATALOG_MESSAGES.storeNotFound, 'store_not_found');
  const productsData = await listProducts(
    db,
    { ...paging, sellerId: row.user_id, sortBy: 'newest' } as ProductListQuery,
    undefined,
  );
  const sellerProfile = presentStoreProfile(row, now, CALL_LIMITS.onlineWindowMs);
  // Every product of a storefront is of its shop: one call state for all (issue #22).
  for (const p of productsData.products) p.callState = sellerProfile.callState;
  return { sellerProfile, productsData };
}
