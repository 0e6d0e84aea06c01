import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_MESSAGES } from '../../api/src/features/push/service';
import { buildSeller, login } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

const keys = { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) };
let seq = 0;
const fcm = () => `https://fcm.googleapis.com/fcm/send/test-${Date.now()}-${++seq}`;
const subscribe = (client: ApiClient, endpoint: string) =>
  client.post('/_api/push/subscribe', { endpoint, expirationTime: null, keys });
const rowsOf = (userId: number) => api.db.knex('push_subscriptions').where({ user_id: userId }).select('*');

async function signedInSeller() {
  const seller = await buildSeller(api.db.knex);
  const client = api.client();
  await login(client, seller);
  return { seller, client };
}

describe('push endpoints only on known push services (PUSH_ENDPOINT_HOSTS)', () => {
  it('accepts the browsers’ push services and refuses any other host, port or scheme', async () => {
    const { client } = await signedInSeller();
    for (const endpoint of [
      fcm(),
      'https://updates.push.services.mozilla.com/wpush/v2/abc',
      'https://web.push.apple.com/QGx1',
      'https://wns2-pn1p.notify.windows.com/w/?token=abc',
    ]) {
      expect((await subscribe(client, endpoint)).status, endpoint).toBe(201);
    }
    for (const endpoint of [
      'https://evil.example.test/push',
      'https://127.0.0.1/push',
      'https://169.254.169.254/latest/meta-data',
      'https://fcm.googleapis.com.evil.test/x',
      'https://notify.windows.com/x',
      'https://fcm.googleapis.com:8443/fcm/send/x',
      'https://user:pw@fcm.googleapis.com/fcm/send/x',
    ]) {
      const res = await subscribe(client, endpoint);
      expect(res.status, endpoint).toBe(400);
      expect(res.body, endpoint).toEqual({
        error: PUSH_MESSAGES.hostNotAllowed,
        code: 'push_host_not_allowed',
      });
    }
  });

  it('takes its list from the environment', async () => {
    const local = await startTestApi({
      env: { PUSH_ENDPOINT_HOSTS: 'push.example.test, *.push.example.org' },
    });
    try {
      const seller = await buildSeller(local.db.knex);
      const client = local.client();
      await login(client, seller);
      expect((await subscribe(client, 'https://push.example.test/a')).status).toBe(201);
      expect((await subscribe(client, 'https://eu.push.example.org/a')).status).toBe(201);
      expect((await subscribe(client, fcm())).status).toBe(400);
    } finally {
      await local.close();
    }
  });
});

describe('a subscription belongs to its session', () => {
  it('is deleted on logout', async () => {
    const { seller, client } = await signedInSeller();
    expect((await subscribe(client, fcm())).status).toBe(201);
    expect(await rowsOf(seller.id)).toHaveLength(1);
    await client.post('/_api/auth/logout', {});
    expect(await rowsOf(seller.id)).toHaveLength(0);
  });

  it('is deleted, on every device, when the password changes', async () => {
    const { seller, client } = await signedInSeller();
    const phone = api.client();
    await login(phone, seller);
    await subscribe(client, fcm());
    await subscribe(phone, fcm());
    expect(await rowsOf(seller.id)).toHaveLength(2);
    const changed = await client.post('/_api/user/password/change', {
      currentPassword: seller.password,
      newPassword: 'Temple#Bells42',
      confirmNewPassword: 'Temple#Bells42',
    });
    expect(changed.status).toBe(200);
    expect(await rowsOf(seller.id)).toHaveLength(0);
  });
});

describe('an endpoint another user holds', () => {
  it('is refused, and its notifications stay with its owner', async () => {
    const a = await signedInSeller();
    const b = await signedInSeller();
    const endpoint = fcm();
    expect((await subscribe(a.client, endpoint)).status).toBe(201);
    const stolen = await subscribe(b.client, endpoint);
    expect(stolen.status).toBe(409);
    expect(stolen.body).toEqual({ error: PUSH_MESSAGES.endpointTaken, code: 'push_endpoint_taken' });
    expect((await rowsOf(a.seller.id)).map((r: { endpoint: string }) => r.endpoint)).toEqual([endpoint]);
    expect(await rowsOf(b.seller.id)).toHaveLength(0);

    // The owner subscribing again from a new session moves it to that session.
    const again = api.client();
    await login(again, a.seller);
    expect((await subscribe(again, endpoint)).status).toBe(201);
    await a.client.post('/_api/auth/logout', {});
    expect(await rowsOf(a.seller.id)).toHaveLength(1);
  });
});
