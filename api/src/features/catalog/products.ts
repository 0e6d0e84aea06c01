import type { Knex } from 'knex';
import {
  type DidYouMean,
  type Product,
  type ProductListQuery,
  type ProductListResponse,
} from '../../../contract/catalog';
import { directQuery, toNumber } from '../../../../db/connection';
import type { SessionUser } from '../../http/context';
import { notFound } from '../../http/errors';
import { presentProduct, type ProductImageRow, type ProductRow } from './presenter';
import { FTS_ENOUGH, useOrderedScans, withSearchSettings } from './search';
import { nearestCategory, readQuery } from './query-reading';
import { correctStage, readRank, searchStages, type SearchStage, type Sql } from './search-stages';
import { CATALOG_MESSAGES, type MissingKind, type SearchPriceFilter } from '../../../contract/catalog';
import { readPricePhrase, type PricePhrase } from './price-phrase';
import { shopsNamed } from './shop-names';

/** A product list's filters, and the shops a search named whole (§20.2). */
type ListQuery = ProductListQuery & { sellerIds?: number[] };

/** How many of the nearest category's pieces a search that found nothing offers. */
const DID_YOU_MEAN_PIECES = 8;

/** The product columns presentProduct expects; money is cast to text so pg and PGlite agree. */
export const PRODUCT_COLUMNS = `p.id, p.seller_id, p.name, p.description, p.price::text as price, p.category,
  p.material, p.stock_quantity, p.sku, p.width_mm, p.height_mm, p.size, p.purity, p.weight_g,
  p.diamonds_total_count, p.diamonds_type, p.diamonds_total_weight, p.gemstone_total_count, p.gemstone_type,
  p.making_charges::text as making_charges, p.stone_charges::text as stone_charges,
  p.discount_amount::text as discount_amount, p.gst_amount::text as gst_amount, p.size_available,
  p.is_custom_made, p.rating_avg, p.rating_count, p.units_sold, p.created_at, p.pricing_mode, p.metal,
  p.metal_purity, p.net_weight_g::text as net_weight_g, p.making_type, p.making_value::text as making_value,
  p.metal_rate::text as metal_rate, p.huid, p.certificate_lab, p.certificate_number, p.certificate_url,
  p.tryon_image_url, p.tryon_width, p.tryon_height, p.tryon_anchor_x, p.tryon_anchor_y,
  coalesce(sp.shop_name, '') as shop_name, sp.url_slug, coalesce(sp.video_call_enabled, false) as video_call_enabled`;

/** The images of many products in one query, grouped by product id. */
export async function loadImages(db: Knex, productIds: number[]): Promise<Map<number, ProductImageRow[]>> {
  const byProduct = new Map<number, ProductImageRow[]>();
  if (!productIds.length) return byProduct;
  const rows = (await db('product_images')
    .whereIn('product_id', productIds)
    .orderBy([{ column: 'product_id' }, { column: 'position' }])
    .select(
      'product_id',
      'position',
      'card_url',
      'detail_url',
      'width',
      'height',
      'placeholder',
    )) as ProductImageRow[];
  for (const r of rows) {
    const list = byProduct.get(r.product_id);
    if (list) list.push(r);
    else byProduct.set(r.product_id, [r]);
  }
  return byProduct;
}

/**
 * Products by id in the given order, presented, in two queries (rows, images). For other areas (cart, orders)
 * that show products: `publicOnly` drops deleted products and those of shops that are not approved.
 */
export async function loadProductsByIds(
  db: Knex,
  ids: number[],
  opts: { publicOnly?: boolean } = {},
): Promise<Product[]> {
  if (!ids.length) return [];
  const q = db
    .from('products as p')
    .leftJoin('seller_profiles as sp', 'sp.user_id', 'p.seller_id')
    .whereIn('p.id', ids)
    .select(db.raw(PRODUCT_COLUMNS));
  if (opts.publicOnly) q.whereNull('p.deleted_at').where('p.seller_approved', true);
  const rows = (await q) as ProductRow[];
  const images = await loadImages(db, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [presentProduct(row, images.get(id))] : [];
  });
}

/** A seller (or admin) may see a shop's products before approval: the dashboard lists them. */
export function seesUnapproved(viewer: SessionUser | undefined, sellerId: number | undefined): boolean {
  if (!viewer || sellerId === undefined) return false;
  return viewer.role === 'admin' || (viewer.role === 'seller' && viewer.id === sellerId);
}

