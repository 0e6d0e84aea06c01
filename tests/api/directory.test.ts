import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SellerListResponse, TopSellersResponse } from '../../api/contract/catalog';
import { CALL_LIMITS } from '../../api/contract/constants';
import { TOP_SELLER_MIN_RATINGS } from '../../api/src/features/catalog/directory';
import { buildProduct, buildSeller, type BuiltSeller } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';

let api: TestApi;
let visitor: ApiClient;
let anand: BuiltSeller;
let balaji: BuiltSeller;
let chettinad: BuiltSeller;
let newShop: BuiltSeller;

const list = (query = '') =>
  visitor.get<SellerListResponse & { error?: string }>(`/_api/sellers/list${query}`);
const sellerIds = (res: { body: { sellers: { sellerId: number }[] } }) =>
  res.body.sellers.map((s) => s.sellerId);

beforeAll(async () => {
  api = await startTestApi();
  visitor = api.client();
  const db = api.db.knex;
  anand = await buildSeller(db, {
    shopName: 'Anand Jewellers',
    displayName: 'Anand Kumar',
    city: 'Chennai',
    state: 'Tamil Nadu',
  });
  balaji = await buildSeller(db, {
    shopName: 'Balaji Gold',
    displayName: 'Sri Balaji Iyer',
    city: 'Madurai',
    state: 'Tamil Nadu',
  });
  chettinad = await buildSeller(db, {
    shopName: 'Chettinad Silver',
    displayName: 'Meena',
    city: 'Bengaluru',
    state: 'Karnataka',
    videoCallEnabled: false,
  });
  newShop = await buildSeller(db, {
    shopName: 'Dhanam New Shop',
    displayName: 'Dhanam Raj',
    city: 'Chennai',
    establishedDate: null,
  });
  await buildSeller(db, { shopName: 'Pending Pearls', isApproved: null, city: 'Chennai' });
  await buildSeller(db, { shopName: 'Refused Rubies', isApproved: false, city: 'Chennai' });
  await db('seller_profiles')
    .whereIn('user_id', [anand.id, balaji.id])
    .update({ rating_avg: 4.8, rating_count: 30 });
  await db('seller_profiles').where({ user_id: chettinad.id }).update({ rating_avg: 3.5, rating_count: 4 });
  for (let i = 0; i < 2; i++) await buildProduct(db, anand.id);
  for (let i = 0; i < 3; i++) await buildProduct(db, balaji.id);
  await buildProduct(db, balaji.id, { deletedAt: new Date() });
  await buildProduct(db, chettinad.id);
});
afterAll(async () => api?.close());

