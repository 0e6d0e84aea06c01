import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductListResponse, SearchSuggestions } from '../../api/contract/catalog';
import { buildProduct, buildSeller, buildUser, login, type BuiltSeller } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { buy, newCustomer } from './checkout-support';

// The public catalogue served from memory (CATALOG_CACHE_TTL_MS, on in production, off in the other API tests).
let api: TestApi;
let visitor: ApiClient;
let shop: BuiltSeller;
let sellerClient: ApiClient;
let adminClient: ApiClient;

const list = (query: string, client = visitor) =>
  client.get<ProductListResponse>(`/_api/products/list${query}`);
const names = (res: { body: ProductListResponse }) => res.body.products.map((p) => p.name);

beforeAll(async () => {
  api = await startTestApi({ config: { catalogCache: { ttlMs: 60_000, maxBytes: 8 * 1024 * 1024 } } });
  visitor = api.client();
  shop = await buildSeller(api.db.knex, { shopName: 'Cached Gold House' });
  for (let i = 0; i < 3; i++) {
    await buildProduct(api.db.knex, shop.id, { name: `Cached kada ${i}`, category: 'bangles' });
  }
  sellerClient = api.client();
  await login(sellerClient, shop);
  const admin = await buildUser(api.db.knex, { role: 'admin' });
  adminClient = api.client();
  await login(adminClient, admin);
});
afterAll(() => api?.close());