type OrderTerm = { sql: string; bindings?: readonly Knex.Value[] };

function orderTerms(q: ProductListQuery): OrderTerm[] {
  // Each order matches a partial index on public products, id last so equal keys page stably.
  switch (q.sortBy ?? 'newest') {
    case 'price-asc':
      return [{ sql: 'p.price asc' }, { sql: 'p.id asc' }];
    case 'price-desc':
      return [{ sql: 'p.price desc' }, { sql: 'p.id desc' }];
    case 'rating':
      return [{ sql: 'p.rating_score desc' }, { sql: 'p.id desc' }];
    case 'popularity':
      return [{ sql: 'p.units_sold desc' }, { sql: 'p.id desc' }];
    default:
      return [{ sql: 'p.created_at desc' }, { sql: 'p.id desc' }];
  }
}

// Counting every public product costs ~10 ms at 100k rows (a common search term, ~40 ms) on every page
// request. Up to COUNT_EXACT_CAP matches are counted exactly each time (cheap, and what small shops and narrow
// filters need); above it the exact total is remembered per filter for a short while. Totals that large
// being a few seconds stale is invisible in 'Showing X-Y of N results'. Per process, so nothing is shared.
export const COUNT_EXACT_CAP = 2000;
const COUNT_TTL_MS = 30_000;
const COUNT_CACHE_MAX = 500;
const countCache = new Map<string, { total: number; expires: number }>();

/**
 * Lists products with filters, search and sort in three or four queries whatever the page size: the count,
 * the page (a narrow inner select of ids walking an index order, then the details of only those rows) and
 * the page's images.
 */
export async function listProducts(
  db: Knex,
  q: ProductListQuery,
  viewer: SessionUser | undefined,
  now: Date = new Date(),
): Promise<ProductListResponse> {
  if (!q.query) return listOn(db, q, viewer);
  // A price the search names is a filter, within any the reader set (docs/product-rules.md §20.2).
  const price = readPricePhrase(q.query);
  const priced: ListQuery = price ? withPrice(q, price) : q;
  const priceFilter: SearchPriceFilter | undefined = price
    ? {
        ...(price.minPaise !== undefined ? { minPaise: price.minPaise } : {}),
        ...(price.maxPaise !== undefined ? { maxPaise: price.maxPaise } : {}),
        phrase: price.phrase,
        rest: price.rest,
      }
    : undefined;
  if (price && !price.rest)
    return { ...(await listOn(db, { ...priced, query: undefined }, viewer)), priceFilter };
  const read = readQuery(price ? price.rest : q.query);
  return withSearchSettings(db, async (trx) => {
    // Shops the search names come first; named whole, the pieces are theirs (§20.2).
    const shops = q.sellerId === undefined ? await shopsNamed(trx, read, now) : null;
    const searched = shops?.rest ?? read;
    const scoped: ListQuery = shops?.rest ? { ...priced, sellerIds: shops.wholeIds } : priced;
    const extras = {
      ...(priceFilter ? { priceFilter } : {}),
      ...(shops ? { shops: shops.cards } : {}),
      ...(shops?.rest ? { shopPieces: shops.wholeIds } : {}),
    };
    const stages = searchStages(searched);
    const rank = readRank(searched);
    let answer: ProductListResponse | undefined;
    for (const stage of stages) {
      answer = await searchOn(trx, scoped, searched, stage, rank, viewer);
      if (answer.pagination.totalProducts > 0) {
        const missingKind = await missingPiece(trx, scoped, searched, viewer);
        return { ...answer, ...extras, ...(missingKind ? { missingKind } : {}) };
      }
    }
    // Nothing found: never a blank page. The nearest category's pieces (or the most popular ones) come along.
    await useOrderedScans(trx);
    return { ...answer!, ...extras, didYouMean: await didYouMean(trx, scoped, searched, viewer) };
  });
}

/** A product list's filters with the bounds a search's price phrase set, within the reader's own. */
function withPrice(q: ProductListQuery, price: PricePhrase): ListQuery {
  const min = price.minPaise !== undefined ? price.minPaise / 100 : undefined;
  const max = price.maxPaise !== undefined ? price.maxPaise / 100 : undefined;
  return {
    ...q,
    minPrice: min === undefined ? q.minPrice : Math.max(min, q.minPrice ?? 0),
    maxPrice: max === undefined ? q.maxPrice : Math.min(max, q.maxPrice ?? Infinity),
  };
}