describe('GET /_api/sellers/list', () => {
  it('lists approved shops by rating, then product count, then name, with seller cards', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(sellerIds(res)).toEqual([balaji.id, anand.id, chettinad.id, newShop.id]);
    expect(res.body.pagination).toEqual({
      currentPage: 1,
      page: 1,
      limit: 10,
      totalSellers: 4,
      totalPages: 1,
    });
    const card = res.body.sellers[1];
    const years = Math.floor(
      (api.clock.now().getTime() - Date.parse('2001-06-01T00:00:00Z')) / (365.25 * 86_400_000),
    );
    expect(card).toEqual({
      sellerId: anand.id,
      shopName: 'Anand Jewellers',
      sellerName: 'Anand Kumar',
      city: 'Chennai',
      state: 'Tamil Nadu',
      productCount: 2,
      averageRating: 4.8,
      ratingCount: 30,
      yearsInBusiness: years,
      videoCallEnabled: true,
      urlSlug: anand.urlSlug,
      isOnline: false,
      // No app open and no push subscription: nothing would ring (issue #40).
      callState: { state: 'unreachable' },
      avatarInitials: 'AK',
    });
    expect(res.body.sellers[0].productCount).toBe(3); // the deleted product is not counted
    expect(res.body.sellers[2]).toMatchObject({ videoCallEnabled: false, avatarInitials: 'ME' });
    expect(res.body.sellers[3]).toMatchObject({
      yearsInBusiness: null,
      productCount: 0,
      avatarInitials: 'DR',
    });
  });

  it('filters by city and state, case-insensitively', async () => {
    expect(sellerIds(await list('?city=chennai'))).toEqual([anand.id, newShop.id]);
    expect(sellerIds(await list('?state=KARNATAKA'))).toEqual([chettinad.id]);
    expect(sellerIds(await list('?city=Chennai&state=Karnataka'))).toEqual([]);
  });

  it('searches shop name, seller name and city, including partial words and misspellings', async () => {
    expect(sellerIds(await list('?searchQuery=balaj'))).toEqual([balaji.id]);
    expect(sellerIds(await list('?searchQuery=iyer'))).toEqual([balaji.id]);
    expect(sellerIds(await list('?searchQuery=madurai'))).toEqual([balaji.id]);
    expect(sellerIds(await list('?searchQuery=chetinad'))).toEqual([chettinad.id]);
    expect(sellerIds(await list('?searchQuery=pending'))).toEqual([]);
    expect(sellerIds(await list(`?searchQuery=${encodeURIComponent('100%_')}`))).toEqual([]);
  });

  it("counts a search's matches on every page, with the other filters", async () => {
    // 'chennai' is the city of two approved shops (and of two that are not approved).
    const first = await list('?searchQuery=chennai&limit=1');
    expect(sellerIds(first)).toEqual([anand.id]);
    expect(first.body.pagination).toMatchObject({ totalSellers: 2, totalPages: 2 });
    const second = await list('?searchQuery=chennai&limit=1&page=2');
    expect(sellerIds(second)).toEqual([newShop.id]);
    expect(second.body.pagination).toMatchObject({ totalSellers: 2, totalPages: 2 });
    const past = await list('?searchQuery=chennai&limit=1&page=3');
    expect(past.body.sellers).toEqual([]);
    expect(past.body.pagination).toMatchObject({ totalSellers: 2, totalPages: 2 });
    const inState = await list('?searchQuery=chennai&state=Karnataka');
    expect(inState.body.sellers).toEqual([]);
    expect(inState.body.pagination).toMatchObject({ totalSellers: 0, totalPages: 0 });
  });

  it('pages with the directory limit rules (docs/product-rules.md §5)', async () => {
    const second = await list('?limit=3&page=2');
    expect(sellerIds(second)).toEqual([newShop.id]);
    expect(second.body.pagination).toEqual({
      currentPage: 2,
      page: 2,
      limit: 3,
      totalSellers: 4,
      totalPages: 2,
    });
    const past = await list('?limit=3&page=5');
    expect(past.body.sellers).toEqual([]);
    expect(past.body.pagination).toMatchObject({ totalSellers: 4, totalPages: 2 });
    expect((await list('?limit=100')).status).toBe(200);
    for (const q of ['?limit=0', '?limit=101', '?limit=abc']) {
      const res = await list(q);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Limit must be between 1 and 100.');
    }
    for (const q of ['?page=0', '?page=-1', '?page=x']) {
      const res = await list(q);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Page must be at least 1.');
    }
  });

  it('shows a seller online while their app polled within the window', async () => {
    const db = api.db.knex;
    await db('seller_presence').insert({ user_id: anand.id, last_polled_at: api.clock.now() });
    const online = (await list('?city=chennai')).body.sellers.find((s) => s.sellerId === anand.id);
    expect(online?.isOnline).toBe(true);
    api.clock.advance(CALL_LIMITS.onlineWindowMs + 1000);
    const offline = (await list('?city=chennai')).body.sellers.find((s) => s.sellerId === anand.id);
    expect(offline?.isOnline).toBe(false);
  });
});

describe('GET /_api/sellers/top', () => {
  it('answers the best rated approved shops that have products and enough ratings', async () => {
    const res = await visitor.get<TopSellersResponse>('/_api/sellers/top');
    expect(res.status).toBe(200);
    // Chettinad has 4 ratings, fewer than TOP_SELLER_MIN_RATINGS; the new shop has no products.
    expect(sellerIds(res)).toEqual([balaji.id, anand.id]);
    const one = await visitor.get<TopSellersResponse>('/_api/sellers/top?limit=1');
    expect(sellerIds(one)).toEqual([balaji.id]);
    const bad = await visitor.get('/_api/sellers/top?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Limit must be between 1 and 100.');
  });

  it('lists them in the order of the rating their cards show, equal ratings in a fixed order (§20.4)', async () => {
    const db = api.db.knex;
    const shop = async (shopName: string, rating: number, count: number) => {
      const s = await buildSeller(db, { shopName });
      await buildProduct(db, s.id);
      await db('seller_profiles')
        .where({ user_id: s.id })
        .update({ rating_avg: rating, rating_count: count });
      return s.id;
    };
    // By the Bayesian score the many-rated 4.6 shop would come before the 4.9 shop with six ratings.
    const few = await shop('Zeta Few Ratings', 4.9, 6);
    const many = await shop('Eta Many Ratings', 4.6, 900);
    const tieB = await shop('Beta Tie', 4.5, 50);
    const tieA = await shop('Alpha Tie', 4.5, 50);
    try {
      const top = (await visitor.get<TopSellersResponse>('/_api/sellers/top?limit=50')).body.sellers;
      const shown = top.map((s) => s.averageRating);
      expect(shown).toEqual([...shown].sort((a, b) => b - a));
      expect(top.every((s) => s.ratingCount >= TOP_SELLER_MIN_RATINGS)).toBe(true);
      const ours = top.map((s) => s.sellerId).filter((id) => [few, many, tieA, tieB].includes(id));
      // The tie: the same rating, count and pieces, then the name.
      expect(ours).toEqual([few, many, tieA, tieB]);
    } finally {
      await db('seller_profiles').whereIn('user_id', [few, many, tieA, tieB]).update({ is_approved: false });
    }
  });
});
