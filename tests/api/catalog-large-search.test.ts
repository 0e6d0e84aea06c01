import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductListResponse, SearchSuggestions } from '../../api/contract/catalog';
import { COUNT_EXACT_CAP } from '../../api/src/features/catalog/service';
import { buildProduct, buildSeller } from '../factories';
import { startTestApi, type TestApi } from '../support/api';

// A search matching more products than are counted exactly per request (COUNT_EXACT_CAP): counted in full,
// ordered by popularity unless a sort is asked for, paged by walking the sort order.
const MATCHES = COUNT_EXACT_CAP + 150;
let api: TestApi;
let hiddenIds: number[] = [];

beforeAll(async () => {
  api = await startTestApi();
  const shop = await buildSeller(api.db.knex, { shopName: 'Zircon Palace' });
  // The most popular zircon pieces of all, never to be suggested: a shop awaiting approval, a deleted piece.
  const pending = await buildSeller(api.db.knex, { shopName: 'Zircon Hidden House', isApproved: null });
  hiddenIds = [
    (await buildProduct(api.db.knex, pending.id, { name: 'Zircon stud pending', unitsSold: 10_000 })).id,
    (
      await buildProduct(api.db.knex, shop.id, {
        name: 'Zircon stud gone',
        unitsSold: 9_000,
        deletedAt: new Date(),
      })
    ).id,
  ];
  const rows = Array.from({ length: MATCHES }, (_, i) => ({
    seller_id: shop.id,
    name: `Zircon stud ${i}`,
    description: 'A bright zircon set in silver.',
    price: String(1000 + ((i * 37) % 5000)),
    category: 'earrings',
    material: 'silver',
    stock_quantity: 5,
    gst_amount: '30.00',
    units_sold: i % 500,
  }));
  for (let i = 0; i < rows.length; i += 500) await api.db.knex('products').insert(rows.slice(i, i + 500));
});
afterAll(() => api?.close());

const list = (query: string) => api.client().get<ProductListResponse>(`/_api/products/list${query}`);

describe('a search matching thousands', () => {
  it('counts every match, orders by popularity by default and by the asked sort, and pages to the end', async () => {
    const first = await list('?query=zircon&limit=20');
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({
      currentPage: 1,
      limit: 20,
      totalProducts: MATCHES,
      totalPages: Math.ceil(MATCHES / 20),
    });
    const sold = first.body.products.map((p) => p.unitsSold);
    expect(sold).toEqual([...sold].sort((a, b) => b - a));
    expect(sold[0]).toBe(499);

    const cheap = await list('?query=zircon&limit=20&sortBy=price-asc');
    const prices = cheap.body.products.map((p) => Number(p.price));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(prices[0]).toBe(1000);

    const lastPage = Math.ceil(MATCHES / 20);
    const last = await list(`?query=zircon&limit=20&page=${lastPage}`);
    expect(last.body.products).toHaveLength(MATCHES - (lastPage - 1) * 20);
    const past = await list(`?query=zircon&limit=20&page=${lastPage + 1}`);
    expect(past.body.products).toEqual([]);
    expect(past.body.pagination.totalProducts).toBe(MATCHES);
  });

  it('still corrects a misspelt word that matches nothing', async () => {
    const res = await list('?query=zirconn&limit=5');
    expect(res.body.pagination.totalProducts).toBe(MATCHES);
  });
});

describe('suggestions for a word thousands of products match', () => {
  const suggest = (q: string) =>
    api.client().get<SearchSuggestions>(`/_api/search/suggestions?query=${encodeURIComponent(q)}`);
  const unitsSold = async (ids: number[]) =>
    (await api.db.knex('products').whereIn('id', ids).pluck('units_sold')) as number[];

  it('offers the most popular public matches and the shops whose names hold the word', async () => {
    const res = await suggest('zirc');
    expect(res.status).toBe(200);
    const ids = res.body.products.map((p) => p.id);
    expect(ids).toHaveLength(5);
    for (const id of hiddenIds) expect(ids).not.toContain(id);
    // The best sellers of the 2,150 matches (units sold 0-499), not the first rows the index happens to hold.
    for (const sold of await unitsSold(ids)) expect(sold).toBeGreaterThanOrEqual(497);
    expect(res.body.sellers.map((s) => s.shopName)).toEqual(['Zircon Palace']);
    expect(res.body.categories).toEqual([]);
  });

  it('corrects a misspelt common word, then offers its popular matches', async () => {
    const res = await suggest('zirocn');
    const ids = res.body.products.map((p) => p.id);
    expect(ids).toHaveLength(5);
    for (const sold of await unitsSold(ids)) expect(sold).toBeGreaterThanOrEqual(497);
  });
});
