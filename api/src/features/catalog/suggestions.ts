import type { Knex } from 'knex';
import { hasTamil, suggestedShopsBySound } from './shop-names';
import { SUGGESTION_LIMIT, displayName, type SearchSuggestions } from '../../../contract/catalog';
import { PRODUCT_CATEGORIES, type ProductCategory } from '../../../contract/constants';
import { directQuery, hotQuery, toNumber } from '../../../../db/connection';
import { readQuery, type ReadQuery } from './query-reading';
import { readRank, searchStages } from './search-stages';
import {
  FTS_ENOUGH,
  correctWords,
  escapeLike,
  prepareSearch,
  productMatch,
  productRank,
  withSearchSettings,
  type SearchTerms,
} from './search';

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
  const found = await suggestRead(db, query);
  // Shop names are in English letters: a text in Tamil script finds them by sound (§20.2).
  if (found.sellers.length || !hasTamil(query)) return found;
  return { ...found, sellers: await suggestedShopsBySound(db, query, SUGGESTION_LIMIT) };
}

async function suggestRead(db: Knex, query: string): Promise<SearchSuggestions> {
  const read = readQuery(query, { typing: true });
  if (read.categories.length + read.materials.length > 0) {
    const named = await suggestNamed(db, read);
    if (named) return named;
  }
  return suggestWords(db, query);
}

/**
 * The shops whose names match the text (both kinds of suggestion): through the trigram index alone, each scored
 * once, before their approval is checked (offered the approval index, the planner read every approved shop and
 * scored each name: 'gol' took 14 ms for 2,000 shops instead of 0.5 ms). Its five parameters come from
 * shopMatchBindings, in this order.
 */
const SHOP_MATCH_CTE = `shop_match as materialized (
  select sp.user_id, sp.shop_name, sp.url_slug, sp.city, sp.rating_score, sp.is_approved,
         sp.shop_name ilike ? as prefix, word_similarity(?, sp.shop_name) as sim
    from seller_profiles sp
   where sp.shop_name ilike ? or sp.shop_name ilike ? or ? <% sp.shop_name)`;
const shopMatchBindings = (text: string): string[] => {
  const like = `${escapeLike(text)}%`;
  return [like, text, like, `% ${like}`, text];
};
/** The approved matching shops, best first: a name that begins with the text, then the closest, then rating. */
const MATCHED_SHOPS_SQL = `(select coalesce(json_agg(s), '[]'::json) from (
     select m.user_id, m.shop_name, m.url_slug, m.city from shop_match m where m.is_approved
      order by m.prefix desc, m.sim desc, m.rating_score desc, m.user_id
      limit ${SUGGESTION_LIMIT}) s) as sellers`;

/**
 * Suggestions for a text that names a category or material in any of the lexicon's words, or begins one
 * ("ஜிமி" → earrings): the named category first among the categories (the PWA shows it in the reader's
 * language), the best of its most popular pieces (the first search stage that finds any), and the shops
 * whose names match the text. Null when no stage finds a piece.
 */
async function suggestNamed(db: Knex, read: ReadQuery): Promise<SearchSuggestions | null> {
  const terms = prepareSearch(read.text);
  const rank = readRank(read, { typing: true });
  return withSearchSettings(db, async (trx) => {
    for (const stage of searchStages(read)) {
      const [row] = await directQuery<SuggestionRow>(
        trx,
        `with cand as materialized (
           select p.id from products p
            where p.deleted_at is null and p.seller_approved and ${stage.match.sql}
            order by p.units_sold desc, p.id desc limit ${SUGGESTION_CANDIDATES}),
         ${SHOP_MATCH_CTE}
         select (select count(*) from cand) as matched,
           ${RANKED_CANDIDATES_SQL(rank.sql)},
           ${MATCHED_SHOPS_SQL},
           ${CATEGORIES_SQL(true)}`,
        [
          ...stage.match.bindings,
          ...shopMatchBindings(terms.text),
          ...rank.bindings,
          ...categoryBindings(terms, true),
        ],
      );
      if (toNumber(row?.matched) === 0) continue;
      const found = presentSuggestions(row);
      const categories = [...new Set([...read.categories, ...found.categories])].slice(0, SUGGESTION_LIMIT);
      return { ...found, categories };
    }
    return null;
  });
}

/** Suggestions for words the lexicon does not know: shop names, product words, their misspellings. */
async function suggestWords(db: Knex, query: string): Promise<SearchSuggestions> {
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
 * trigram (SHOP_MATCH_CTE), and the category names. Runs inside withSearchSettings (trigram thresholds,
 * bitmap scans only).
 */
function suggestionStatement(db: Knex, terms: SearchTerms): Promise<SuggestionRow[]> {
  const match = productMatch(db, terms).toSQL();
  const rank = productRank(db, terms).toSQL();
  // Its text is the same for every search (only the parameters change), so it is a prepared statement:
  // planning it took ~7 ms, more than running it for most words.
  return hotQuery<SuggestionRow>(
    db,
    terms.tsquery ? 'catalog_suggestions' : 'catalog_suggestions_no_words',
    `with cand as (
       select p.id from products p
        where p.deleted_at is null and p.seller_approved and ${match.sql}
        limit ${SUGGESTION_CANDIDATES}),
     ${SHOP_MATCH_CTE}
     select (select count(*) from cand) as matched,
       ${RANKED_CANDIDATES_SQL(rank.sql)},
       ${MATCHED_SHOPS_SQL},
       ${CATEGORIES_SQL(true)}`,
    [...match.bindings, ...shopMatchBindings(terms.text), ...rank.bindings, ...categoryBindings(terms, true)],
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
