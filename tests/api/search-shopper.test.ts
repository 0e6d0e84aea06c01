import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductListResponse, SearchSuggestions, SellerListResponse } from '../../api/contract/catalog';
import { buildProduct, buildSeller, type BuiltSeller } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';

/** What a shopper reads when a search names a shop, a kind the catalogue lacks, or a price (§20.2). */
let api: TestApi;
let visitor: ApiClient;
let lakshmi: BuiltSeller;
let meenakshi: BuiltSeller;
let other: BuiltSeller;
const ids: Record<string, number> = {};

beforeAll(async () => {
  api = await startTestApi();
  visitor = api.client();
  const db = api.db.knex;
  lakshmi = await buildSeller(db, { shopName: 'Lakshmi Jewellers', city: 'Chennai', state: 'Tamil Nadu' });
  meenakshi = await buildSeller(db, {
    shopName: 'Sri Meenakshi Thanga Maaligai',
    city: 'Madurai',
    state: 'Tamil Nadu',
  });
  other = await buildSeller(db, { shopName: 'Kovai Nagai Maaligai', city: 'Coimbatore' });
  const p = async (key: string, seller: BuiltSeller, o: Parameters<typeof buildProduct>[2]) => {
    ids[key] = (await buildProduct(db, seller.id, o)).id;
  };
  // The other shop's pendant says "Lakshmi" and "jewellers": the old search showed only it.
  await p('otherPendant', other, {
    name: 'Lakshmi pendant',
    description: 'Goddess Lakshmi, by the jewellers of Kovai.',
    category: 'pendants',
    price: '42000.00',
  });
  await p('lakshmiChain', lakshmi, { name: 'Rope chain', category: 'chains', price: '28000.00' });
  await p('lakshmiBigChain', lakshmi, { name: 'Heavy chain', category: 'chains', price: '95000.00' });
  await p('lakshmiRing', lakshmi, { name: 'Plain band', category: 'rings', price: '9000.00' });
  await p('meenakshiChain', meenakshi, { name: 'Box chain', category: 'chains', price: '18000.00' });
  await p('silverAnklet', meenakshi, {
    name: 'Silver anklet',
    category: 'anklets',
    material: 'silver',
    price: '4200.00',
  });
  await p('dearAnklet', meenakshi, {
    name: 'Silver anklet heavy',
    category: 'anklets',
    material: 'silver',
    price: '7800.00',
  });
  await p('bangle', other, { name: 'Antique bangle', category: 'bangles', price: '85000.00' });
  await p('bigBangle', other, { name: 'Bridal bangle', category: 'bangles', price: '140000.00' });
});
afterAll(async () => api?.close());

const search = async (query: string, extra = '') => {
  const res = await visitor.get<ProductListResponse>(
    `/_api/products/list?query=${encodeURIComponent(query)}&limit=50${extra}`,
  );
  expect(res.status).toBe(200);
  return res.body;
};
const idsOf = (b: ProductListResponse) => b.products.map((x) => x.id).sort((a, b) => a - b);
const sorted = (...keys: string[]) => keys.map((k) => ids[k]).sort((a, b) => a - b);

