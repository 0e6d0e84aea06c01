/** Request mixes for the catalogue benchmark: visitors browsing list pages and people typing searches. */
import { PRODUCT_CATEGORIES, PRODUCT_MATERIALS } from '../../../api/contract/constants';

/** A small deterministic generator (mulberry32), so every run draws the same traffic. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Index 0..n-1 drawn with Zipf weights 1/(i+1): the first entries are asked for most. */
function zipf(n: number, r: () => number): number {
  const total = Array.from({ length: n }, (_, i) => 1 / (i + 1)).reduce((a, b) => a + b, 0);
  let x = r() * total;
  for (let i = 0; i < n; i++) {
    x -= 1 / (i + 1);
    if (x <= 0) return i;
  }
  return n - 1;
}

function weighted<T>(options: [T, number][], r: () => number): T {
  let x = r() * options.reduce((a, [, w]) => a + w, 0);
  for (const [v, w] of options) {
    x -= w;
    if (x <= 0) return v;
  }
  return options[options.length - 1][0];
}

const SEARCH_WORDS = [
  'gold',
  'necklace',
  'jhumka',
  'ring',
  'bangle',
  'silver',
  'chain',
  'pearl',
  'temple',
  'diamond',
  'earrings',
  'anklet',
  'kada',
  'mangalsutra',
  'pendant',
  'nose pin',
  'platinum',
  'ruby',
  'emerald',
  'bracelet',
];

/**
 * Visitors browsing the marketplace: many different pages, the common ones asked for most. Page 1 of the
 * default order, a category or two, now and then a material, a price band, a search, a later page. Every
 * combination the filters allow can come up (tens of thousands), so a share of requests always misses
 * the cache; the run reports that share.
 */
export function browsingMix(seed: number): () => string {
  const r = rng(seed);
  return () => {
    const params = new URLSearchParams();
    const page = weighted<number>(
      [
        [1, 60],
        [2, 20],
        [3, 10],
        [4 + Math.floor(r() * 7), 10],
      ],
      r,
    );
    params.set('page', String(page));
    params.set('limit', '20');
    if (r() < 0.15) params.set('query', SEARCH_WORDS[zipf(SEARCH_WORDS.length, r)]);
    if (r() < 0.65) params.set('category', PRODUCT_CATEGORIES[zipf(PRODUCT_CATEGORIES.length, r)]);
    if (r() < 0.3) params.set('material', PRODUCT_MATERIALS[zipf(PRODUCT_MATERIALS.length, r)]);
    if (r() < 0.15) {
      const [min, max] = [
        [0, 10_000],
        [10_000, 50_000],
        [50_000, 100_000],
        [100_000, 500_000],
      ][Math.floor(r() * 4)];
      if (min > 0) params.set('minPrice', String(min));
      if (max < 500_000) params.set('maxPrice', String(max));
    }
    const sort = weighted<string | null>(
      [
        [null, 55],
        ['popularity', 15],
        ['price-asc', 12],
        ['price-desc', 8],
        ['rating', 10],
      ],
      r,
    );
    if (sort) params.set('sortBy', sort);
    return `/_api/products/list?${params.toString()}`;
  };
}

/**
 * People typing in the search box: a word (the common ones most), sent as each prefix of 3+ letters the
 * debounce lets through, now and then with a typo or a second word.
 */
export function typingMix(seed: number): () => string {
  const r = rng(seed);
  const typo = (w: string) => {
    if (w.length < 5) return w;
    const i = 1 + Math.floor(r() * (w.length - 2));
    return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
  };
  return () => {
    let word = SEARCH_WORDS[zipf(SEARCH_WORDS.length, r)];
    if (r() < 0.15) word = typo(word);
    if (r() < 0.1) word = `${SEARCH_WORDS[zipf(SEARCH_WORDS.length, r)]} ${word}`;
    const len = 3 + Math.floor(r() * Math.max(1, word.length - 2));
    return `/_api/search/suggestions?query=${encodeURIComponent(word.slice(0, len).trimEnd())}`;
  };
}
