import { PRODUCT_CATEGORIES, type ProductCategory, type ProductMaterial } from '../../../contract/constants';
import {
  CATEGORY_WORDS,
  GENERIC_WORDS,
  MATERIAL_WORDS,
  PIECES,
  PURITY_WORDS,
  type LexiconWords,
} from './lexicon';

/**
 * Reading a search the way a customer meant it: the text is normalised (Unicode NFC, lower case, invisible
 * joiners removed, words kept whole with their Tamil vowel signs and viramas), then read through the lexicon
 * (lexicon.ts), longest phrase first: "22k gold kolusu" names purity 22K, material gold and category anklets.
 * Misspelt lexicon words are recognised by their sound ("jimmiki", "mukkuthi") or within an edit or two
 * ("neckless", "valayl"); Tamil words too ("ஜிமிக்கீ"). What the lexicon does not know stays a free word,
 * matched against the products' own text.
 */

/** What a word or phrase of the lexicon stands for. */
export interface Meaning {
  category?: ProductCategory;
  material?: ProductMaterial;
  purity?: string;
  /** The words of the piece named (all its forms), for ranking the pieces that carry them first. */
  pieceWords?: readonly string[];
  /** The piece named (lexicon.ts PIECES id). */
  piece?: string;
  generic?: boolean;
}

/** One thing a query names, and how it was recognised. */
export interface Named extends Meaning {
  /** The words as typed. */
  typed: string;
  how: 'exact' | 'sound' | 'fuzzy' | 'prefix';
}

export interface ReadQuery {
  /** The normalised text. */
  text: string;
  /** Every word of the text, in order. */
  words: string[];
  /** What the lexicon recognised. */
  named: Named[];
  categories: ProductCategory[];
  materials: ProductMaterial[];
  purities: string[];
  /** Words the lexicon does not know (nor counts as generic): matched against the products' text. */
  free: string[];
  /** Words to rank by: every typed word and the forms of the pieces named. */
  rankWords: string[];
}

// A word keeps its letters, combining marks (Tamil vowel signs, virama, Devanagari matras) and digits.
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]/g;
const TAMIL = /[\u0b80-\u0bff]/;
const LATIN = /^[a-z0-9]+$/;

