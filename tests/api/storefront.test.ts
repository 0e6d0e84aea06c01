import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreResponse } from '../../api/contract/catalog';
import { buildProduct, buildSeller, type BuiltProduct, type BuiltSeller } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';

let api: TestApi;
let visitor: ApiClient;
let shop: BuiltSeller;
let noSlug: BuiltSeller;
let pending: BuiltSeller;
let refused: BuiltSeller;
const products: BuiltProduct[] = [];

const store = (query: string) =>
  visitor.get<StoreResponse & { error?: string; code?: string }>(`/_api/seller/store${query}`);

beforeAll(async () => {
  api = await startTestApi();
  visitor = api.client();
  const db = api.db.knex;
  shop = await buildSeller(db, {
    shopName: 'Mylapore Temple Jewels',
    urlSlug: 'Mylapore-Temple',
    displayName: 'Lakshmi Narayanan',
  });
  await db('seller_profiles')
    .where({ user_id: shop.id })
    .update({ gst_number: '33AABCL1234M1Z5', certifications: JSON.stringify(['BIS Hallmark']) });
  noSlug = await buildSeller(db, { shopName: 'No Slug Shop', urlSlug: null });
  pending = await buildSeller(db, { shopName: 'Pending Shop', urlSlug: 'pending-shop', isApproved: null });
  refused = await buildSeller(db, { shopName: 'Refused Shop', urlSlug: 'refused-shop', isApproved: false });
  for (let i = 0; i < 3; i++) {
    products.push(await buildProduct(db, shop.id, { createdAt: new Date(Date.now() - (i + 1) * 60_000) }));
  }
  await buildProduct(db, shop.id, { name: 'Removed piece', deletedAt: new Date() });
  await buildProduct(db, noSlug.id);
  await buildProduct(db, pending.id);
});
afterAll(async () => api?.close());

describe('GET /_api/seller/store', () => {
  it('answers the public profile and the newest products for a slug, case-insensitively', async () => {
    const res = await store('?slug=mylapore-temple');
    expect(res.status).toBe(200);
    expect(res.body.sellerProfile).toMatchObject({
      sellerId: shop.id,
      userId: shop.id,
      shopName: 'Mylapore Temple Jewels',
      urlSlug: 'Mylapore-Temple',
      city: 'Coimbatore',
      state: 'Tamil Nadu',
      pincode: '641001',
      shopAddress: '12 Big Bazaar Street, Town Hall',
      gstNumber: '33AABCL1234M1Z5',
      certifications: ['BIS Hallmark'],
      videoCallEnabled: true,
      establishedDate: '2001-06-01',
      isApproved: true,
      sellerName: 'Lakshmi Narayanan',
      isOnline: false,
      productCount: 3,
      avatarInitials: 'LN',
    });
    expect(res.body.sellerProfile.yearsInBusiness).toBeGreaterThanOrEqual(24);
    expect(res.body.productsData.products.map((p) => p.id)).toEqual(products.map((p) => p.id));
    expect(res.body.productsData.pagination).toEqual({
      currentPage: 1,
      limit: 10,
      totalProducts: 3,
      totalPages: 1,
    });
    expect((await store('?slug=MYLAPORE-TEMPLE')).status).toBe(200);
  });

  it('pages the store products', async () => {
    const res = await store('?slug=Mylapore-Temple&page=2&limit=2');
    expect(res.body.productsData.products.map((p) => p.id)).toEqual([products[2].id]);
    expect(res.body.productsData.pagination).toEqual({
      currentPage: 2,
      limit: 2,
      totalProducts: 3,
      totalPages: 2,
    });
    const bad = await store('?slug=Mylapore-Temple&page=0');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Page must be a positive integer.');
    expect((await store('?slug=Mylapore-Temple&limit=abc')).body.error).toBe(
      'Limit must be a positive integer.',
    );
  });

  it('needs a slug', async () => {
    for (const q of ['', '?slug=', '?slug=%20']) {
      const res = await store(q);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('URL slug is required.');
    }
  });

  it('answers Store Not Found for an unknown, pending or disapproved shop', async () => {
    for (const slug of ['no-such-shop', 'pending-shop', 'refused-shop', 'x'.repeat(300)]) {
      const res = await store(`?slug=${slug}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Store Not Found', code: 'store_not_found' });
    }
  });
});

describe('GET /_api/seller/store/by-id', () => {
  it('answers the same store for a shop without a slug', async () => {
    const res = await visitor.get<StoreResponse>(`/_api/seller/store/by-id?sellerId=${noSlug.id}`);
    expect(res.status).toBe(200);
    expect(res.body.sellerProfile).toMatchObject({ sellerId: noSlug.id, urlSlug: null, productCount: 1 });
    expect(res.body.productsData.pagination.totalProducts).toBe(1);
  });

  it('answers 404 for unapproved shops and 400 without a seller id', async () => {
    for (const id of [pending.id, refused.id, 999999]) {
      const res = await visitor.get(`/_api/seller/store/by-id?sellerId=${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Store Not Found', code: 'store_not_found' });
    }
    const missing = await visitor.get('/_api/seller/store/by-id');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('Seller ID is required.');
    expect((await visitor.get('/_api/seller/store/by-id?sellerId=abc')).body.error).toBe(
      'Seller ID must be a positive integer.',
    );
  });
});