describe('catalogue answers served from memory', () => {
  it('answers a repeated list from memory, whatever the order of the query parameters', async () => {
    const first = await list(`?sellerId=${shop.id}&category=bangles&limit=20`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('miss');
    expect(names(first)).toHaveLength(3);
    const second = await list(`?limit=20&category=bangles&sellerId=${shop.id}`);
    expect(second.headers.get('x-cache')).toBe('hit');
    expect(second.body).toEqual(first.body);
    // A change made behind the server's back (another process) is not seen while the answer is fresh…
    await api.db.knex('products').where({ seller_id: shop.id }).update({ name: 'Renamed elsewhere' });
    expect(names(await list(`?sellerId=${shop.id}&category=bangles&limit=20`))).not.toContain(
      'Renamed elsewhere',
    );
  });

  it('forgets every answer when a product is changed through this server', async () => {
    const q = `?sellerId=${shop.id}&sortBy=newest`;
    const before = await list(q);
    const target = before.body.products[0];
    expect((await list(q)).headers.get('x-cache')).toBe('hit');
    const upd = await sellerClient.post('/_api/products/update', {
      id: target.id,
      name: 'Freshly renamed kada',
    });
    expect(upd.status).toBe(200);
    const after = await list(q);
    expect(after.headers.get('x-cache')).toBe('miss');
    expect(names(after)).toContain('Freshly renamed kada');
  });

  it('hides a shop at once when an admin disapproves it', async () => {
    const other = await buildSeller(api.db.knex, { shopName: 'Soon Hidden Jewels' });
    await buildProduct(api.db.knex, other.id, { name: 'Soon hidden necklace' });
    expect(names(await list(`?sellerId=${other.id}`))).toEqual(['Soon hidden necklace']);
    const sugg = await visitor.get<SearchSuggestions>('/_api/search/suggestions?query=soon%20hidden');
    expect(sugg.body.sellers.map((s) => s.shopName)).toContain('Soon Hidden Jewels');
    const res = await adminClient.post('/_api/admin/seller/approve', {
      sellerUserId: other.id,
      isApproved: false,
    });
    expect(res.status).toBe(200);
    expect(names(await list(`?sellerId=${other.id}`))).toEqual([]);
    const after = await visitor.get<SearchSuggestions>('/_api/search/suggestions?query=soon%20hidden');
    expect(after.body.sellers.map((s) => s.shopName)).not.toContain('Soon Hidden Jewels');
    expect((await visitor.get(`/_api/seller/store/by-id?sellerId=${other.id}`)).status).toBe(404);
  });

  it('a sale drops only the answers showing the products sold, so their stock is current', async () => {
    const sold = await buildProduct(api.db.knex, shop.id, {
      name: 'Stocked toe ring',
      category: 'toe_rings',
      stockQuantity: 5,
    });
    const other = await buildSeller(api.db.knex, { shopName: 'Untouched Jewels' });
    await buildProduct(api.db.knex, other.id, { name: 'Untouched anklet', category: 'anklets' });
    const soldList = `?category=toe_rings&sellerId=${shop.id}`;
    const otherList = `?sellerId=${other.id}`;
    await list(soldList);
    await list(otherList);
    const store = `/_api/seller/store/by-id?sellerId=${shop.id}`;
    await visitor.get(store);
    expect((await list(soldList)).headers.get('x-cache')).toBe('hit');

    expect((await visitor.get(`/_api/products/get?id=${sold.id}`)).body).toMatchObject({
      product: { stockQuantity: 5 },
    });
    expect((await visitor.get(`/_api/products/get?id=${sold.id}`)).headers.get('x-cache')).toBe('hit');
    const { client } = await newCustomer(api);
    await buy(client, [{ productId: sold.id, quantity: 2 }]);

    const after = await list(soldList);
    expect(after.headers.get('x-cache')).toBe('miss');
    expect(after.body.products.find((p) => p.id === sold.id)?.stockQuantity).toBe(3);
    expect((await visitor.get(store)).headers.get('x-cache')).toBe('miss');
    const detail = await visitor.get<{ product: { stockQuantity: number } }>(
      `/_api/products/get?id=${sold.id}`,
    );
    expect(detail.body.product.stockQuantity).toBe(3);
    // A list that does not show the product is still served from memory.
    expect((await list(otherList)).headers.get('x-cache')).toBe('hit');
  });

  it('never caches a seller’s own view of a shop awaiting approval, nor shares it with visitors', async () => {
    const waiting = await buildSeller(api.db.knex, { shopName: 'Waiting Jewels', isApproved: null });
    const ring = await buildProduct(api.db.knex, waiting.id, { name: 'Waiting ring' });
    const own = api.client();
    await login(own, waiting);
    for (let i = 0; i < 2; i++) {
      expect((await own.get(`/_api/products/get?id=${ring.id}`)).status).toBe(200);
      expect((await visitor.get(`/_api/products/get?id=${ring.id}`)).status).toBe(404);
    }
    for (let i = 0; i < 2; i++) {
      const mine = await list(`?sellerId=${waiting.id}`, own);
      expect(names(mine)).toEqual(['Waiting ring']);
      expect(mine.headers.get('x-cache')).toBeNull();
    }
    expect(names(await list(`?sellerId=${waiting.id}`))).toEqual([]);
    expect(names(await list(`?sellerId=${waiting.id}`, own))).toEqual(['Waiting ring']);
  });

  it('sends the stored answer compressed as the client accepts, and the same JSON either way', async () => {
    const path = `/_api/products/list?sellerId=${shop.id}&limit=5`;
    const plain = await fetch(api.url + path, { headers: { 'Accept-Encoding': 'identity' } });
    const br = await fetch(api.url + path, { headers: { 'Accept-Encoding': 'br' } });
    const gz = await fetch(api.url + path, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(br.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await plain.json();
    expect(await br.json()).toEqual(body);
    expect(await gz.json()).toEqual(body);
  });

  it('does not cache refusals: a bad query is a 400 every time, a missing store a 404', async () => {
    for (let i = 0; i < 2; i++) {
      const bad = await list('?page=0');
      expect(bad.status).toBe(400);
      expect(bad.headers.get('x-cache')).toBeNull();
      const missing = await visitor.get('/_api/seller/store?slug=no-such-shop-anywhere');
      expect(missing.status).toBe(404);
    }
  });
});