/**
 * The kind of piece a search named that no public piece is (its words in no piece's text): the search then
 * shows its category, and says so (§20.2).
 */
async function missingPiece(
  db: Knex,
  q: ListQuery,
  read: ReturnType<typeof readQuery>,
  viewer: SessionUser | undefined,
): Promise<MissingKind | null> {
  const named = read.named.find((n) => n.piece && n.pieceWords?.length && n.category);
  if (!named) return null;
  // The words that alone name this piece ("thali", not the "chain" of "thali chain").
  const words = named.pieceWords!.filter(
    (w) => /^[\p{L}\p{M}\p{N}]+$/u.test(w) && readQuery(w).named[0]?.piece === named.piece,
  );
  if (!words.length) return null;
  const where = listFilter(
    { ...q, category: undefined, material: undefined, minPrice: undefined, maxPrice: undefined },
    seesUnapproved(viewer, q.sellerId),
  );
  const [row] = await directQuery<{ found: boolean }>(
    db,
    `select exists (select 1 from products p where ${where.sql}
        and p.search_vector @@ to_tsquery('english', ?)) as found`,
    [...where.bindings, words.join(' | ')],
  );
  return row?.found ? null : { piece: named.piece!, category: named.category! };
}

/** The pieces offered when a search finds nothing: its nearest category's most popular, or the catalogue's. */
async function didYouMean(
  db: Knex,
  q: ListQuery,
  read: ReturnType<typeof readQuery>,
  viewer: SessionUser | undefined,
): Promise<DidYouMean> {
  const category = nearestCategory(read);
  const base = { ...q, query: undefined, page: 1, limit: DID_YOU_MEAN_PIECES, sortBy: 'popularity' as const };
  let found = await listOn(db, { ...base, category: category ?? q.category }, viewer);
  if (!found.products.length && category) found = await listOn(db, base, viewer);
  return { category: found.products.length && category ? category : null, products: found.products };
}

/** The public (or own-view) filter of a product list as SQL over alias p, with its bindings. */
function listFilter(q: ListQuery, ownView: boolean): { sql: string; bindings: unknown[] } {
  const parts = ['p.deleted_at is null'];
  const bindings: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    parts.push(sql);
    bindings.push(value);
  };
  if (ownView) add('p.seller_id = ?', q.sellerId);
  else {
    parts.push('p.seller_approved');
    if (q.sellerId !== undefined) add('p.seller_id = ?', q.sellerId);
    if (q.sellerIds) add('p.seller_id = any(?::int[])', q.sellerIds);
  }
  if (q.category) add('p.category = ?', q.category);
  if (q.material) add('p.material = ?', q.material);
  if (q.minPrice !== undefined) add('p.price >= ?', q.minPrice);
  if (q.maxPrice !== undefined) add('p.price <= ?', q.maxPrice);
  return { sql: parts.join(' and '), bindings };
}

/** A product's images as a JSON array in position order, for the page statement. */
const IMAGES_JSON = `(select coalesce(json_agg(json_build_object('product_id', i.product_id, 'position', i.position,
    'card_url', i.card_url, 'detail_url', i.detail_url, 'width', i.width, 'height', i.height,
    'placeholder', i.placeholder)
    order by i.position), '[]'::json) from product_images i where i.product_id = p.id) as images`;

type PageRow = ProductRow & { capped_total: unknown; images: ProductImageRow[] | string | null };

/**
 * One page of products with their shops and images in one statement: a narrow inner select of ids walks the
 * sort order, then only those rows are read whole. With `countCapped` the same statement also counts the
 * matches up to COUNT_EXACT_CAP + 1 (an uncorrelated subquery, run once).
 */
async function pageStatement(
  db: Knex,
  where: { sql: string; bindings: unknown[] },
  order: OrderTerm[],
  limit: number,
  offset: number,
  countCapped: boolean,
): Promise<PageRow[]> {
  const orderSql = order.map((o) => o.sql).join(', ');
  const orderBindings = order.flatMap((o) => o.bindings ?? []);
  const count = countCapped ? `(${cappedCount(where)})` : 'null';
  return directQuery<PageRow>(
    db,
    `select ${count} as capped_total, ${PRODUCT_COLUMNS}, ${IMAGES_JSON}
       from (select p.id from products p where ${where.sql} order by ${orderSql} limit ? offset ?) page
       join products p on p.id = page.id
       left join seller_profiles sp on sp.user_id = p.seller_id
      order by ${orderSql}`,
    [
      ...(countCapped ? where.bindings : []),
      ...where.bindings,
      ...orderBindings,
      limit,
      offset,
      ...orderBindings,
    ],
  );
}

