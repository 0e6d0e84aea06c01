import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES as M, type User } from '../../api/contract/accounts';
import { hasHiddenCharacters } from '../../api/contract/constants';
import { buildSeller, buildUser } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { signIn } from './calls-support';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

type Body = { user: User; error?: string; code?: string };
const update = (client: ReturnType<TestApi['client']>, body: Record<string, unknown>) =>
  client.post<Body>('/_api/user/profile/update', body);

describe('changing the email', () => {
  it('needs the current password; a stolen session alone cannot move the account', async () => {
    const user = await buildUser(api.db.knex);
    const client = await signIn(api, user);
    const fresh = `moved-${Date.now()}@example.test`;
    const none = await update(client, { email: fresh });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ error: M.emailChangeNeedsPassword });
    const wrong = await update(client, { email: fresh, currentPassword: 'Wrong#Guess1' });
    expect(wrong.body).toEqual({ error: M.currentPasswordWrong, code: 'current_password_incorrect' });
    expect((await api.db.knex('users').where({ id: user.id }).first('email')).email).toBe(user.email);
    // Other fields need no password.
    expect((await update(client, { displayName: 'Still me' })).status).toBe(200);
    const ok = await update(client, { email: fresh, currentPassword: user.password });
    expect(ok.status).toBe(200);
    expect(ok.body.user.email).toBe(fresh);
  });

  it('never tells which emails are registered: a taken email gets the same answer as an unusable one, no 409', async () => {
    const other = await buildUser(api.db.knex);
    const user = await buildUser(api.db.knex);
    const client = await signIn(api, user);
    const taken = await update(client, { email: other.email, currentPassword: user.password });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ error: M.emailUnavailable, code: 'email_unavailable' });
    // Probing costs password checks: wrong guesses are bounded per user.
    for (let i = 0; i < api.config.limits.passwordChangeAttemptsPerUser; i++) {
      await update(client, { email: `p${i}@example.test`, currentPassword: 'Wrong#Guess1' });
    }
    expect((await update(client, { email: other.email, currentPassword: user.password })).status).toBe(429);
  });
});

describe('avatarUrl', () => {
  it('accepts only our own stored media; any other address is refused', async () => {
    const user = await buildUser(api.db.knex);
    const client = await signIn(api, user);
    await api.db.knex('media').insert({
      key: 'avatar-profile-test.webp',
      content_type: 'image/webp',
      width: 1,
      height: 1,
      byte_size: 1,
      data: Buffer.from([0]),
    });
    for (const avatarUrl of [
      'https://tracker.example.test/pixel.png',
      'http://127.0.0.1:9/x.png',
      '//evil.example.test/media/x.webp',
      '/media/../_api/auth/logout',
      '/media/missing.webp',
      // Seven characters, then a stored key: only the path check refuses it.
      'http://avatar-profile-test.webp',
      'https://nagai.test/media/avatar-profile-test.webp',
    ]) {
      const res = await update(client, { avatarUrl });
      expect(res.status, avatarUrl).toBe(400);
      expect(res.body, avatarUrl).toMatchObject({ error: M.invalidAvatarUrl });
    }
    const ok = await update(client, { avatarUrl: '/media/avatar-profile-test.webp' });
    expect(ok.status).toBe(200);
    expect(ok.body.user.avatarUrl).toBe('/media/avatar-profile-test.webp');
  });
});

describe('names with hidden or direction-changing characters', () => {
  const hostile = [
    'Lakshmi\u202Eslewej',
    'Lak\u200Bshmi',
    'Lak\u200Dshmi',
    '\u2067Admin\u2069',
    'Pri\uFEFFya',
    'Ra\u00ADvi',
    '\u200CRavi',
    // Control characters (#34): line breaks that forge log or notification lines, BEL, terminal escapes, C1.
    'Ravi\rKumar',
    'Ravi\nAdmin: approved',
    'Ravi\u0007',
    'Ravi\u001b[31mKumar',
    'Ravi\tKumar',
    'Ravi\u0085Kumar',
    'Ravi\u007FKumar',
  ];

  it('are refused for display names, full names, shop names and order names', async () => {
    const customer = await signIn(api, await buildUser(api.db.knex));
    const seller = await signIn(api, await buildSeller(api.db.knex));
    for (const name of hostile) {
      const reg = await api.client().post<Body>('/_api/auth/register_with_password', {
        email: `h-${Math.random()}@example.test`,
        password: 'longenough',
        displayName: name,
      });
      expect(reg.status, JSON.stringify(name)).toBe(400);
      expect(reg.body.error).toBe(M.nameHiddenCharacters);
      const full = await api.client().post<Body>('/_api/auth/register_with_password', {
        email: `h-${Math.random()}@example.test`,
        password: 'longenough',
        displayName: 'Ravi',
        fullName: name,
      });
      expect(full.body.error).toBe(M.nameHiddenCharacters);
      expect((await update(customer, { displayName: name })).body.error).toBe(M.nameHiddenCharacters);
      const shop = await seller.post<Body>('/_api/seller/profile/update', { shopName: name });
      expect(shop.body.error, JSON.stringify(name)).toBe(M.nameHiddenCharacters);
      const order = await customer.post<Body>(
        '/_api/checkout/create',
        {
          customerName: name,
          customerPhone: '9876543210',
          shippingAddress: '12 Temple Street',
          city: 'Madurai',
          state: 'Tamil Nadu',
          pinCode: '625001',
        },
        { 'Idempotency-Key': `k-${Math.random()}` },
      );
      expect(order.body.error).toBe(M.nameHiddenCharacters);
    }
  });

  it('keep the joiners Indic scripts need, and ordinary Tamil, Hindi and Latin names', async () => {
    for (const name of ['லக்ஷ்மி ஜுவல்லர்ஸ்', 'क्‍ष', 'ന്‍', 'Kavya Iyer', "D'Souza & Sons"]) {
      expect(hasHiddenCharacters(name), name).toBe(false);
    }
    const client = await signIn(api, await buildUser(api.db.knex));
    const res = await update(client, { displayName: 'மீனா सुन्‍दर' });
    expect(res.status).toBe(200);
  });
});
