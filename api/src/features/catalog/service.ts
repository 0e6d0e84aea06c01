import type { Knex } from 'knex';
import {
  SUGGESTION_LIMIT,
  displayName,
  type CatalogStats,
  type Product,
  type ProductListQuery,
  type ProductListResponse,
  type SearchSuggestions,
  type SellerCard,
  type SellerListQuery,
  type SellerListResponse,
  type StoreResponse,
} from '../../../contract/catalog';
import { CALL_LIMITS, PRODUCT_CATEGORIES, type ProductCategory } from '../../../contract/constants';
import { directQuery, hotQuery, toNumber } from '../../../../db/connection';
import type { SessionUser } from '../../http/context';
import { notFound } from '../../http/errors';
import {
  presentProduct,
  presentSellerCard,
  presentStoreProfile,
  type ProductImageRow,
  type ProductRow,
  type SellerCardRow,
} from './presenter';
import {
  correctWords,
  prepareSearch,
  productMatch,
  productRank,
  useOrderedScans,
  withLocalSettings,
  withSearchSettings,
  type SearchTerms,
} from './search';
import { CATALOG_MESSAGES } from '../../../contract/catalog';

/** The product columns presentProduct expects; money is cast to text so pg and PGlite agree. */
export const PRODUCT_COLUMNS = `p.id, p.seller_id, p.name, p.description, p.price::text as price, p.category,
  p.material, p.stock_quantity, p.sku, p.width_mm, p.height_mm, p.size, p.purity, p.weight_g,
  p.diamonds_total_count, p.diamonds_type, p.diamonds_total_weight, p.gemstone_total_count, p.gemstone_type,
  p.making_charges::text as making_charges, p.stone_charges::text as stone_charges,
  p.discount_amount::text as discount_amount, p.gst_amount::text as gst_amount, p.size_available,
  p.is_custom_made, p.rating_avg, p.rating_count, p.units_sold, p.created_at, p.pricing_mode, p.metal,
  p.metal_purity, p.net_weight_g::text as net_weight_g, p.making_type, p.making_value::text as making_value,
  p.metal_rate::text as metal_rate, p.huid, p.certificate_lab, p.certificate_number, p.certificate_url,
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

function orderTerms(knex: Knex, q: ProductListQuery, terms: SearchTerms | null): OrderTerm[] {
  if (terms && !q.sortBy) {
    const rank = productRank(knex, terms).toSQL();
    return [{ sql: `${rank.sql} desc`, bindings: rank.bindings }, { sql: 'p.id desc' }];
  }
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
): Promise<ProductListResponse> {
  const terms = q.query ? prepareSearch(q.query) : null;
  if (terms) return withSearchSettings(db, (trx) => listOn(trx, q, terms, viewer));
  return listOn(db, q, null, viewer);
}

/** The public (or own-view) filter of a product list as SQL over alias p, with its bindings. */
function listFilter(q: ProductListQuery, ownView: boolean): { sql: string; bindings: unknown[] } {
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

async function listOn(
  db: Knex,
  q: ProductListQuery,
  searchTerms: SearchTerms | null,
  viewer: SessionUser | undefined,
): Promise<ProductListResponse> {
  const ownView = seesUnapproved(viewer, q.sellerId);
  const offset = (q.page - 1) * q.limit;
  const where = listFilter(q, ownView);
  // The key of a remembered total: the filters and the search's tsquery (null without a search).
  const keyOf = (t: SearchTerms | null) =>
    JSON.stringify([ownView, q.sellerId, q.category, q.material, q.minPrice, q.maxPrice, t?.tsquery ?? null]);
  const pagination = (total: number) => ({
    currentPage: q.page,
    limit: q.limit,
    totalProducts: total,
    totalPages: Math.ceil(total / q.limit),
  });

  if (!searchTerms) {
    // Browsing without a search: the page and (unless a large total is remembered) its capped count in one
    // round trip; the exact count of thousands only when it is not remembered.
    const key = keyOf(null);
    const remembered = rememberedTotal(key);
    const order = orderTerms(db, q, null);
    const rows = await pageStatement(db, where, order, q.limit, offset, remembered === undefined);
    let total = remembered;
    if (total === undefined) {
      const capped = rows.length
        ? toNumber(rows[0].capped_total)
        : toNumber((await directQuery<{ n: unknown }>(db, cappedCount(where), where.bindings))[0]?.n);
      total = capped <= COUNT_EXACT_CAP ? capped : await exactTotal(db, where, key);
    }
    return { products: presentPage(rows), pagination: pagination(total) };
  }

  const matching = (t: SearchTerms) => {
    const match = productMatch(db, t).toSQL();
    return { sql: `${where.sql} and ${match.sql}`, bindings: [...where.bindings, ...match.bindings] };
  };

  // A search not known to match thousands: its matches (up to COUNT_EXACT_CAP + 1, from one GIN bitmap) are
  // counted, ranked (or sorted) and paged in one statement. The count also tells whether the words need
  // correcting: few full-text matches, and they may be misspelt.
  let terms = searchTerms;
  let total = rememberedTotal(keyOf(terms));
  if (total === undefined) {
    let found = await searchPage(db, matching(terms), q, terms, offset);
    if (found.capped < FTS_ENOUGH && terms.tsquery && !terms.corrected) {
      const corrected = await correctWords(db, terms);
      if (corrected.tsquery !== terms.tsquery) {
        terms = corrected;
        found = await searchPage(db, matching(terms), q, terms, offset);
      }
    }
    if (found.capped <= COUNT_EXACT_CAP) {
      return { products: presentPage(found.rows), pagination: pagination(found.capped) };
    }
    total = rememberedTotal(keyOf(terms)) ?? (await exactTotal(db, matching(terms), keyOf(terms)));
  }

  // Thousands of matches. Ranking needs every match scored (hundreds of ms for 'gold'), and relevance among
  // thousands of equally matching pieces says little: popularity orders them unless a sort is asked for,
  // and walking the sort index finds a page after a few dozen rows (see withSearchSettings).
  let rows: PageRow[] = [];
  if (offset < total) {
    await useOrderedScans(db);
    rows = await pageStatement(
      db,
      matching(terms),
      orderTerms(db, { ...q, sortBy: q.sortBy ?? 'popularity' }, null),
      q.limit,
      offset,
      false,
    );
  }
  return { products: presentPage(rows), pagination: pagination(total) };
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
  terms: SearchTerms,
  offset: number,
): Promise<{ capped: number; rows: PageRow[] }> {
  const rank = productRank(db, terms).toSQL();
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

// Misspellings are corrected against the vocabulary only when full-text alone finds fewer than this many: a
// correctly spelt word ('gold') costs no lookup, and the search itself is full-text either way (a trigram
// scan of 100k names took tens to hundreds of ms for common or misspelt words).
const FTS_ENOUGH = 10;

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

// Common terms match thousands of products; suggestions rank a bounded set of candidates, not all of them
// (ranking each costs ~12 µs: 200 took 2.5 ms).
const SUGGESTION_CANDIDATES = 100;

// A word that people type most (gold, chain, necklace: 4-17% of the catalogue at 100k products) is answered
// from the POPULAR_CANDIDATES most popular products that match it, found by walking the popularity index
// through at most POPULAR_WALK products. Full text through the GIN index has to read every match of a short
// prefix before it can stop ('gol': 17,297 postings, ~7 ms); the walk stops after a hundred rows or so. A
// word rarer than 1 in 100 among the most popular products (or misspelt) falls back to full text, after a
// walk of ~1 ms.
const POPULAR_CANDIDATES = 10;
const POPULAR_WALK = 1000;

/**
 * Search-box suggestions: a few ranked products, shops and categories matching prefixes and misspellings.
 * A common word is answered from its most popular matches (popularSuggestionStatement); anything else by full
 * text inside withSearchSettings, where too few matches send the words to be corrected against the vocabulary
 * and the corrected words go round once more, popular matches first ('neckalce' → necklace).
 */
export async function suggest(db: Knex, query: string): Promise<SearchSuggestions> {
  let terms = prepareSearch(query);
  for (;;) {
    if (terms.tsquery) {
      const [row] = await popularSuggestionStatement(db, terms);
      if (toNumber(row?.matched) >= POPULAR_CANDIDATES) return presentSuggestions(row);
    }
    const asked = terms;
    const found = await withSearchSettings<{ row: SuggestionRow | undefined } | { corrected: SearchTerms }>(
      db,
      async (trx) => {
        const [row] = await suggestionStatement(trx, asked);
        if (toNumber(row?.matched) >= FTS_ENOUGH || !asked.tsquery || asked.corrected) return { row };
        // Few full-text matches: the words may be misspelt.
        const corrected = await correctWords(trx, asked);
        return corrected.tsquery === asked.tsquery ? { row } : { corrected };
      },
    );
    if (!('corrected' in found)) return presentSuggestions(found.row);
    terms = found.corrected;
  }
}

interface SuggestionRow {
  matched: unknown;
  products: SuggestionProductRow[] | string | null;
  sellers: SuggestionSellerRow[] | string | null;
  categories: string[] | string | null;
}
type SuggestionProductRow = {
  id: number;
  name: string;
  price: string;
  category: ProductCategory;
  image_url: string | null;
};
type SuggestionSellerRow = { user_id: number; shop_name: string; url_slug: string | null; city: string };

const jsonColumn = <T>(v: T[] | string | null): T[] =>
  typeof v === 'string' ? (JSON.parse(v) as T[]) : (v ?? []);

/**
 * The best SUGGESTION_LIMIT of the candidate products (`cand`), by relevance then popularity, as JSON. Its
 * bindings: the rank's.
 */
const RANKED_CANDIDATES_SQL = (rankSql: string) => `(select coalesce(json_agg(x), '[]'::json) from (
          select p.id, p.name, p.price::text as price, p.category,
                 (select i.card_url from product_images i where i.product_id = p.id order by i.position limit 1)
                   as image_url
            from products p where p.id in (select id from cand)
           order by ${rankSql} desc, p.units_sold desc, p.id desc
           limit ${SUGGESTION_LIMIT}) x) as products`;

/** The category names matching the text (a tiny list, matched in SQL for pg_trgm), as JSON. */
const CATEGORIES_SQL = (fuzzy: boolean) => `(select coalesce(json_agg(c.c), '[]'::json) from (
          select c from unnest(?::text[]) as c
           where c ilike ? or c ilike ?${fuzzy ? ' or ? <% c' : ''}
           order by (c ilike ?) desc, word_similarity(?, c) desc, c
           limit ${SUGGESTION_LIMIT}) c) as categories`;

function categoryBindings(terms: SearchTerms, fuzzy: boolean): unknown[] {
  const catText = terms.text.replace(/_/g, ' ');
  const catLike = `${escapeLike(catText)}%`;
  return [
    PRODUCT_CATEGORIES.map(displayName),
    catLike,
    `% ${catLike}`,
    ...(fuzzy ? [catText] : []),
    catLike,
    catText,
  ];
}

/** The words of a search as a 'simple' phrase tsquery for shop names: 'silver ank' → 'silver <-> ank:*'. */
const shopWordsQuery = (terms: SearchTerms) =>
  terms.words.map((w, i) => (i === terms.words.length - 1 ? `${w}:*` : w)).join(' <-> ');

/**
 * Suggestions for a word many products match, in one statement outside any transaction: the candidates are
 * the first POPULAR_CANDIDATES matches in popularity order among the POPULAR_WALK most popular public
 * products (`matched` says how many were found: fewer means the word is rare or misspelt, and the caller asks
 * full text instead). Words the vocabulary does not know (the last one: as the start of a word) are not
 * walked for at all: they are misspelt or rare, and a walk that finds nothing costs ~2 ms. Shops are those
 * whose names hold the words in order, the last one as a prefix (the index of migration 0008); categories
 * those whose names start with the text or hold a word starting with it.
 */
function popularSuggestionStatement(db: Knex, terms: SearchTerms): Promise<SuggestionRow[]> {
  const match = productMatch(db, terms, 'w').toSQL();
  const rank = productRank(db, terms).toSQL();
  const like = `${escapeLike(terms.text)}%`;
  return hotQuery<SuggestionRow>(
    db,
    'catalog_suggestions_popular',
    `with cand as materialized (
       select w.id from (
         select p.id, p.search_vector from products p
          where p.deleted_at is null and p.seller_approved
          order by p.units_sold desc, p.id desc limit ${POPULAR_WALK}) w
        where (not ?::boolean or (
                 not exists (select 1 from unnest(?::text[]) k(w)
                              where not exists (select 1 from search_words s where s.word = k.w))
                 and exists (select 1 from search_words s where s.word >= ? and s.word < ? || chr(1114111))))
          and ${match.sql}
        limit ${POPULAR_CANDIDATES})
     select (select count(*) from cand) as matched,
       ${RANKED_CANDIDATES_SQL(rank.sql)},
       (select coalesce(json_agg(s), '[]'::json) from (
          select sp.user_id, sp.shop_name, sp.url_slug, sp.city from seller_profiles sp
           where to_tsvector('simple', sp.shop_name) @@ to_tsquery('simple', ?) and sp.is_approved
           order by (sp.shop_name ilike ?) desc, sp.rating_score desc, sp.user_id
           limit ${SUGGESTION_LIMIT}) s) as sellers,
       ${CATEGORIES_SQL(false)}`,
    [
      !terms.corrected,
      terms.words.slice(0, -1),
      terms.words.at(-1) ?? '',
      terms.words.at(-1) ?? '',
      ...match.bindings,
      ...rank.bindings,
      shopWordsQuery(terms),
      like,
      ...categoryBindings(terms, false),
    ],
  );
}

/**
 * Products, shops and categories for the search box in one statement: up to SUGGESTION_CANDIDATES full-text
 * matches (counted, to tell whether the words need correcting), the best few ranked, shops by name prefix or
 * trigram, and the category names. Runs inside withSearchSettings (trigram thresholds, bitmap scans only).
 * The shops matching the text are found through the trigram index alone (shop_match), each scored once,
 * before their approval is checked: offered the approval index, the planner read every approved shop and
 * scored each name ('gol': 14 ms for 2,000 shops instead of 0.5 ms).
 */
function suggestionStatement(db: Knex, terms: SearchTerms): Promise<SuggestionRow[]> {
  const match = productMatch(db, terms).toSQL();
  const rank = productRank(db, terms).toSQL();
  const like = `${escapeLike(terms.text)}%`;
  // Its text is the same for every search (only the parameters change), so it is a prepared statement:
  // planning it took ~7 ms, more than running it for most words.
  return hotQuery<SuggestionRow>(
    db,
    terms.tsquery ? 'catalog_suggestions' : 'catalog_suggestions_no_words',
    `with cand as (
       select p.id from products p
        where p.deleted_at is null and p.seller_approved and ${match.sql}
        limit ${SUGGESTION_CANDIDATES}),
     shop_match as materialized (
       select sp.user_id, sp.shop_name, sp.url_slug, sp.city, sp.rating_score, sp.is_approved,
              sp.shop_name ilike ? as prefix, word_similarity(?, sp.shop_name) as sim
         from seller_profiles sp
        where sp.shop_name ilike ? or sp.shop_name ilike ? or ? <% sp.shop_name)
     select (select count(*) from cand) as matched,
       ${RANKED_CANDIDATES_SQL(rank.sql)},
       (select coalesce(json_agg(s), '[]'::json) from (
          select m.user_id, m.shop_name, m.url_slug, m.city from shop_match m where m.is_approved
           order by m.prefix desc, m.sim desc, m.rating_score desc, m.user_id
           limit ${SUGGESTION_LIMIT}) s) as sellers,
       ${CATEGORIES_SQL(true)}`,
    [
      ...match.bindings,
      like,
      terms.text,
      like,
      `% ${like}`,
      terms.text,
      ...rank.bindings,
      ...categoryBindings(terms, true),
    ],
  );
}

function presentSuggestions(row: SuggestionRow | undefined): SearchSuggestions {
  return {
    products: jsonColumn(row?.products ?? null).map((p) => ({
      id: p.id,
      name: p.name,
      imageUrl: p.image_url,
      price: p.price,
      category: p.category,
    })),
    sellers: jsonColumn(row?.sellers ?? null).map((s) => ({
      sellerId: s.user_id,
      shopName: s.shop_name,
      urlSlug: s.url_slug,
      city: s.city,
    })),
    categories: jsonColumn(row?.categories ?? null).map((c) => c.replace(/ /g, '_') as ProductCategory),
  };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Approved shops with their seller's name, presence and public product count. */
function sellerCards(db: Knex): Knex.QueryBuilder {
  return db
    .from('seller_profiles as sp')
    .join('users as u', 'u.id', 'sp.user_id')
    .leftJoin('seller_presence as pr', 'pr.user_id', 'sp.user_id')
    .where('sp.is_approved', true)
    .select(
      'sp.*',
      'u.display_name as seller_name',
      'pr.last_polled_at',
      db.raw(
        '(select count(*) from products p where p.seller_id = sp.user_id and p.deleted_at is null) as product_count',
      ),
    );
}

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
  return withLocalSettings(db, { enable_seqscan: 'off' }, (trx) => listSellersOn(trx, q, now));
}

async function listSellersOn(db: Knex, q: SellerListQuery, now: Date): Promise<SellerListResponse> {
  const filters = (qb: Knex.QueryBuilder) => {
    if (q.city) qb.whereRaw('lower(sp.city) = lower(?)', [q.city]);
    if (q.state) qb.whereRaw('lower(sp.state) = lower(?)', [q.state]);
    if (q.searchQuery) {
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

/** The landing page's top sellers: approved shops with public products, best rated first. */
export async function topSellers(db: Knex, limit: number, now: Date): Promise<SellerCard[]> {
  const rows = (await db
    .from(sellerCards(db).as('s'))
    .select('*')
    .where('s.product_count', '>', 0)
    .orderBy([
      { column: 's.rating_score', order: 'desc' },
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

/** Real counts for the landing hero. */
export async function catalogStats(db: Knex): Promise<CatalogStats> {
  const row = (await db
    .select(
      db.raw(
        "(select count(distinct o.customer_id) from orders o where o.status <> 'cancelled') as happy_customers",
      ),
      db.raw('(select count(*) from seller_profiles sp where sp.is_approved) as verified_jewelers'),
      db.raw(
        '(select count(*) from products p where p.deleted_at is null and p.seller_approved) as jewelry_pieces',
      ),
    )
    .first()) as { happy_customers: unknown; verified_jewelers: unknown; jewelry_pieces: unknown };
  return {
    happyCustomers: toNumber(row.happy_customers),
    verifiedJewelers: toNumber(row.verified_jewelers),
    jewelryPieces: toNumber(row.jewelry_pieces),
  };
}
