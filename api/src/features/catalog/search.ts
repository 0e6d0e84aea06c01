import type { Knex } from 'knex';

/**
 * pg_trgm's default word-similarity threshold (0.6) misses common misspellings: 'jumka' scores 0.5 against
 * 'jhumka'. 0.5 still keeps 'ring' (0.4) from matching 'earrings'. The setting is per transaction, so searches
 * run inside one (see withSearchSettings) and nothing leaks to other queries on a pooled connection.
 */
export const WORD_SIMILARITY_THRESHOLD = 0.5;

/** Runs fn in a transaction whose trigram thresholds suit searching; fn must use the trx it is given. */
export async function withSearchSettings<T>(db: Knex, fn: (trx: Knex) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    // A prefix tsquery gets a fixed selectivity guess, so under a small LIMIT the planner bets on a
    // sequential scan finding matches early; for a rare or zero-hit word that reads all 100k rows (90 ms
    // instead of 0.05 ms). Every search predicate has an index (GIN on search_vector and on name), so
    // sequential scans are switched off for this transaction only.
    await trx.raw(
      "select set_config('pg_trgm.word_similarity_threshold', ?, true), set_config('enable_seqscan', 'off', true)",
      [String(WORD_SIMILARITY_THRESHOLD)],
    );
    return fn(trx);
  });
}

/** A search text prepared for full-text and trigram matching. */
export interface SearchTerms {
  /** The text as typed (whitespace collapsed, lowercased), for trigram matching. */
  text: string;
  /** A to_tsquery('english', …) expression: every word, the last one as a prefix; null when no word is left. */
  tsquery: string | null;
  /** Whether names are also matched by trigram similarity (see FTS_ENOUGH in the service). */
  fuzzy: boolean;
}

// to_tsquery syntax characters (& | ! : * ( ) ' \ <->) must never reach it from user text: keep letters and digits.
const WORD = /[\p{L}\p{N}]+/gu;

/** Splits a search text into words for to_tsquery; the last word matches as a prefix (the user may still be typing). */
export function prepareSearch(raw: string): SearchTerms {
  const text = raw.trim().replace(/\s+/g, ' ').toLowerCase();
  const words = (text.match(WORD) ?? []).slice(0, 8);
  const tsquery = words.length
    ? words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ')
    : null;
  return { text, tsquery, fuzzy: true };
}

/**
 * The match predicate of a product search: full-text on the weighted search_vector (stems, prefix on the last
 * word) OR word similarity of the text to the name (misspellings such as 'jumka', partial words, 'gld chain').
 * `<%` is word_similarity above pg_trgm.word_similarity_threshold (see WORD_SIMILARITY_THRESHOLD) and is served by the name's GIN index.
 */
export function productMatch(knex: Knex, terms: SearchTerms, alias = 'p'): Knex.Raw {
  if (terms.tsquery && !terms.fuzzy) {
    return knex.raw(`${alias}.search_vector @@ to_tsquery('english', ?)`, [terms.tsquery]);
  }
  if (terms.tsquery) {
    return knex.raw(`(${alias}.search_vector @@ to_tsquery('english', ?) or ? <% ${alias}.name)`, [
      terms.tsquery,
      terms.text,
    ]);
  }
  return knex.raw(`? <% ${alias}.name`, [terms.text]);
}

/** Relevance of a product to the search: text rank plus name similarity (each 0..1). */
export function productRank(knex: Knex, terms: SearchTerms, alias = 'p'): Knex.Raw {
  if (terms.tsquery) {
    return knex.raw(
      `(ts_rank(${alias}.search_vector, to_tsquery('english', ?)) + word_similarity(?, ${alias}.name))`,
      [terms.tsquery, terms.text],
    );
  }
  return knex.raw(`word_similarity(?, ${alias}.name)`, [terms.text]);
}