describe('a search that names a shop', () => {
  it('"lakshmi jewellers" leads with the shop and shows its pieces, not another shop\'s pendant', async () => {
    const body = await search('lakshmi jewellers');
    expect(body.shops?.map((s) => s.sellerId)).toEqual([lakshmi.id]);
    expect(body.shopPieces).toEqual([lakshmi.id]);
    expect(idsOf(body)).toEqual(sorted('lakshmiChain', 'lakshmiBigChain', 'lakshmiRing'));
  });

  it('a shop and a kind: "lakshmi jewellers chains" is the shop\'s chains', async () => {
    expect(idsOf(await search('lakshmi jewellers chains'))).toEqual(
      sorted('lakshmiChain', 'lakshmiBigChain'),
    );
    // A name without "Sri" is the whole name.
    const mk = await search('meenakshi thanga maaligai');
    expect(mk.shops?.[0]?.sellerId).toBe(meenakshi.id);
    expect(idsOf(mk)).toEqual(sorted('meenakshiChain', 'silverAnklet', 'dearAnklet'));
  });

  it('finds the shop written in Tamil script', async () => {
    for (const q of ['லட்சுமி', 'லக்ஷ்மி', 'லட்சுமி ஜுவல்லர்ஸ்', 'Lakshmi']) {
      const body = await search(q);
      expect(
        body.shops?.map((s) => s.sellerId),
        q,
      ).toContain(lakshmi.id);
      expect(body.shops?.[0]?.sellerId, q).toBe(lakshmi.id);
    }
  });

  it('finds the shop written by ear in English letters, which the trigram indexes miss', async () => {
    for (const q of ['latchumi', 'latchumi jewellers']) {
      const body = await search(q);
      expect(body.shops?.[0]?.sellerId, q).toBe(lakshmi.id);
    }
    // Named whole by ear, the pieces are the shop's.
    expect(idsOf(await search('latchumi jewellers'))).toEqual(
      sorted('lakshmiChain', 'lakshmiBigChain', 'lakshmiRing'),
    );
  });

  it('the search box suggests the shop for its name in Tamil script', async () => {
    const res = await visitor.get<SearchSuggestions>(
      `/_api/search/suggestions?query=${encodeURIComponent('லட்சுமி')}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.sellers.map((s) => s.sellerId)).toEqual([lakshmi.id]);
  });

  it('a word that only part-names a shop shows the shop first but keeps the pieces that say it', async () => {
    const body = await search('lakshmi pendant');
    expect(body.shops?.[0]?.sellerId).toBe(lakshmi.id);
    expect(body.shopPieces).toBeUndefined();
    expect(idsOf(body)).toEqual(sorted('otherPendant'));
  });

  it('a search naming no shop has no shops block', async () => {
    const body = await search('chain');
    expect(body.shops).toBeUndefined();
  });
});

describe('the shop directory in Tamil and Tanglish', () => {
  const directory = async (q: string) =>
    (await visitor.get<SellerListResponse>(`/_api/sellers/list?searchQuery=${encodeURIComponent(q)}`)).body
      .sellers;
  it.each([
    ['லட்சுமி', 'lakshmi'],
    ['latchumi', 'lakshmi'],
    ['சென்னை', 'lakshmi'],
    ['chenai', 'lakshmi'],
    ['மதுரை', 'meenakshi'],
    ['மீனாட்சி', 'meenakshi'],
    ['Lakshmi', 'lakshmi'],
  ])('%s finds the shop', async (q, who) => {
    const want = who === 'lakshmi' ? lakshmi.id : meenakshi.id;
    expect((await directory(q)).map((s) => s.sellerId)).toEqual([want]);
  });

  it('a Tamil word naming no shop finds none', async () => {
    expect(await directory('திருநெல்வேலி')).toEqual([]);
  });
});

describe('a kind the catalogue has none of', () => {
  it('"mangalsutra" says there are none and shows chains, the nearest kind', async () => {
    for (const q of ['mangalsutra', 'தாலி', 'thali']) {
      const body = await search(q);
      expect(body.missingKind, q).toEqual({ piece: 'mangalsutra', category: 'chains' });
      expect(body.products.length, q).toBeGreaterThan(0);
      expect(body.products.every((x) => x.category === 'chains')).toBe(true);
    }
  });

  it('says nothing of the kind once a piece of it is listed', async () => {
    const seller = await buildSeller(api.db.knex, { shopName: 'Thali Kadai' });
    const thali = await buildProduct(api.db.knex, seller.id, { name: 'Mangalsutra', category: 'chains' });
    try {
      const body = await search('mangalsutra chain');
      expect(body.missingKind).toBeUndefined();
      expect(body.products[0]?.id).toBe(thali.id);
    } finally {
      await api.db.knex('products').where({ id: thali.id }).update({ deleted_at: new Date() });
    }
  });

  it('a kind that is there ("chain") has no notice', async () => {
    expect((await search('chain')).missingKind).toBeUndefined();
  });
});

describe('a search that names a price', () => {
  it.each([
    ['chain under 30k', ['lakshmiChain', 'meenakshiChain'], { maxPaise: 3_000_000, rest: 'chain' }],
    ['silver anklet below 5000', ['silverAnklet'], { maxPaise: 500_000, rest: 'silver anklet' }],
    ['bangles under 1 lakh', ['bangle'], { maxPaise: 10_000_000, rest: 'bangles' }],
    ['bangles above 1 lakh', ['bigBangle'], { minPaise: 10_000_000, rest: 'bangles' }],
    ['chain over 50k', ['lakshmiBigChain'], { minPaise: 5_000_000, rest: 'chain' }],
    ['chains between 10k and 20k', ['meenakshiChain'], { minPaise: 1_000_000, maxPaise: 2_000_000 }],
    ['சங்கிலி 30 ஆயிரத்துக்குள்', ['lakshmiChain', 'meenakshiChain'], { maxPaise: 3_000_000 }],
    ['kolusu 5000 kulla', ['silverAnklet'], { maxPaise: 500_000, rest: 'kolusu' }],
  ])('%s filters by it and says so', async (q, want, filter) => {
    const body = await search(q);
    expect(idsOf(body), q).toEqual(sorted(...want));
    expect(body.priceFilter).toMatchObject(filter);
  });

  it('a price alone lists every piece within it', async () => {
    const body = await search('under 5000');
    expect(idsOf(body)).toEqual(sorted('silverAnklet'));
    expect(body.priceFilter).toMatchObject({ maxPaise: 500_000, rest: '' });
  });

  it("keeps the reader's own price filter too (both bounds hold)", async () => {
    const body = await search('chain under 30k', '&minPrice=20000');
    expect(idsOf(body)).toEqual(sorted('lakshmiChain'));
  });
});
