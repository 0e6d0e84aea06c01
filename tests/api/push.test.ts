import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushIncomingCall } from '../../api/src/features/push/service';
import { buildProduct, buildSeller, buildUser, login } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { testDbKind } from '../support/db';
import { LocalPushService } from '../support/push-receiver';

const configuredKeys = webpush.generateVAPIDKeys();

let pushService: LocalPushService;
beforeAll(async () => {
  pushService = new LocalPushService();
  await pushService.start();
});
afterAll(async () => pushService?.stop());
/** The local push double's host:port, allowed as a push service for these tests (PUSH_ENDPOINT_HOSTS). */
const pushHost = () => new URL(pushService.origin).host;

describe('push keys', () => {
  it('uses VAPID keys from the environment when set', async () => {
    const api = await startTestApi({
      env: {
        VAPID_PUBLIC_KEY: configuredKeys.publicKey,
        VAPID_PRIVATE_KEY: configuredKeys.privateKey,
        PUSH_ENDPOINT_HOSTS: pushHost(),
      },
    });
    try {
      const res = await api.client().get('/_api/push/public-key');
      expect(res.body).toEqual({ enabled: true, publicKey: configuredKeys.publicKey });
    } finally {
      await api.close();
    }
  });

  it('generates keys once on the embedded database and is off on PostgreSQL without configuration', async () => {
    const api = await startTestApi();
    try {
      const first = await api
        .client()
        .get<{ enabled: boolean; publicKey: string | null }>('/_api/push/public-key');
      const second = await api
        .client()
        .get<{ enabled: boolean; publicKey: string | null }>('/_api/push/public-key');
      if (testDbKind() === 'pglite') {
        expect(first.body.enabled).toBe(true);
        expect(first.body.publicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/);
        expect(second.body.publicKey).toBe(first.body.publicKey);
      } else {
        expect(first.body).toEqual({ enabled: false, publicKey: null });
      }
    } finally {
      await api.close();
    }
  });
});

describe('subscriptions and delivery', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({
      env: {
        VAPID_PUBLIC_KEY: configuredKeys.publicKey,
        VAPID_PRIVATE_KEY: configuredKeys.privateKey,
        VAPID_SUBJECT: 'mailto:ops@nagai.test',
        PUSH_ENDPOINT_HOSTS: pushHost(),
      },
      pushAgent: undefined,
    });
  });
  afterAll(async () => api?.close());

  it('refuses visitors and malformed subscriptions', async () => {
    const sub = pushService.subscriber();
    const visitor = await api
      .client()
      .post('/_api/push/subscribe', { endpoint: sub.endpoint, keys: sub.keys });
    expect(visitor.status).toBe(401);
    const seller = await buildSeller(api.db.knex);
    const c = api.client();
    await login(c, seller);
    const noKeys = await c.post('/_api/push/subscribe', { endpoint: sub.endpoint });
    expect(noKeys.status).toBe(400);
    expect(noKeys.body.error).toBe('Push subscription keys are required.');
    const badUrl = await c.post('/_api/push/subscribe', { endpoint: 'not a url', keys: sub.keys });
    expect(badUrl.body.error).toBe('A valid push endpoint URL is required.');
    const http = await c.post('/_api/push/subscribe', {
      endpoint: 'http://127.0.0.1/push/x',
      keys: sub.keys,
    });
    expect(http.body.error).toBe('Push endpoints must use https.');
  });

  it('delivers an encrypted, VAPID-signed incoming-call push that decrypts to the payload', async () => {
    const local = await startTestApi({
      db: undefined,
      env: {
        VAPID_PUBLIC_KEY: configuredKeys.publicKey,
        VAPID_PRIVATE_KEY: configuredKeys.privateKey,
        VAPID_SUBJECT: 'mailto:ops@nagai.test',
        PUSH_ENDPOINT_HOSTS: pushHost(),
      },
      pushAgent: pushService.agent,
    });
    try {
      const seller = await buildSeller(local.db.knex);
      const c = local.client();
      await login(c, seller);
      const sub = pushService.subscriber();
      const res = await c.post('/_api/push/subscribe', {
        endpoint: sub.endpoint,
        expirationTime: null,
        keys: sub.keys,
        locale: 'ta',
      });
      expect(res.status).toBe(201);
      const before = pushService.received.length;
      const outcome = await pushIncomingCall(local.handle.deps, {
        callId: 42,
        sellerId: seller.id,
        callerId: 1,
        callerName: 'Priya Raman',
        productName: 'Temple necklace',
      });
      expect(outcome).toEqual({ sent: 1, removed: 0, failed: 0 });
      await pushService.waitFor(before + 1);
      expect(pushService.errors).toEqual([]);
      const got = pushService.received.at(-1)!;
      expect(got.subscriptionId).toBe(sub.id);
      expect(got.payload).toEqual({
        type: 'incoming-call',
        callId: 42,
        callerName: 'Priya Raman',
        productName: 'Temple necklace',
        locale: 'ta',
      });
      expect(got.ttl).toBe(30);
      expect(got.urgency).toBe('high');
      expect(got.vapid).toMatchObject({
        aud: pushService.origin,
        sub: 'mailto:ops@nagai.test',
        publicKey: configuredKeys.publicKey,
      });
    } finally {
      await local.close();
    }
  });

  it('deletes a subscription the push service reports gone (410) and keeps one after other failures', async () => {
    const local = await startTestApi({
      env: {
        VAPID_PUBLIC_KEY: configuredKeys.publicKey,
        VAPID_PRIVATE_KEY: configuredKeys.privateKey,
        PUSH_ENDPOINT_HOSTS: pushHost(),
      },
      pushAgent: pushService.agent,
    });
    try {
      const seller = await buildSeller(local.db.knex);
      const c = local.client();
      await login(c, seller);
      const gone = pushService.subscriber();
      const flaky = pushService.subscriber();
      pushService.answer.set(gone.id, 410);
      pushService.answer.set(flaky.id, 500);
      await c.post('/_api/push/subscribe', { endpoint: gone.endpoint, keys: gone.keys });
      await c.post('/_api/push/subscribe', { endpoint: flaky.endpoint, keys: flaky.keys });
      const outcome = await pushIncomingCall(local.handle.deps, {
        callId: 7,
        sellerId: seller.id,
        callerId: 1,
        callerName: 'A',
      });
      expect(outcome).toEqual({ sent: 0, removed: 1, failed: 1 });
      const left = await local.db.knex('push_subscriptions').where({ user_id: seller.id }).pluck('endpoint');
      expect(left).toEqual([flaky.endpoint]);
    } finally {
      await local.close();
    }
  });

  it('unsubscribes only the caller’s own endpoint', async () => {
    const a = await buildUser(api.db.knex, { role: 'seller' });
    const b = await buildUser(api.db.knex, { role: 'seller' });
    const ca = api.client();
    const cb = api.client();
    await login(ca, a);
    await login(cb, b);
    const sub = pushService.subscriber();
    await ca.post('/_api/push/subscribe', { endpoint: sub.endpoint, keys: sub.keys });
    const wrong = await cb.post('/_api/push/unsubscribe', { endpoint: sub.endpoint });
    expect(wrong.body).toEqual({ success: true, removed: 0 });
    const right = await ca.post('/_api/push/unsubscribe', { endpoint: sub.endpoint });
    expect(right.body).toEqual({ success: true, removed: 1 });
  });
});

