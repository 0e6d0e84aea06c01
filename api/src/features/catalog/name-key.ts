import { editDistance, normalizeText, wordsOf } from './query-reading';

/**
 * Names as they sound, in either script (docs/product-rules.md §20.2): shop names, cities and sellers' names
 * are written in English letters ("Lakshmi Jewellers", "Chennai"), and customers type them in Tamil script
 * ("லட்சுமி", "சென்னை") or by ear ("latchumi", "chenai"). A word's key is its romanisation with the letters
 * Tamil does not tell apart merged (k/g, t/d, p/b, s/ch/j/sh, l/zh, r/rr, long and short vowels) and doubled
 * letters single, so "லட்சுமி", "latchumi" and "Lakshmi" key alike or within an edit.
 */

const VOWELS: Record<string, string> = {
  அ: 'a',
  ஆ: 'a',
  இ: 'i',
  ஈ: 'i',
  உ: 'u',
  ஊ: 'u',
  எ: 'e',
  ஏ: 'e',
  ஐ: 'ai',
  ஒ: 'o',
  ஓ: 'o',
  ஔ: 'au',
};
const SIGNS: Record<string, string> = {
  'ா': 'a',
  'ி': 'i',
  'ீ': 'i',
  'ு': 'u',
  'ூ': 'u',
  'ெ': 'e',
  'ே': 'e',
  'ை': 'ai',
  'ொ': 'o',
  'ோ': 'o',
  'ௌ': 'au',
  '்': '',
};
const CONSONANTS: Record<string, string> = {
  க: 'k',
  ங: 'n',
  ச: 's',
  ஞ: 'n',
  ட: 't',
  ண: 'n',
  த: 't',
  ந: 'n',
  ப: 'p',
  ம: 'm',
  ய: 'y',
  ர: 'r',
  ல: 'l',
  வ: 'v',
  ழ: 'l',
  ள: 'l',
  ற: 'r',
  ன: 'n',
  ஜ: 's',
  ஷ: 's',
  ஸ: 's',
  ஹ: 'h',
};

/** A Tamil-script word in English letters, each consonant with its vowel ("சென்னை" → "sennai"). */
export function romaniseTamil(word: string): string {
  const cps = [...word];
  let out = '';
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    if (VOWELS[c] !== undefined) out += VOWELS[c];
    else if (CONSONANTS[c] !== undefined) {
      const sign = cps[i + 1];
      if (sign !== undefined && SIGNS[sign] !== undefined) {
        out += CONSONANTS[c] + SIGNS[sign];
        i++;
      } else out += `${CONSONANTS[c]}a`;
    } else if (/[a-z0-9]/.test(c)) out += c;
  }
  return out;
}

const TAMIL = /[\u0b80-\u0bff]/;

/** A word's key (see above); a Tamil word is romanised first. */
export function nameKey(word: string): string {
  const latin = TAMIL.test(word) ? romaniseTamil(word) : word.toLowerCase().replace(/[^a-z0-9]/g, '');
  return latin
    .replace(/ksh|x/g, 'ts')
    .replace(/tch/g, 'ts')
    .replace(/ks/g, 'ts')
    .replace(/sh|ch|zh/g, (m) => (m === 'zh' ? 'l' : 's'))
    .replace(/([kgtdpb])h/g, '$1')
    .replace(/j/g, 's')
    .replace(/g/g, 'k')
    .replace(/d/g, 't')
    .replace(/b/g, 'p')
    .replace(/c/g, 'k')
    .replace(/w/g, 'v')
    .replace(/ee|ii/g, 'i')
    .replace(/oo|uu/g, 'u')
    .replace(/aa/g, 'a')
    .replace(/(.)\1+/g, '$1')
    .replace(/(?<=.)h/g, '');
}

/** Edits allowed between two keys: none below four letters, one from four, two from eight. */
const allowed = (key: string) => (key.length >= 8 ? 2 : key.length >= 4 ? 1 : 0);

/** "Jewellers" as shop names write it and as it is typed in Tamil script (ஜுவல்லர்ஸ்): one word. */
const TRADE = new Set(
  ['jewellers', 'jeweller', 'jewellery', 'jewelry', 'jewels', 'ஜுவல்லர்ஸ்', 'ஜூவல்லர்ஸ்', 'ஜுவல்லரி', 'ஜூவல்லரி'].map(
    (w) => nameKey(w),
  ),
);

/** Whether a typed word names a word of a name: the same key, or within the edits its length allows. */
export function keysMatch(typed: string, named: string): boolean {
  if (typed === named || (TRADE.has(typed) && TRADE.has(named))) return true;
  const edits = allowed(typed);
  if (!edits || Math.abs(typed.length - named.length) > edits) return false;
  return editDistance(typed, named) <= edits;
}

/** The keys of a text's words. */
export const keysOf = (text: string): string[] =>
  wordsOf(normalizeText(text))
    .map(nameKey)
    .filter((k) => k.length > 0);

/** Words a shop's name may leave out when it is typed ("Sri", "The"). */
const OPTIONAL = new Set(['sri', 'sre', 'siri', 'tiru', 'the', 'and', 'of', 'en', 'mr', 'new'].map(nameKey));

/** How the typed keys meet a name: which typed keys name a word of it, and whether every word of it is named. */
export function matchName(typed: string[], words: string[]): { matched: Set<number>; whole: boolean } {
  const matched = new Set<number>();
  let whole = words.length > 0;
  for (const w of words) {
    let hit = false;
    typed.forEach((t, i) => {
      if (keysMatch(t, w)) {
        matched.add(i);
        hit = true;
      }
    });
    if (!hit && !OPTIONAL.has(w)) whole = false;
  }
  return { matched, whole };
}

/** Whether a text is in (or has) Tamil script. */
export const hasTamil = (text: string) => TAMIL.test(text);
