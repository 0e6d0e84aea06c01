import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../api/src/config';
import { startMetricsServer } from '../../api/src/http/metrics';
import { buildProduct, buildSeller } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { EventStreamReader } from '../support/sse';
import { activeCall, callParties, placeCall } from './calls-support';
import { checkoutBody, newCustomer, payOnline, postCheckout } from './checkout-support';

/**
 * The Prometheus endpoint (docs/operations.md "Metrics and alerts"): never public by default, the token's
 * protection, and the names and labels an operator's alerts are written against, each moved by the real
 * thing it counts.
 */

const TOKEN = 'metrics-token-for-the-test-0123';
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ env: { METRICS_TOKEN: TOKEN } });
});
afterAll(async () => api?.close());

const scrape = async () => {
  const res = await fetch(`${api.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
};

/** The value of one sample (`name{labels} value`), or undefined when the text has none with those labels. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('the metrics endpoint is protected', () => {
  it('does not exist without a token configured (404), as in the default configuration', async () => {
    const plain = await startTestApi();
    try {
      const res = await fetch(`${plain.url}/metrics`, { headers: { Authorization: 'Bearer anything' } });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('nagai_');
    } finally {
      await plain.close();
    }
  });

  it('answers 401 without the token or with a wrong one, and the text format with it', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { Authorization: 'Bearer wrong-token-wrong-token' },
      { Authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const res = await fetch(`${api.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await res.text()).not.toContain('nagai_');
    }
    const ok = await fetch(`${api.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a token shorter than 16 characters', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });

  it('the separate listener serves /metrics and nothing else', async () => {
    const server = await startMetricsServer(0, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('# TYPE nagai_http_request_duration_seconds histogram');
      expect((await fetch(`${base}/_api/products/list`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      server.close();
    }
  });
});

// The registry is the process's (prom-client's default, as a server has one): API test files share a worker's
// process, so every count below is taken as a change from the count before the test acted.
describe('what the metrics count', () => {
  it('times requests by route descriptor, method and status class', async () => {
    const before = await scrape();
    const count = (text: string, labels: Record<string, string>) =>
      sample(text, 'nagai_http_request_duration_seconds_count', labels) ?? 0;
    const client = api.client();
    expect((await client.get('/_api/products/list?page=1&pageSize=5')).status).toBe(200);
    expect((await client.get('/_api/orders/customer')).status).toBe(401);
    expect((await client.get('/_api/no-such-thing')).status).toBe(404);
    const text = await scrape();
    const list = { route: '/_api/products/list', method: 'GET', status: '2xx' };
    expect(sample(text, 'nagai_http_request_duration_seconds_count', list)).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'nagai_http_request_duration_seconds_bucket', { ...list, le: '+Inf' })).toBe(
      sample(text, 'nagai_http_request_duration_seconds_count', list),
    );
    const orders = { route: '/_api/orders/customer', method: 'GET', status: '4xx' };
    expect(count(text, orders) - count(before, orders)).toBe(1);
    // A path outside the table is one label, not one per path asked for.
    const unmatched = { route: 'unmatched', method: 'GET', status: '4xx' };
    expect(count(text, unmatched) - count(before, unmatched)).toBe(1);
    expect(text).not.toContain('no-such-thing');
  });

  it('counts open event streams and the delay of a ring delivered through one', async () => {
    const openBefore = sample(await scrape(), 'nagai_event_streams_open') ?? 0;
    const p = await callParties(api);
    const stream = await EventStreamReader.open(p.asSeller);
    try {
      await stream.waitFor((e) => e.event === 'hello');
      expect(sample(await scrape(), 'nagai_event_streams_open')).toBe(openBefore + 1);
      const before = sample(await scrape(), 'nagai_ring_delivery_seconds_count') ?? 0;
      const callId = await placeCall(p);
      await stream.waitFor((e) => e.event === 'incoming');
      const text = await scrape();
      expect(sample(text, 'nagai_ring_delivery_seconds_count')).toBe(before + 1);
      expect(sample(text, 'nagai_ring_delivery_seconds_bucket', { le: '1' })).toBe(before + 1);
      await p.asSeller.post('/_api/call/respond', { callId, response: 'decline' });
    } finally {
      stream.close();
    }
    await stream.waitForEnd(2000);
    await expect.poll(async () => sample(await scrape(), 'nagai_event_streams_open')).toBe(openBefore);
  });

  it('counts calls by end reason and connected calls by media path', async () => {
    const start = await scrape();
    const declinedBefore = sample(start, 'nagai_calls_ended_total', { reason: 'declined' }) ?? 0;
    const hangupBefore = sample(start, 'nagai_calls_ended_total', { reason: 'hangup' }) ?? 0;
    const relayedBefore = sample(start, 'nagai_call_media_paths_total', { path: 'relayed' }) ?? 0;
    const directBefore = sample(start, 'nagai_call_media_paths_total', { path: 'direct' }) ?? 0;
    const p = await callParties(api);
    const declined = await placeCall(p);
    expect(
      (await p.asSeller.post('/_api/call/respond', { callId: declined, response: 'decline' })).status,
    ).toBe(200);
    const callId = await activeCall(p);
    const report = {
      callId,
      connected: true,
      setupMs: 900,
      rttMs: 40,
      lossPercent: 0,
      bitrateKbps: 800,
      freezes: 0,
      reconnects: 0,
    };
    expect((await p.asCustomer.post('/_api/call/quality', { ...report, route: 'relay' })).status).toBe(204);
    // Repeated, the same side's report is not counted again.
    expect((await p.asCustomer.post('/_api/call/quality', { ...report, route: 'relay' })).status).toBe(204);
    expect((await p.asSeller.post('/_api/call/quality', { ...report, route: 'srflx' })).status).toBe(204);
    expect((await p.asCustomer.post('/_api/call/end', { callId })).status).toBe(200);
    const text = await scrape();
    expect(sample(text, 'nagai_calls_ended_total', { reason: 'declined' })).toBe(declinedBefore + 1);
    expect(sample(text, 'nagai_calls_ended_total', { reason: 'hangup' })).toBe(hangupBefore + 1);
    expect(sample(text, 'nagai_call_media_paths_total', { path: 'relayed' })).toBe(relayedBefore + 1);
    expect(sample(text, 'nagai_call_media_paths_total', { path: 'direct' })).toBe(directBefore + 1);
  });

  it('counts payment outcomes (paid, failed)', async () => {
    const start = await scrape();
    const outcome = (text: string, o: string) =>
      sample(text, 'nagai_payment_outcomes_total', { outcome: o }) ?? 0;
    const shop = await buildSeller(api.db.knex);
    const product = await buildProduct(api.db.knex, shop.id, { price: '500.00', stockQuantity: 10 });
    const pay = async (outcome: 'success' | 'failure') => {
      const c = await newCustomer(api);
      expect((await c.client.post('/_api/cart/add', { productId: product.id, quantity: 1 })).status).toBe(
        200,
      );
      const res = await postCheckout(c.client, checkoutBody({ paymentMethod: 'upi' }));
      expect(res.status).toBe(201);
      await payOnline(api, c.client, res.body.payment!, outcome);
    };
    await pay('success');
    await pay('failure');
    // The failure is reported by the double's webhook, which arrives on its own.
    await expect.poll(async () => outcome(await scrape(), 'failed') - outcome(start, 'failed')).toBe(1);
    expect(outcome(await scrape(), 'paid') - outcome(start, 'paid')).toBe(1);
  });

  it('has the job-queue lag and the database pool gauges', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE nagai_job_queue_lag_seconds gauge');
    expect(text).toContain('# TYPE nagai_db_pool_wait_seconds histogram');
    expect(sample(text, 'nagai_db_pool_wait_seconds_count')).toBeGreaterThan(0);
    expect(sample(text, 'nagai_db_pool_connections', { state: 'pending' })).toBe(0);
    expect(text).toContain('nagai_process_resident_memory_bytes');
  });
});
