import type { Knex } from 'knex';
import { correctWords, prepareSearch, type SearchTerms } from './search';
import { formsOf, type ReadQuery } from './query-reading';

/** SQL over products `p` with its bindings. */
export interface Sql {
  sql: string;
  bindings: unknown[];
}

/**
 * One way of matching a read query, from the strictest to the loosest (docs/product-rules.md "Search"): the
 * first stage that finds anything answers. `terms` are the free words' full-text terms, which may still be
 * corrected against the vocabulary when they find little.
 */
export interface SearchStage {
  name: 'named' | 'named-only' | 'named-or-said' | 'everything';
  match: Sql;
  terms: SearchTerms | null;
}

const orTsquery = (words: string[], lastPrefix: boolean): string | null => {
  const safe = words.filter((w) => /^[\p{L}\p{M}\p{N}]+$/u.test(w));
  if (!safe.length) return null;
  return safe.map((w, i) => (lastPrefix && i === safe.length - 1 ? `${w}:*` : w)).join(' | ');
};

const named = (read: ReadQuery): Sql => {
  const parts: string[] = [];
  const bindings: unknown[] = [];
  if (read.categories.length) {
    parts.push('p.category = any(?::text[])');
    bindings.push(read.categories);
  }
  if (read.materials.length) {
    parts.push('p.material = any(?::text[])');
    bindings.push(read.materials);
  }
  return { sql: parts.join(' and '), bindings };
};

const and = (...xs: (Sql | null)[]): Sql => {
  const parts = xs.filter((x): x is Sql => !!x && x.sql !== '');
  return {
    sql: parts.length ? parts.map((x) => `(${x.sql})`).join(' and ') : 'true',
    bindings: parts.flatMap((x) => x.bindings),
  };
};

/** The free words' full-text match (every word; the last as a prefix when typing; corrections as alternatives). */
export const wordsMatch = (terms: SearchTerms | null): Sql | null =>
  terms?.tsquery ? { sql: `p.search_vector @@ to_tsquery('english', ?)`, bindings: [terms.tsquery] } : null;

/**
 * The stages of a search:
 * 1. `named`: the category, material and purity the query names (as the products' columns say them) and its
 *    other words in the products' text ("lakshmi dollar": pendants whose text says Lakshmi);
 * 2. `named-only`: only the category and material it names, when its other words or purity found nothing;
 * 3. `named-or-said`: each category or material named either by the column or by any of its words in the
 *    products' text ("temple chain": a gold chain called "Temple gold chain"), in any language;
 * 4. a query naming nothing the lexicon knows is its words in the products' text (stage 1 alone); one of only
 *    generic words ("jewellery") matches `everything`.
 */
export function searchStages(read: ReadQuery): SearchStage[] {
  const free = read.free.length ? prepareSearch(read.free.join(' ')) : null;
  const concepts = read.categories.length + read.materials.length > 0;
  const purity: Sql | null = read.purities.length
    ? {
        sql: 'upper(p.purity) like any(?::text[])',
        bindings: [read.purities.map((x) => `${x.toUpperCase()}%`)],
      }
    : null;
  if (!concepts && !free && !purity) return [{ name: 'everything', match: and(), terms: null }];
  const stages: SearchStage[] = [
    { name: 'named', match: and(named(read), purity, wordsMatch(free)), terms: free },
  ];
  if (concepts && (free || purity)) stages.push({ name: 'named-only', match: named(read), terms: null });
  if (concepts) {
    const said = (meaning: { category?: string; material?: string }, column: string, value: string): Sql => {
      const forms = orTsquery(formsOf(meaning as Parameters<typeof formsOf>[0]), false);
      return forms
        ? {
            sql: `${column} = ? or p.search_vector @@ to_tsquery('english', ?)`,
            bindings: [value, forms],
          }
        : { sql: `${column} = ?`, bindings: [value] };
    };
    const each = [
      ...read.categories.map((c) => said({ category: c }, 'p.category', c)),
      ...read.materials.map((m) => said({ material: m }, 'p.material', m)),
    ];
    stages.push({ name: 'named-or-said', match: and(...each), terms: null });
  }
  return stages;
}

/** The stage with its free words corrected against the vocabulary, or null when nothing changed. */
export async function correctStage(
  db: Knex,
  read: ReadQuery,
  stage: SearchStage,
): Promise<SearchStage | null> {
  if (!stage.terms?.tsquery || stage.terms.corrected) return null;
  const corrected = await correctWords(db, stage.terms);
  if (corrected.tsquery === stage.terms.tsquery) return null;
  const purity: Sql | null = read.purities.length
    ? {
        sql: 'upper(p.purity) like any(?::text[])',
        bindings: [read.purities.map((x) => `${x.toUpperCase()}%`)],
      }
    : null;
  return { ...stage, match: and(named(read), purity, wordsMatch(corrected)), terms: corrected };
}

/**
 * Relevance of a product to a read query (higher first): the category and the material it names, said by the
 * columns, count most (one each); then the text rank of every typed word and of the named pieces' words in
 * any language (a "ஜிமிக்கி" search ranks the earrings called jhumka first), then the name's likeness to the
 * text.
 */
export function readRank(read: ReadQuery, opts: { typing?: boolean } = {}): Sql {
  const parts: string[] = [];
  const bindings: unknown[] = [];
  if (read.categories.length) {
    parts.push('(case when p.category = any(?::text[]) then 1 else 0 end)');
    bindings.push(read.categories);
  }
  if (read.materials.length) {
    parts.push('(case when p.material = any(?::text[]) then 1 else 0 end)');
    bindings.push(read.materials);
  }
  const words = orTsquery(read.rankWords, !!opts.typing);
  if (words) {
    parts.push(`ts_rank(p.search_vector, to_tsquery('english', ?))`);
    bindings.push(words);
  }
  parts.push('word_similarity(?, p.name)');
  bindings.push(read.text);
  return { sql: `(${parts.join(' + ')})`, bindings };
}