describe('push on initiate', () => {
  it('pushes the ring to the seller when a customer initiates a call, without delaying the answer', async () => {
    const local = await startTestApi({
      env: {
        VAPID_PUBLIC_KEY: configuredKeys.publicKey,
        VAPID_PRIVATE_KEY: configuredKeys.privateKey,
        PUSH_ENDPOINT_HOSTS: pushHost(),
      },
      pushAgent: pushService.agent,
    });
    try {
      const seller = await buildSeller(local.db.knex, { videoCallEnabled: true, isApproved: true });
      const customer = await buildUser(local.db.knex, { role: 'customer', displayName: 'Meena Sundaram' });
      const sc = local.client();
      const cc = local.client();
      await login(sc, seller);
      await login(cc, customer);
      const sub = pushService.subscriber();
      await sc.post('/_api/push/subscribe', { endpoint: sub.endpoint, keys: sub.keys });
      const before = pushService.received.length;
      const res = await cc.post<{ callId: number }>('/_api/call/initiate', { sellerId: seller.id });
      expect(res.status).toBe(201);
      await pushService.waitFor(before + 1);
      const got = pushService.received.at(-1)!;
      expect(got.subscriptionId).toBe(sub.id);
      expect(got.payload).toEqual({
        type: 'incoming-call',
        callId: res.body.callId,
        callerName: 'Meena Sundaram',
        locale: 'en',
      });

      // A call placed from a product names it, for the notification's "Calling about …".
      await cc.post('/_api/call/end', { callId: res.body.callId });
      const product = await buildProduct(local.db.knex, seller.id, { name: 'Temple necklace' });
      const about = await cc.post<{ callId: number }>('/_api/call/initiate', {
        sellerId: seller.id,
        productId: product.id,
      });
      expect(about.status).toBe(201);
      await pushService.waitFor(before + 2);
      expect(pushService.received.at(-1)!.payload).toEqual({
        type: 'incoming-call',
        callId: about.body.callId,
        callerName: 'Meena Sundaram',
        productName: 'Temple necklace',
        locale: 'en',
      });
    } finally {
      await local.close();
    }
  });
});
