import { describe, expect, it } from 'vitest';
import { PRODUCT_CATEGORIES, PRODUCT_MATERIALS } from '../../api/contract/constants';
import {
  CATEGORY_WORDS,
  GENERIC_WORDS,
  MATERIAL_WORDS,
  PIECES,
  PURITY_WORDS,
  type LexiconWords,
} from '../../api/src/features/catalog/lexicon';
import {
  graphemeCount,
  normalizeText,
  readQuery,
  soundKey,
  wordsOf,
} from '../../api/src/features/catalog/query-reading';

const TAMIL = /[\u0b80-\u0bff]/;
const all = (w: LexiconWords) => [...w.en, ...w.ta, ...w.taLatn, ...w.hi, ...w.hiLatn];

describe('the jewellery lexicon', () => {
  it('has Tamil script and romanised Tamil words for every category and material', () => {
    for (const c of PRODUCT_CATEGORIES) {
      expect(CATEGORY_WORDS[c].ta.filter((x) => TAMIL.test(x)).length, c).toBeGreaterThan(0);
      expect(CATEGORY_WORDS[c].taLatn.length, c).toBeGreaterThan(0);
      expect(CATEGORY_WORDS[c].en.length, c).toBeGreaterThan(0);
    }
    for (const m of PRODUCT_MATERIALS) {
      expect(MATERIAL_WORDS[m].ta.filter((x) => TAMIL.test(x)).length, m).toBeGreaterThan(0);
      expect(MATERIAL_WORDS[m].en.length, m).toBeGreaterThan(0);
    }
  });

  it('writes its words in lower case and Unicode NFC', () => {
    const words = [
      ...Object.values(CATEGORY_WORDS).flatMap(all),
      ...Object.values(MATERIAL_WORDS).flatMap(all),
      ...Object.values(PURITY_WORDS).flatMap(all),
      ...PIECES.flatMap((p) => all(p.words)),
      ...all(GENERIC_WORDS),
    ];
    for (const word of words) expect(normalizeText(word), word).toBe(word);
  });

  it('never gives one word two meanings', () => {
    const meaning = new Map<string, string>();
    const claim = (forms: string[], what: string) => {
      for (const f of forms) {
        const key = wordsOf(normalizeText(f)).join(' ');
        const before = meaning.get(key);
        expect(before === undefined || before === what, `"${f}" is ${before} and ${what}`).toBe(true);
        meaning.set(key, what);
      }
    };
    for (const c of PRODUCT_CATEGORIES) claim(all(CATEGORY_WORDS[c]), `category ${c}`);
    for (const m of PRODUCT_MATERIALS) claim(all(MATERIAL_WORDS[m]), `material ${m}`);
    for (const [p, w] of Object.entries(PURITY_WORDS)) claim(all(w), `purity ${p}`);
    for (const p of PIECES) claim(all(p.words), `category ${p.category}`);
    claim(all(GENERIC_WORDS), 'generic');
  });
});

describe('reading a query', () => {
  it('keeps Tamil words whole (vowel signs, virama) and reads them in NFC', () => {
    expect(wordsOf(normalizeText('தங்க ஜிமிக்கி!'))).toEqual(['தங்க', 'ஜிமிக்கி']);
    expect(normalizeText('ஜிமிக்கி'.normalize('NFD'))).toBe('ஜிமிக்கி');
    expect(normalizeText('ஜிமி\u200dக்கி')).toBe('ஜிமிக்கி');
    expect(graphemeCount('ஜிமிக்கி')).toBe(4);
  });

  it('reads everyday, Tamil and Hindi words as the category, material and purity they name', () => {
    const read = (q: string) => {
      const r = readQuery(q);
      return { categories: r.categories, materials: r.materials, purities: r.purities, free: r.free };
    };
    expect(read('dollar')).toMatchObject({ categories: ['pendants'], free: [] });
    expect(read('sangili')).toMatchObject({ categories: ['chains'] });
    expect(read('thodu').categories).toEqual(['earrings']);
    expect(read('kolusu').categories).toEqual(['anklets']);
    expect(read('metti').categories).toEqual(['toe_rings']);
    for (const q of ['ottiyanam', 'oddiyanam', 'vaddanam', 'kamarband', 'ஒட்டியாணம்']) {
      expect(read(q).categories, q).toEqual(['waist_chains']);
    }
    expect(read('தங்க வளையல்')).toMatchObject({ categories: ['bangles'], materials: ['gold'] });
    expect(read('22k gold chain')).toMatchObject({
      categories: ['chains'],
      materials: ['gold'],
      purities: ['22K'],
    });
    expect(read('gold plated jhumka')).toMatchObject({ categories: ['earrings'], materials: ['artificial'] });
    expect(read('lakshmi dollar')).toMatchObject({ categories: ['pendants'], free: ['lakshmi'] });
    expect(read('gold jewellery')).toMatchObject({ materials: ['gold'], free: [] });
  });

  it('recognises words spelt by ear, in Latin and Tamil script', () => {
    expect(soundKey('jhimmikki')).toBe(soundKey('jimiki'));
    for (const q of ['jimmiki', 'jimikky', 'jumka', 'earings', 'ஜிமிக்கீ']) {
      expect(readQuery(q).categories, q).toEqual(['earrings']);
    }
    expect(readQuery('neckless').categories).toEqual(['necklaces']);
    expect(readQuery('valayl').categories).toEqual(['bangles']);
    expect(readQuery('mukkuthi').categories).toEqual(['nose_pins']);
    // A word unlike any of the lexicon's stays the customer's own.
    expect(readQuery('lakshmi').free).toEqual(['lakshmi']);
  });

  it('reads the first letters of a word while typing', () => {
    expect(readQuery('ஜிமி', { typing: true }).categories).toEqual(['earrings']);
    expect(readQuery('kolu', { typing: true }).categories).toEqual(['anklets']);
    expect(readQuery('ஜிமி').categories).toEqual([]);
  });
});

describe('pieces the search may say it has none of (§20.2)', () => {
  it('names every piece of the lexicon in both locales, under distinct ids', async () => {
    const en = (await import('../../locales/en.json')).default as {
      shopperSearch: { pieces: Record<string, string> };
    };
    const ta = (await import('../../locales/ta.json')).default as {
      shopperSearch: { pieces: Record<string, string> };
    };
    expect(new Set(PIECES.map((p) => p.id)).size).toBe(PIECES.length);
    for (const p of PIECES) {
      expect(en.shopperSearch.pieces[p.id], p.id).toBeTruthy();
      expect(ta.shopperSearch.pieces[p.id], p.id).toMatch(TAMIL);
    }
  });
});
