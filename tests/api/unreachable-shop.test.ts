import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductListResponse, StoreResponse } from '../../api/contract/catalog';
import { CALL_LIMITS } from '../../api/contract/constants';
import { SHOP_HOURS_MESSAGES, type ShopHoursResponse } from '../../api/contract/shop-hours';
import en from '../../locales/en.json';
import ta from '../../locales/ta.json';
import { buildProduct } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { LocalPushService } from '../support/push-receiver';
import { callParties, markAppOpen, type CallParties } from './calls-support';

/**
 * No dead ends (issue #40, item 9): a shop whose jeweller cannot be reached (no app open and no device that
 * takes push) is `unreachable`: every listing says so, and the server refuses to ring it instead of letting the
 * customer ring nobody for 30 s. The customer can still ask for a call-back and book an appointment.
 */
const keys = webpush.generateVAPIDKeys();
let pushService: LocalPushService;
let api: TestApi;
beforeAll(async () => {
  pushService = new LocalPushService();
  await pushService.start();
  api = await startTestApi({
    env: {
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      PUSH_ENDPOINT_HOSTS: new URL(pushService.origin).host,
    },
    pushAgent: pushService.agent,
  });
});
afterAll(async () => {
  await api?.close();
  await pushService?.stop();
});

const callsOf = async (sellerId: number) =>
  Number(
    ((await api.db.knex('calls').where('seller_id', sellerId).count({ n: '*' })) as { n: unknown }[])[0]!.n,
  );

async function states(p: CallParties, productId: number) {
  api.handle.deps.catalogCache.invalidate();
  const visitor = api.client();
  const store = await visitor.get<StoreResponse>(`/_api/seller/store/by-id?sellerId=${p.seller.id}`);
  const list = await visitor.get<ProductListResponse>(`/_api/products/list?sellerId=${p.seller.id}`);
  const product = await visitor.get<{ product: { callState: { state: string } } }>(
    `/_api/products/get?id=${productId}`,
  );
  const own = await p.asSeller.get<ShopHoursResponse>('/_api/seller/hours');
  return [
    store.body.sellerProfile.callState.state,
    list.body.products[0]!.callState!.state,
    product.body.product.callState.state,
    own.body.callState.state,
  ];
}

describe('a shop nobody can answer', () => {
  it('is unreachable everywhere and the API refuses to ring it, in words both languages have', async () => {
    const p = await callParties(api, {}, { appOpen: false });
    const product = await buildProduct(api.db.knex, p.seller.id);
    expect(await states(p, product.id)).toEqual(Array(4).fill('unreachable'));

    const res = await p.asCustomer.post('/_api/call/initiate', {
      sellerId: p.seller.id,
      productId: product.id,
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: SHOP_HOURS_MESSAGES.unreachable, code: 'seller_unreachable' });
    expect(await callsOf(p.seller.id)).toBe(0);
    // The app shows the server's message in the reader's language: both locales carry it.
    expect(en.messages.schedule.unreachable).toBe(SHOP_HOURS_MESSAGES.unreachable);
    expect(ta.messages.schedule.unreachable).toMatch(/[\u0B80-\u0BFF]/);

    // What the refusal promises is there: a call-back request and the shop's appointment slots.
    const callback = await p.asCustomer.post('/_api/callbacks/create', {
      sellerId: p.seller.id,
      productId: product.id,
      window: 'now',
    });
    expect(callback.status).toBe(201);
    const slots = await api
      .client()
      .get<{ slots: unknown[] }>(`/_api/appointments/slots?sellerId=${p.seller.id}`);
    expect(slots.status).toBe(200);
    expect(slots.body.slots.length).toBeGreaterThan(0);
  });

  it('rings once the app is open, and goes back to unreachable when the app has been gone past the window', async () => {
    const p = await callParties(api, {}, { appOpen: false });
    const product = await buildProduct(api.db.knex, p.seller.id);
    await markAppOpen(api, p.seller.id);
    expect(await states(p, product.id)).toEqual(Array(4).fill('available'));
    const rings = await p.asCustomer.post<{ callId: number }>('/_api/call/initiate', {
      sellerId: p.seller.id,
    });
    expect(rings.status).toBe(201);
    await p.asCustomer.post('/_api/call/end', { callId: rings.body.callId });

    api.clock.advance(CALL_LIMITS.onlineWindowMs + 1000);
    expect(await states(p, product.id)).toEqual(Array(4).fill('unreachable'));
    const refused = await p.asCustomer.post('/_api/call/initiate', { sellerId: p.seller.id });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'seller_unreachable' });
  });

  it('a seller whose device takes push is offline, not unreachable: the call rings that device', async () => {
    const p = await callParties(api, {}, { appOpen: false });
    const product = await buildProduct(api.db.knex, p.seller.id);
    const sub = pushService.subscriber();
    const subscribed = await p.asSeller.post('/_api/push/subscribe', {
      endpoint: sub.endpoint,
      keys: sub.keys,
    });
    expect(subscribed.status).toBe(201);
    expect(await states(p, product.id)).toEqual(Array(4).fill('offline'));

    const before = pushService.received.length;
    const rings = await p.asCustomer.post<{ callId: number }>('/_api/call/initiate', {
      sellerId: p.seller.id,
    });
    expect(rings.status).toBe(201);
    await pushService.waitFor(before + 1);
    expect(pushService.received.at(-1)!.payload).toMatchObject({
      type: 'incoming-call',
      callId: rings.body.callId,
    });
    await p.asCustomer.post('/_api/call/end', { callId: rings.body.callId });

    // Unsubscribed again, nothing would ring: refused.
    await p.asSeller.post('/_api/push/unsubscribe', { endpoint: sub.endpoint });
    const refused = await p.asCustomer.post('/_api/call/initiate', { sellerId: p.seller.id });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'seller_unreachable' });
  });
});
