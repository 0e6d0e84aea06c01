import type { Knex } from 'knex';
import { hotQuery } from '../../../../db/connection';
import { normalizeText, wordsOf } from './query-reading';

/**
 * pg_trgm's default word-similarity threshold (0.6) misses common misspellings: 'jumka' scores 0.5 against
 * 'jhumka'. 0.5 still keeps 'ring' (0.4) from matching 'earrings'. The setting is per transaction, so searches
 * run inside one (see withSearchSettings) and nothing leaks to other queries on a pooled connection.
 */
export const WORD_SIMILARITY_THRESHOLD = 0.5;

/** Runs fn in a transaction whose trigram thresholds suit searching; fn must use the trx it is given. */
export async function withSearchSettings<T>(db: Knex, fn: (trx: Knex) => Promise<T>): Promise<T> {
  // A prefix tsquery of an unknown word gets a fixed selectivity guess (~435 of 100k rows), so under a
  // small LIMIT the planner bets on a sequential scan, or a walk of a whole sort index, finding matches
  // early; for a rare or zero-hit word that reads all 100k rows (500 ms instead of 0.06 ms through the GIN
  // bitmap). So both are off for this transaction; useOrderedScans turns index walks back on for a page of
  // a search already known to match thousands, where walking the sort order is the fast plan.
  return withLocalSettings(
    db,
    {
      'pg_trgm.word_similarity_threshold': String(WORD_SIMILARITY_THRESHOLD),
      'pg_trgm.similarity_threshold': String(CANDIDATE_SIMILARITY),
      enable_seqscan: 'off',
      enable_indexscan: 'off',
    },
    fn,
  );
}

/** Runs fn in a transaction with these settings local to it (set_config); fn must use the trx it is given. */
export async function withLocalSettings<T>(
  db: Knex,
  settings: Record<string, string>,
  fn: (trx: Knex) => Promise<T>,
): Promise<T> {
  const names = Object.keys(settings);
  return db.transaction(async (trx) => {
    await trx.raw(
      `select ${names.map(() => 'set_config(?, ?, true)').join(', ')}`,
      names.flatMap((n) => [n, settings[n]]),
    );
    return fn(trx);
  });
}

/** Lets the rest of a search transaction walk sort indexes (see withSearchSettings). */
export async function useOrderedScans(trx: Knex): Promise<void> {
  await trx.raw("select set_config('enable_indexscan', 'on', true)");
}

/** A search text prepared for full-text matching (and trigram ranking of names). */
export interface SearchTerms {
  /** The text as typed (whitespace collapsed, lowercased), for ranking names by word similarity. */
  text: string;
  /** The words of the text (letters and digits only), at most eight. */
  words: string[];
  /** A to_tsquery('english', …) expression: every word, the last one as a prefix; null when no word is left. */
  tsquery: string | null;
  /** Whether misspelt words have already been looked up in the vocabulary (see correctWords). */
  corrected: boolean;
}

/** Builds the tsquery: every word (the last as a prefix) OR its corrections. */
function toTsquery(words: string[], alternatives: string[][] = []): string | null {
  if (!words.length) return null;
  return words
    .map((w, i) => {
      const last = i === words.length - 1;
      const forms = [w, ...(alternatives[i] ?? [])].map((f) => (last ? `${f}:*` : f));
      return forms.length > 1 ? `(${forms.join(' | ')})` : forms[0];
    })
    .join(' & ');
}

/** Splits a search text into words for to_tsquery; the last word matches as a prefix (the user may still be typing). */
export function prepareSearch(raw: string): SearchTerms {
  // Unicode NFC, and words kept whole with their combining marks (Tamil vowel signs, virama): see
  // query-reading.ts. to_tsquery syntax characters (& | ! : * ( ) ' \ <->) never reach it from user text.
  const text = normalizeText(raw);
  const words = wordsOf(text).slice(0, 8);
  return { text, words, tsquery: toTsquery(words), corrected: false };
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions: 'chian' → 'chain' is 1). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [
    i,
    ...Array<number>(b.length).fill(0),
  ]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** Edits allowed when correcting a word: one for short words, two from eight letters on. */
