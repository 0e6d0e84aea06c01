import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductListResponse, SearchSuggestions } from '../../api/contract/catalog';
import { seedDemoData } from '../../api/src/seeds/demo';
import { buildProduct } from '../factories';
import { RELEVANCE_SET, type RelevanceQuery } from '../fixtures/search-relevance';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';

let api: TestApi;
let visitor: ApiClient;
beforeAll(async () => {
  api = await startTestApi();
  visitor = api.client();
  await seedDemoData(api.db.knex);
}, 360_000);
afterAll(async () => api?.close());

const search = async (query: string, extra = '') => {
  const res = await visitor.get<ProductListResponse>(
    `/_api/products/list?query=${encodeURIComponent(query)}&limit=10${extra}`,
  );
  expect(res.status).toBe(200);
  return res.body;
};

const relevant = (x: RelevanceQuery, p: { category: string; material: string }) =>
  p.category === x.category && (!x.material || p.material === x.material);

describe('the search relevance set against the demo catalogue', () => {
  it('answers at least 95 % of its queries with at least 80 % relevant results in the first ten', async () => {
    expect(RELEVANCE_SET.length).toBeGreaterThanOrEqual(60);
    const stock = (await api.db
      .knex('products')
      .whereNull('deleted_at')
      .where('seller_approved', true)
      .select('category', 'material', 'stock_quantity')) as {
      category: string;
      material: string;
      stock_quantity: number;
    }[];
    const misses: string[] = [];
    const empty: string[] = [];
    for (const x of RELEVANCE_SET) {
      // Every query of the set asks for something the demo catalogue has: the set measures search, not stock.
      expect(
        stock.some((p) => relevant(x, p)),
        `the demo has no piece for "${x.query}"`,
      ).toBe(true);
      const { products } = await search(x.query);
      const share = products.length ? products.filter((p) => relevant(x, p)).length / products.length : 0;
      if (share < 0.8) {
        misses.push(
          `${x.query}: ${products.map((p) => `${p.category}/${p.material}`).join(', ') || 'nothing'}`,
        );
      }
      if (!products.length && stock.some((p) => relevant(x, p) && p.stock_quantity > 0)) empty.push(x.query);
    }
    expect(empty, 'queries whose piece is in stock that found nothing').toEqual([]);
    expect(misses.length / RELEVANCE_SET.length, misses.join('\n')).toBeLessThanOrEqual(0.05);
  });

  it('ranks the pieces a Tamil word names first: ஜிமிக்கி finds the jhumkas among the earrings', async () => {
    const { products } = await search('ஜிமிக்கி');
    expect(products.length).toBeGreaterThan(0);
    expect(products.every((p) => p.category === 'earrings')).toBe(true);
    const jhumkas = (await api.db
      .knex('products')
      .where('category', 'earrings')
      .whereRaw("name ilike '%jhumk%'")
      .whereNull('deleted_at')
      .where('seller_approved', true)
      .count('* as n')) as { n: unknown }[];
    if (Number(jhumkas[0].n) > 0) expect(products[0].name.toLowerCase()).toMatch(/jhumk/);
  });

  it("finds a seller's own Tamil words in names and descriptions", async () => {
    const [seller] = (await api.db.knex('seller_profiles').where('is_approved', true).select('user_id')) as {
      user_id: number;
    }[];
    const peacock = await buildProduct(api.db.knex, seller.user_id, {
      name: 'மயில் தோகை ஜிமிக்கி',
      description: 'கோயில் வேலைப்பாடு கொண்ட பாரம்பரிய டிசைன்',
      category: 'earrings',
      material: 'gold',
    });
    expect((await search('மயில்')).products.map((p) => p.id)).toEqual([peacock.id]);
    expect((await search('வேலைப்பாடு')).products.map((p) => p.id)).toEqual([peacock.id]);
    expect((await search('மயில் ஜிமிக்கி')).products[0]?.id).toBe(peacock.id);
    // The same words typed in another Unicode form (decomposed) are the same words.
    expect((await search('மயில்'.normalize('NFD'))).products.map((p) => p.id)).toEqual([peacock.id]);
  });

  it('never answers a blank page: a search that finds nothing offers its nearest category and pieces', async () => {
    const body = await search('platinum kolusu');
    expect(body.products).toEqual([]);
    expect(body.didYouMean?.category).toBe('anklets');
    expect(body.didYouMean?.products.length).toBeGreaterThan(0);
    expect(body.didYouMean?.products.every((p) => p.category === 'anklets')).toBe(true);
    const nothing = await search('xylophone');
    expect(nothing.products).toEqual([]);
    expect(nothing.didYouMean?.products.length).toBeGreaterThan(0);
  });
});

describe('suggestions in the customer’s words', () => {
  const suggest = async (query: string) =>
    (await visitor.get<SearchSuggestions>(`/_api/search/suggestions?query=${encodeURIComponent(query)}`))
      .body;

  it('offers the category and its pieces for a Tamil, romanised or Hindi word, and for its first letters', async () => {
    for (const [query, category] of [
      ['ஜிமிக்கி', 'earrings'],
      ['ஜிமி', 'earrings'],
      ['கொலுசு', 'anklets'],
      ['kolu', 'anklets'],
      ['sangili', 'chains'],
      ['metti', 'toe_rings'],
      ['dollar', 'pendants'],
      ['पायल', 'anklets'],
    ] as const) {
      const s = await suggest(query);
      expect(s.categories, query).toContain(category);
      expect(s.products.length, query).toBeGreaterThan(0);
      expect(
        s.products.every((p) => p.category === category),
        query,
      ).toBe(true);
    }
  });
});