/** NFC, lower case, without zero-width joiners; whitespace collapsed. */
export function normalizeText(raw: string): string {
  return raw.normalize('NFC').replace(INVISIBLE, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The words of a normalised text (letters, marks and digits kept together). */
export const wordsOf = (text: string): string[] => text.match(WORD) ?? [];

const segmenter = new Intl.Segmenter('ta', { granularity: 'grapheme' });
/** The number of user-perceived letters (grapheme clusters): "ஜிமிக்கி" is 4, not 8 code points. */
export const graphemeCount = (word: string): number => [...segmenter.segment(word)].length;

/**
 * A romanised word as it sounds: aspirates and doubled letters dropped, long vowels shortened, c/k/q and w/v
 * merged, so "jhimmikki", "jimiki" and "jimikki" read alike ("jimiki").
 */
export function soundKey(word: string): string {
  if (!LATIN.test(word)) return word;
  return word
    .replace(/ph/g, 'f')
    .replace(/zh/g, 'l')
    .replace(/([bcdgjkpst])h/g, '$1')
    .replace(/ck|q|c/g, 'k')
    .replace(/w/g, 'v')
    .replace(/y/g, 'i')
    .replace(/ee/g, 'i')
    .replace(/oo/g, 'u')
    .replace(/(.)\1+/g, '$1');
}

/** Optimal string alignment distance over code points (a transposition is one edit). */
export function editDistance(a: string, b: string): number {
  const A = [...a];
  const B = [...b];
  const d: number[][] = Array.from({ length: A.length + 1 }, (_, i) => [
    i,
    ...Array<number>(B.length).fill(0),
  ]);
  for (let j = 1; j <= B.length; j++) d[0][j] = j;
  for (let i = 1; i <= A.length; i++) {
    for (let j = 1; j <= B.length; j++) {
      const cost = A[i - 1] === B[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && A[i - 1] === B[j - 2] && A[i - 2] === B[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[A.length][B.length];
}

/** The trigrams of a word as pg_trgm forms them (two spaces before, one after). */
function trigrams(word: string): Set<string> {
  const cps = [' ', ' ', ...word, ' '];
  const out = new Set<string>();
  for (let i = 0; i + 2 < cps.length; i++) out.add(cps[i] + cps[i + 1] + cps[i + 2]);
  return out;
}

/** pg_trgm's similarity: shared trigrams over all trigrams of both words. */
export function trigramSimilarity(a: string, b: string): number {
  const ta = trigrams(a);
  const tb = trigrams(b);
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared);
}

/** Edits allowed for a misspelt lexicon word: none for short words, one from 5 letters (Tamil: 3), two from 8 (6). */
function maxEdits(word: string): number {
  if (TAMIL.test(word)) {
    const n = graphemeCount(word);
    return n >= 6 ? 2 : n >= 3 ? 1 : 0;
  }
  return word.length >= 8 ? 2 : word.length >= 5 ? 1 : 0;
}

interface Entry {
  /** The phrase's words. */
  words: string[];
  meaning: Meaning;
}

function allForms(words: LexiconWords): string[] {
  return [...words.en, ...words.ta, ...words.taLatn, ...words.hi, ...words.hiLatn];
}

/** The lexicon as entries keyed by their normalised phrase; a piece's entry outranks its category's. */
function buildIndex(): { byPhrase: Map<string, Entry>; singles: Entry[]; longest: number } {
  const byPhrase = new Map<string, Entry>();
  const add = (forms: string[], meaning: Meaning, override: boolean) => {
    for (const form of forms) {
      const words = wordsOf(normalizeText(form));
      if (!words.length) continue;
      const key = words.join(' ');
      if (override || !byPhrase.has(key)) byPhrase.set(key, { words, meaning });
    }
  };
  for (const c of PRODUCT_CATEGORIES) add(allForms(CATEGORY_WORDS[c]), { category: c }, false);
  for (const [m, words] of Object.entries(MATERIAL_WORDS)) {
    add(allForms(words), { material: m as ProductMaterial }, false);
  }
  for (const [p, words] of Object.entries(PURITY_WORDS)) add(allForms(words), { purity: p }, false);
  for (const piece of PIECES) {
    const forms = allForms(piece.words);
    const pieceWords = [...new Set(forms.flatMap((f) => wordsOf(normalizeText(f))))];
    add(forms, { category: piece.category, material: piece.material, pieceWords, piece: piece.id }, true);
  }
  add(allForms(GENERIC_WORDS), { generic: true }, false);
  const entries = [...byPhrase.values()];
  return {
    byPhrase,
    singles: entries.filter((e) => e.words.length === 1 && !e.meaning.generic),
    longest: Math.max(...entries.map((e) => e.words.length)),
  };
}

const INDEX = buildIndex();
const SOUNDS = new Map<string, Entry>();
for (const e of INDEX.singles) {
  const key = soundKey(e.words[0]);
  if (!SOUNDS.has(key)) SOUNDS.set(key, e);
}

/** The word without a plural ending: English -s/-es, Tamil -கள் (with its doubled consonant). */
function singular(word: string): string | null {
  if (word.endsWith('க்கள்')) return word.slice(0, -'க்கள்'.length);
  if (word.endsWith('கள்')) return word.slice(0, -'கள்'.length);
  if (LATIN.test(word) && word.length > 4 && word.endsWith('es')) return word.slice(0, -2);
  if (LATIN.test(word) && word.length > 3 && word.endsWith('s')) return word.slice(0, -1);
  return null;
}

function lookupExact(word: string): Entry | undefined {
  const e = INDEX.byPhrase.get(word);
  if (e) return e;
  const s = singular(word);
  if (!s) return undefined;
  // "jhumkas" → "jhumka"; Tamil "வளையல்கள்" → "வளையல்", or the stem's full form ("பதக்க" → "பதக்கம்").
  return INDEX.byPhrase.get(s) ?? INDEX.byPhrase.get(s.replace(/(.)$/u, '$1ம்'));
}

/** The lexicon word a misspelt word most likely is: by sound, then within its edits (best trigram overlap). */
function lookupFuzzy(word: string): { entry: Entry; how: 'sound' | 'fuzzy' } | undefined {
  if (/^\d+$/.test(word)) return undefined;
  const key = soundKey(word);
  if (LATIN.test(word) && word.length >= 4) {
    const bySound = SOUNDS.get(key) ?? (singular(word) ? SOUNDS.get(soundKey(singular(word)!)) : undefined);
    if (bySound) return { entry: bySound, how: 'sound' };
  }
  const allowed = maxEdits(word);
  if (!allowed) return undefined;
  let best: { entry: Entry; edits: number; sim: number } | undefined;
  for (const e of INDEX.singles) {
    const form = e.words[0];
    if (TAMIL.test(form) !== TAMIL.test(word)) continue;
    const edits = Math.min(editDistance(word, form), editDistance(key, soundKey(form)));
    if (edits > allowed) continue;
    const sim = trigramSimilarity(word, form);
    if (!best || edits < best.edits || (edits === best.edits && sim > best.sim))
      best = { entry: e, edits, sim };
  }
  return best && { entry: best.entry, how: 'fuzzy' };
}

/** Lexicon entries whose form starts with the (unfinished) word: "ஜிமி" → ஜிமிக்கி, "kolu" → kolusu. */
function lookupPrefix(word: string): Entry | undefined {
  const enough = TAMIL.test(word) ? graphemeCount(word) >= 2 : word.length >= 3;
  if (!enough || /^\d+$/.test(word)) return undefined;
  let best: Entry | undefined;
  for (const [phrase, e] of INDEX.byPhrase) {
    if (e.meaning.generic || !phrase.startsWith(word)) continue;
    if (!best || phrase.length < best.words.join(' ').length) best = e;
  }
  return best;
}

/**
 * Reads a search text. With `typing`, the last word may be unfinished and is also matched as the start of a
 * lexicon word (suggestions as you type).
 */
export function readQuery(raw: string, opts: { typing?: boolean } = {}): ReadQuery {
  const text = normalizeText(raw);
  const words = wordsOf(text).slice(0, 8);
  const named: Named[] = [];
  const free: string[] = [];
  let i = 0;
  while (i < words.length) {
    let matched: { entry: Entry; len: number; how: Named['how'] } | undefined;
    for (let len = Math.min(INDEX.longest, words.length - i); len >= 1 && !matched; len--) {
      const phrase = words.slice(i, i + len).join(' ');
      const exact = lookupExact(phrase);
      if (exact) matched = { entry: exact, len, how: 'exact' };
    }
    if (!matched) {
      const word = words[i];
      const last = i === words.length - 1;
      const fuzzy = lookupFuzzy(word);
      if (fuzzy) matched = { entry: fuzzy.entry, len: 1, how: fuzzy.how };
      else if (last && opts.typing) {
        const prefix = lookupPrefix(word);
        if (prefix) matched = { entry: prefix, len: 1, how: 'prefix' };
      }
    }
    if (matched) {
      named.push({
        ...matched.entry.meaning,
        typed: words.slice(i, i + matched.len).join(' '),
        how: matched.how,
      });
      i += matched.len;
    } else {
      free.push(words[i]);
      i += 1;
    }
  }
  const concepts = named.filter((n) => !n.generic);
  const uniq = <T>(xs: (T | undefined)[]) => [...new Set(xs.filter((x): x is T => x !== undefined))];
  const categories = uniq(concepts.map((n) => n.category));
  // A piece's usual material (a kasu mala is mostly gold) never narrows a search: only a material typed does.
  const materials = uniq(concepts.filter((n) => !n.pieceWords).map((n) => n.material));
  return {
    text,
    words,
    named,
    categories,
    materials,
    purities: uniq(concepts.map((n) => n.purity)),
    free,
    rankWords: uniq([...words, ...concepts.flatMap((n) => n.pieceWords ?? [])]),
  };
}

/** Every single-word form of a category or material, for matching them in products' text. */
export function formsOf(meaning: { category?: ProductCategory; material?: ProductMaterial }): string[] {
  const words = meaning.category
    ? CATEGORY_WORDS[meaning.category]
    : meaning.material
      ? MATERIAL_WORDS[meaning.material]
      : undefined;
  if (!words) return [];
  const pieces = meaning.category ? PIECES.filter((p) => p.category === meaning.category) : [];
  const forms = [...allForms(words), ...pieces.flatMap((p) => allForms(p.words))].map((f) =>
    wordsOf(normalizeText(f)),
  );
  return [...new Set(forms.filter((f) => f.length === 1).map((f) => f[0]))].filter((f) => !/^\d+$/.test(f));
}

/**
 * The category a query that found nothing most likely meant: a category it names, else the one whose lexicon
 * words share the most trigrams with its words (null when none shares any).
 */
export function nearestCategory(read: ReadQuery): ProductCategory | null {
  if (read.categories.length) return read.categories[0];
  let best: { category: ProductCategory; sim: number } | null = null;
  for (const word of read.free) {
    for (const e of INDEX.singles) {
      const category = e.meaning.category;
      if (!category) continue;
      const sim = trigramSimilarity(soundKey(word), soundKey(e.words[0]));
      if (sim > 0.2 && (!best || sim > best.sim)) best = { category, sim };
    }
  }
  return best?.category ?? null;
}