const maxEdits = (word: string) => (word.length >= 8 ? 2 : 1);

/**
 * The vocabulary word a misspelt word most likely meant, among trigram candidates (best first), or null. The
 * last word may be unfinished, so it may also match the start of a candidate ('jhmk' → 'jhumka').
 */
export function pickCorrection(word: string, candidates: string[], last: boolean): string | null {
  let best: { word: string; edits: number } | null = null;
  for (const c of candidates) {
    let edits = editDistance(word, c);
    if (last) {
      for (let k = Math.max(1, word.length - 1); k <= Math.min(c.length, word.length + 1); k++) {
        edits = Math.min(edits, editDistance(word, c.slice(0, k)));
      }
    }
    if (edits <= maxEdits(word) && (!best || edits < best.edits)) best = { word: c, edits };
  }
  return best?.word ?? null;
}

// Trigram candidates from the vocabulary: a low bar ('chian' shares only 0.2 of its trigrams with 'chain'),
// since the edit distance decides. The vocabulary is a few thousand words at most, so this stays cheap.
const CANDIDATE_SIMILARITY = 0.15;
const CANDIDATES_PER_WORD = 8;

/**
 * Corrects misspelt words against the vocabulary (table search_words) in one query: a word that is a known
 * word (the last one: the start of one) stays as it is; any other word of 3+ letters is searched as itself
 * OR its closest vocabulary word. Product search stays full-text only, whatever was mistyped.
 */
export async function correctWords(db: Knex, terms: SearchTerms): Promise<SearchTerms> {
  if (terms.corrected || !terms.words.length) return { ...terms, corrected: true };
  // A prepared statement: the same text for every search.
  const rows = await hotQuery<{
    w: string;
    i: number;
    known: boolean;
    known_prefix: boolean;
    candidates: string[];
  }>(
    db,
    'catalog_correct_words',
    `select q.w, q.i::int as i,
            exists (select 1 from search_words s where s.word = q.w) as known,
            exists (select 1 from search_words s
                     where s.word >= q.w and s.word < q.w || chr(1114111)) as known_prefix,
            array(select s.word from search_words s
                   where length(q.w) >= 3 and similarity(s.word, q.w) >= ?
                     and s.word % q.w
                   order by similarity(s.word, q.w) desc, s.word limit ?) as candidates
       from unnest(?::text[]) with ordinality as q(w, i)`,
    [CANDIDATE_SIMILARITY, CANDIDATES_PER_WORD, terms.words],
  );
  const alternatives: string[][] = terms.words.map(() => []);
  for (const r of rows) {
    const idx = r.i - 1;
    const last = idx === terms.words.length - 1;
    if (r.known || (last && r.known_prefix)) continue;
    const fix = pickCorrection(r.w, r.candidates ?? [], last);
    if (fix && fix !== r.w) alternatives[idx].push(fix);
  }
  return { ...terms, tsquery: toTsquery(terms.words, alternatives), corrected: true };
}

/**
 * The match predicate of a product search: full-text on the weighted search_vector (stems, prefix on the
 * last word, corrected words as alternatives). Served by the GIN index on search_vector; no trigram scan of
 * names. A text without any word matches nothing.
 */
export function productMatch(knex: Knex, terms: SearchTerms, alias = 'p'): Knex.Raw {
  if (!terms.tsquery) return knex.raw('false');
  return knex.raw(`${alias}.search_vector @@ to_tsquery('english', ?)`, [terms.tsquery]);
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

// Misspellings are corrected against the vocabulary only when full-text alone finds fewer than this many: a
// correctly spelt word ('gold') costs no lookup, and the search itself is full-text either way (a trigram
// scan of 100k names took tens to hundreds of ms for common or misspelt words).
export const FTS_ENOUGH = 10;

/** A LIKE pattern's special characters escaped. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