const presentPage = (rows: PageRow[]) =>
  rows.map((r) =>
    presentProduct(
      r,
      typeof r.images === 'string' ? (JSON.parse(r.images) as ProductImageRow[]) : (r.images ?? []),
    ),
  );

/** Counts the matches of a filter up to COUNT_EXACT_CAP + 1 (SQL, with the filter's bindings). */
const cappedCount = (where: { sql: string }) =>
  `select count(*) as n from (select 1 from products p where ${where.sql} limit ${COUNT_EXACT_CAP + 1}) c`;

/** A fresh exact total remembered for these filters (see exactTotal), if any. */
function rememberedTotal(key: string): number | undefined {
  const hit = countCache.get(key);
  return hit && hit.expires > Date.now() ? hit.total : undefined;
}

async function listOn(db: Knex, q: ListQuery, viewer: SessionUser | undefined): Promise<ProductListResponse> {
  const ownView = seesUnapproved(viewer, q.sellerId);
  const offset = (q.page - 1) * q.limit;
  const where = listFilter(q, ownView);
  // Browsing without a search: the page and (unless a large total is remembered) its capped count in one
  // round trip; the exact count of thousands only when it is not remembered.
  const key = keyOf(q, ownView, null);
  const remembered = rememberedTotal(key);
  const rows = await pageStatement(db, where, orderTerms(q), q.limit, offset, remembered === undefined);
  let total = remembered;
  if (total === undefined) {
    const capped = rows.length
      ? toNumber(rows[0].capped_total)
      : toNumber((await directQuery<{ n: unknown }>(db, cappedCount(where), where.bindings))[0]?.n);
    total = capped <= COUNT_EXACT_CAP ? capped : await exactTotal(db, where, key);
  }
  return { products: presentPage(rows), pagination: pagination(q, total) };
}

/** The key of a remembered total: the filters and the search's match (null without a search). */
const keyOf = (q: ListQuery, ownView: boolean, match: Sql | null) =>
  JSON.stringify([ownView, q.sellerId, q.sellerIds, q.category, q.material, q.minPrice, q.maxPrice, match]);

const pagination = (q: ProductListQuery, total: number) => ({
  currentPage: q.page,
  limit: q.limit,
  totalProducts: total,
  totalPages: Math.ceil(total / q.limit),
});

/** One stage of a search (search-stages.ts): its page, ranked or sorted, and its total. */
async function searchOn(
  db: Knex,
  q: ListQuery,
  read: ReturnType<typeof readQuery>,
  first: SearchStage,
  rank: Sql,
  viewer: SessionUser | undefined,
): Promise<ProductListResponse> {
  const ownView = seesUnapproved(viewer, q.sellerId);
  const offset = (q.page - 1) * q.limit;
  const where = listFilter(q, ownView);
  const matching = (stage: SearchStage): Sql => ({
    sql: `${where.sql} and ${stage.match.sql}`,
    bindings: [...where.bindings, ...stage.match.bindings],
  });

  // A search not known to match thousands: its matches (up to COUNT_EXACT_CAP + 1, from bitmap scans of the
  // GIN and category/material indexes) are counted, ranked (or sorted) and paged in one statement. The count
  // also tells whether the free words need correcting: few full-text matches, and they may be misspelt.
  let stage = first;
  let total = rememberedTotal(keyOf(q, ownView, stage.match));
  if (total === undefined) {
    let found = await searchPage(db, matching(stage), q, rank, offset);
    if (found.capped < FTS_ENOUGH) {
      const corrected = await correctStage(db, read, stage);
      if (corrected) {
        stage = corrected;
        found = await searchPage(db, matching(stage), q, rank, offset);
      }
    }
    if (found.capped <= COUNT_EXACT_CAP) {
      return { products: presentPage(found.rows), pagination: pagination(q, found.capped) };
    }
    const key = keyOf(q, ownView, stage.match);
    total = rememberedTotal(key) ?? (await exactTotal(db, matching(stage), key));
  }

  // Thousands of matches. Ranking needs every match scored (hundreds of ms for 'gold'), and relevance among
  // thousands of equally matching pieces says little: popularity orders them unless a sort is asked for,
  // and walking the sort index finds a page after a few dozen rows (see withSearchSettings).
  let rows: PageRow[] = [];
  if (offset < total) {
    await useOrderedScans(db);
    rows = await pageStatement(
      db,
      matching(stage),
      orderTerms({ ...q, sortBy: q.sortBy ?? 'popularity' }),
      q.limit,
      offset,
      false,
    );
  }
  return { products: presentPage(rows), pagination: pagination(q, total) };
}

