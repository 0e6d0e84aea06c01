import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_MESSAGES } from '../../api/contract/calls';
import { CATALOG_MESSAGES } from '../../api/contract/catalog';
import { PRODUCT_MESSAGES } from '../../api/contract/products';
import { loadConfig } from '../../api/src/config';
import { buildSeller } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { callParties, signIn } from './calls-support';

/**
 * Every abuse limit is set by an environment variable (README's configuration table); these run with small
 * values to show each one bites where it should and nowhere else.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({
    env: {
      TRUST_PROXY: 'true',
      SEARCH_LIMIT_PER_IP_PER_MINUTE: '3',
      CALL_INITIATE_LIMIT_PER_USER_PER_MINUTE: '2',
      UPLOAD_LIMIT_PER_USER_PER_HOUR: '2',
    },
  });
});
afterAll(async () => api?.close());

const from = (address: string) => ({ 'X-Forwarded-For': address });

describe('defaults fit carrier NAT', () => {
  it('keys by account where that is what is protected, and per address only loosely', () => {
    const { limits } = loadConfig({ NODE_ENV: 'test' });
    expect(limits.registrationPerIpPerHour).toBeGreaterThanOrEqual(500);
    expect(limits.loginFailuresPerIpPerHour).toBeGreaterThanOrEqual(1000);
    expect(limits.searchPerIpPerMinute).toBeGreaterThanOrEqual(600);
    expect(() => loadConfig({ REGISTRATION_LIMIT_PER_IP_PER_HOUR: '0' })).toThrow(
      /REGISTRATION_LIMIT_PER_IP_PER_HOUR/,
    );
  });
});

describe('SEARCH_LIMIT_PER_IP_PER_MINUTE', () => {
  it('bounds searches per address; browsing without a search text is not counted', async () => {
    const c = api.client();
    const paths = [
      '/_api/products/list?query=ring',
      '/_api/search/suggestions?query=ri',
      '/_api/sellers/list?searchQuery=lak',
    ];
    for (const path of paths) expect((await c.get(path, from('198.51.100.20'))).status, path).toBe(200);
    const refused = await c.get('/_api/products/list?query=chain', from('198.51.100.20'));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: CATALOG_MESSAGES.tooManySearches, code: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await c.get('/_api/products/list?page=1', from('198.51.100.20'))).status).toBe(200);
    expect((await c.get('/_api/products/list?query=chain', from('198.51.100.21'))).status).toBe(200);
    api.clock.advance(61_000);
    expect((await c.get('/_api/products/list?query=chain', from('198.51.100.20'))).status).toBe(200);
  });
});

describe('CALL_INITIATE_LIMIT_PER_USER_PER_MINUTE', () => {
  it('bounds calls placed per customer, not per address', async () => {
    const p = await callParties(api);
    for (let i = 0; i < 2; i++) {
      const res = await p.asCustomer.post<{ callId: number }>('/_api/call/initiate', {
        sellerId: p.seller.id,
      });
      expect(res.status, `call ${i + 1}`).toBe(201);
      await p.asCustomer.post('/_api/call/end', { callId: res.body.callId });
    }
    const refused = await p.asCustomer.post('/_api/call/initiate', { sellerId: p.seller.id });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: CALL_MESSAGES.tooManyCalls });
    // Another customer on the same network is not affected.
    const other = await callParties(api);
    expect((await other.asCustomer.post('/_api/call/initiate', { sellerId: other.seller.id })).status).toBe(
      201,
    );
  });
});

describe('UPLOAD_LIMIT_PER_USER_PER_HOUR', () => {
  it('counts each image a seller uploads and refuses beyond the bound, storing nothing', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#d4af37' } })
      .png()
      .toBuffer();
    const uri = (n: number) =>
      `data:image/png;base64,${Buffer.concat([png, Buffer.from([n])]).toString('base64')}`;
    const seller = await buildSeller(api.db.knex);
    const client = await signIn(api, seller);
    const product = (images: string[]) => ({
      name: 'Temple Lakshmi Necklace',
      description: 'Antique finish temple necklace with ruby stones.',
      price: '125000.50',
      category: 'necklaces',
      material: 'gold',
      images,
    });
    expect((await client.post('/_api/products/create', product([uri(1), uri(2)]))).status).toBe(201);
    const media = await api.db.knex('media').count({ n: '*' });
    const refused = await client.post('/_api/products/create', product([uri(3)]));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: PRODUCT_MESSAGES.tooManyUploads, code: 'too_many_uploads' });
    expect(await api.db.knex('media').count({ n: '*' })).toEqual(media);
    // Another seller is not affected.
    const other = await signIn(api, await buildSeller(api.db.knex));
    expect((await other.post('/_api/products/create', product([uri(4)]))).status).toBe(201);
    // A try-on image counts like a product image (#36): the bound's second upload passes, the third is refused.
    const stud = await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80"><circle cx="40" cy="40" r="20" fill="#d4a017"/></svg>',
      ),
    )
      .png()
      .toBuffer();
    const tryOnImage = {
      image: `data:image/png;base64,${stud.toString('base64')}`,
      anchorX: 0.5,
      anchorY: 0.5,
    };
    const before = await api.db.knex('media').count({ n: '*' });
    const over = await other.post('/_api/products/create', { ...product([uri(5)]), tryOnImage });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: PRODUCT_MESSAGES.tooManyUploads, code: 'too_many_uploads' });
    expect(await api.db.knex('media').count({ n: '*' })).toEqual(before);
  });
});

describe('old counters', () => {
  it('are swept once their window is long over, but never while a wait is running', async () => {
    const now = api.clock.now();
    const old = new Date(now.getTime() - 26 * 3_600_000);
    await api.db.knex('rate_limits').insert([
      { key: 'sweep:old', count: 3, window_start: old },
      { key: 'sweep:waiting', count: 9, window_start: old, locked_until: new Date(now.getTime() + 600_000) },
      { key: 'sweep:fresh', count: 1, window_start: now },
    ]);
    await api.handle.background.runNow('rate-limits:sweep');
    const left = await api.db.knex('rate_limits').where('key', 'like', 'sweep:%').orderBy('key').pluck('key');
    expect(left).toEqual(['sweep:fresh', 'sweep:waiting']);
  });
});