/** The sort keys a search page is ordered by, as columns of its matches (`m`). */
function searchOrder(q: ProductListQuery): string {
  switch (q.sortBy) {
    case 'price-asc':
      return 'm.price asc, m.id asc';
    case 'price-desc':
      return 'm.price desc, m.id desc';
    case 'rating':
      return 'm.rating_score desc, m.id desc';
    case 'popularity':
      return 'm.units_sold desc, m.id desc';
    case 'newest':
      return 'm.created_at desc, m.id desc';
    default:
      return 'm.rank desc, m.id desc';
  }
}

/**
 * One page of a search and the number of its matches up to COUNT_EXACT_CAP + 1, in one statement: the
 * matches are read once (a GIN bitmap), counted, ordered by relevance or the asked sort, and paged. Always
 * answers a row for the count; its product columns are null when the page is past the end.
 */
async function searchPage(
  db: Knex,
  where: { sql: string; bindings: unknown[] },
  q: ProductListQuery,
  rank: Sql,
  offset: number,
): Promise<{ capped: number; rows: PageRow[] }> {
  const order = searchOrder(q);
  const found = await directQuery<PageRow & { ord: unknown }>(
    db,
    `with m as materialized (
       select p.id, p.price, p.rating_score, p.units_sold, p.created_at,
              ${q.sortBy ? '0' : rank.sql} as rank
         from products p where ${where.sql} limit ${COUNT_EXACT_CAP + 1}),
     page as (select m.id, row_number() over (order by ${order}) as ord from m order by ${order} limit ? offset ?)
     select (select count(*) from m) as capped_total, r.*
       from (select 1) one
       left join (
         select page.ord, ${PRODUCT_COLUMNS}, ${IMAGES_JSON}
           from page join products p on p.id = page.id
           left join seller_profiles sp on sp.user_id = p.seller_id) r on true
      order by r.ord`,
    [...(q.sortBy ? [] : rank.bindings), ...where.bindings, q.limit, offset],
  );
  const capped = toNumber(found[0]?.capped_total);
  return { capped, rows: found.filter((r) => r.id !== null) };
}

/** The exact number of matches when there are more than COUNT_EXACT_CAP, remembered per filter. */
async function exactTotal(
  db: Knex,
  where: { sql: string; bindings: unknown[] },
  key: string,
): Promise<number> {
  const [c] = await directQuery<{ n: unknown }>(
    db,
    `select count(*) as n from products p where ${where.sql}`,
    where.bindings,
  );
  const total = toNumber(c?.n);
  remember(key, total);
  return total;
}

function remember(key: string, total: number) {
  if (countCache.size >= COUNT_CACHE_MAX) countCache.delete(countCache.keys().next().value!);
  countCache.set(key, { total, expires: Date.now() + COUNT_TTL_MS });
}

/** One product for a deep link; the owner and admins also see it while the shop awaits approval. */
export async function getProduct(db: Knex, id: number, viewer: SessionUser | undefined): Promise<Product> {
  const row = (await db
    .from('products as p')
    .leftJoin('seller_profiles as sp', 'sp.user_id', 'p.seller_id')
    .where('p.id', id)
    .whereNull('p.deleted_at')
    .first(db.raw(PRODUCT_COLUMNS), 'p.seller_approved')) as
    (ProductRow & { seller_approved: boolean }) | undefined;
  if (!row || (!row.seller_approved && !seesUnapproved(viewer, row.seller_id))) {
    throw notFound(CATALOG_MESSAGES.productNotFound, 'product_not_found');
  }
  const images = await loadImages(db, [row.id]);
  return presentProduct(row, images.get(row.id));
}
