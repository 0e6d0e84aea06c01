import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES as M, type User } from '../../api/contract/accounts';
import { SESSION_COOKIE } from '../../api/src/http/session';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { DEFAULT_PASSWORD, buildSeller, buildUser, login } from '../factories';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());
// Every client here shares 127.0.0.1; the limits themselves are proven in accounts-lockout.test.ts.
beforeEach(async () => {
  await api.db.knex('rate_limits').delete();
});

type UserBody = { user: User };
type ErrorBody = { error: string; code: string };

let seq = 0;
const email = (tag = 'user') => `${tag}-${Date.now().toString(36)}-${seq++}@example.test`;
const STRONG = 'Kolam#Rangoli9';

async function register(client: ApiClient, body: Record<string, unknown>) {
  return client.post<UserBody & ErrorBody>('/_api/auth/register_with_password', body);
}

async function expectValidation(
  client: ApiClient,
  path: string,
  body: Record<string, unknown>,
  message: unknown,
) {
  const res = await client.post<ErrorBody>(path, body);
  expect({ status: res.status, error: res.body.error, code: res.body.code }).toEqual({
    status: 400,
    error: message,
    code: 'validation_failed',
  });
}

describe('GET /_api/auth/session', () => {
  it('answers 200 with user null for a visitor', async () => {
    const res = await api.client().get('/_api/auth/session');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: null });
  });

  it('answers 200 with user null for an unknown cookie instead of 401', async () => {
    const client = api.client();
    client.cookies.set(SESSION_COOKIE, 'no-such-session');
    const res = await client.get('/_api/auth/session');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: null });
  });
});

describe('POST /_api/auth/register_with_password', () => {
  it('creates a customer by default, answers 201 with the user and signs them in', async () => {
    const client = api.client();
    const address = email('Meena');
    const res = await register(client, {
      email: `  ${address.toUpperCase()} `,
      password: 'longenough',
      displayName: 'Meena 💎 & Co.',
      fullName: 'Meena Sundaram',
    });
    expect(res.status).toBe(201);
    expect(res.body.user).toEqual({
      id: expect.any(Number),
      email: address.toLowerCase(),
      displayName: 'Meena 💎 & Co.',
      fullName: 'Meena Sundaram',
      role: 'customer',
      avatarUrl: null,
      phone: null,
      address: null,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      failedLogins: null,
      sellerProfile: null,
    });
    expect(client.cookies.get(SESSION_COOKIE)).toBeTruthy();

    const session = await client.get<UserBody>('/_api/auth/session');
    expect(session.body.user).toEqual(res.body.user);

    const row = await api.db.knex('users').where({ id: res.body.user.id }).first('password_hash');
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });

  it('allows the seller role', async () => {
    const res = await register(api.client(), {
      email: email('shop'),
      password: 'longenough',
      displayName: 'Kaveri Gold',
      role: 'seller',
    });
    expect(res.status).toBe(201);
    expect(res.body.user.role).toBe('seller');
  });

  it('refuses the admin role when the server has no ADMIN_SIGNUP_CODE, and creates nobody', async () => {
    const address = email('admin');
    const res = await register(api.client(), {
      email: address,
      password: 'longenough',
      displayName: 'Would-be admin',
      role: 'admin',
      adminSignupCode: 'anything',
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: M.adminSignupRefused, code: 'admin_signup_refused' });
    expect(await api.db.knex('users').where({ email: address }).first()).toBeUndefined();
  });

  it('admits the admin role only with the server’s ADMIN_SIGNUP_CODE', async () => {
    const withCode = await startTestApi({ config: { adminSignupCode: 'peacock-2026' } });
    try {
      const base = { password: 'longenough', displayName: 'Admin', role: 'admin' };
      const missing = await register(withCode.client(), { ...base, email: email('a1') });
      expect(missing.status).toBe(403);
      expect(missing.body.error).toBe(M.adminSignupRefused);

      const wrong = await register(withCode.client(), {
        ...base,
        email: email('a2'),
        adminSignupCode: 'peacock-2025',
      });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error).toBe(M.adminSignupRefused);

      const client = withCode.client();
      const right = await register(client, { ...base, email: email('a3'), adminSignupCode: 'peacock-2026' });
      expect(right.status).toBe(201);
      expect(right.body.user.role).toBe('admin');
      expect((await client.get<UserBody>('/_api/auth/session')).body.user.role).toBe('admin');
    } finally {
      await withCode.close();
    }
  });

  it('answers 409 Email already in use for a taken email in any letter case', async () => {
    const address = email('dup');
    expect(
      (await register(api.client(), { email: address, password: 'longenough', displayName: 'A' })).status,
    ).toBe(201);
    const client = api.client();
    const res = await register(client, {
      email: address.toUpperCase(),
      password: 'longenough',
      displayName: 'B',
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: M.emailAlreadyInUse, code: 'email_in_use' });
    expect(client.cookies.get(SESSION_COOKIE)).toBeUndefined();
    expect(await api.db.knex('users').whereRaw('lower(email) = ?', [address]).count('* as n')).toEqual([
      { n: 1 },
    ]);
  });

  it('gives the product-rule messages for invalid fields and rejects unknown fields', async () => {
    const c = api.client();
    const path = '/_api/auth/register_with_password';
    const ok = { email: email('v'), password: 'longenough', displayName: 'Valid' };
    await expectValidation(c, path, { ...ok, email: 'not-an-email' }, M.invalidEmail);
    await expectValidation(c, path, { ...ok, password: 'short77' }, M.passwordMin);
    await expectValidation(c, path, { ...ok, password: undefined }, M.passwordMin);
    await expectValidation(c, path, { ...ok, displayName: '   ' }, M.nameRequired);
    await expectValidation(c, path, { ...ok, displayName: undefined }, M.nameRequired);
    await expectValidation(c, path, { ...ok, role: 'superuser' }, expect.any(String));
    await expectValidation(c, path, { ...ok, isAdmin: true }, M.unknownFields);
    expect(await api.db.knex('users').where({ email: ok.email }).first()).toBeUndefined();
  });
});

describe('POST /_api/auth/login_with_password', () => {
  it('signs in with the right password, case-insensitively on the email, and returns the user', async () => {
    const user = await buildUser(api.db.knex, { displayName: 'Lalitha' });
    const client = api.client();
    const res = await client.post<UserBody>('/_api/auth/login_with_password', {
      email: user.email.toUpperCase(),
      password: user.password,
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, email: user.email, displayName: 'Lalitha' });
    expect(res.body.user.sellerProfile).toBeNull();
    expect((await client.get<UserBody>('/_api/auth/session')).body.user.id).toBe(user.id);
  });

  it('includes the seller profile for a seller', async () => {
    const seller = await buildSeller(api.db.knex, { shopName: 'Lakshmi Jewellers', urlSlug: 'lakshmi-x1' });
    const client = api.client();
    const res = await client.post<UserBody>('/_api/auth/login_with_password', {
      email: seller.email,
      password: DEFAULT_PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.body.user.role).toBe('seller');
    expect(res.body.user.sellerProfile).toMatchObject({
      id: seller.profileId,
      userId: seller.id,
      shopName: 'Lakshmi Jewellers',
      urlSlug: 'lakshmi-x1',
      isApproved: true,
    });
    const session = await client.get<UserBody>('/_api/auth/session');
    expect(session.body.user.sellerProfile?.shopName).toBe('Lakshmi Jewellers');
  });

  it('gives the same 401 for an unknown email and a wrong password, and sets no cookie', async () => {
    const user = await buildUser(api.db.knex);
    const wrong = api.client();
    const wrongRes = await wrong.post('/_api/auth/login_with_password', {
      email: user.email,
      password: 'Not-the-password1',
    });
    const unknown = api.client();
    const unknownRes = await unknown.post('/_api/auth/login_with_password', {
      email: email('nobody'),
      password: 'Not-the-password1',
    });
    const expected = { error: M.invalidCredentials, code: 'invalid_credentials' };
    expect({ status: wrongRes.status, body: wrongRes.body }).toEqual({ status: 401, body: expected });
    expect({ status: unknownRes.status, body: unknownRes.body }).toEqual({ status: 401, body: expected });
    expect(wrong.cookies.size + unknown.cookies.size).toBe(0);
  });

  it('gives the product-rule messages and rejects unknown fields', async () => {
    const c = api.client();
    const path = '/_api/auth/login_with_password';
    await expectValidation(c, path, {}, M.emailRequired);
    await expectValidation(c, path, { email: 'nope', password: 'x' }, M.emailRequired);
    await expectValidation(c, path, { email: 'a@example.test' }, M.passwordRequired);
    await expectValidation(c, path, { email: 'a@example.test', password: '' }, M.passwordRequired);
    await expectValidation(
      c,
      path,
      { email: 'a@example.test', password: 'x', remember: true },
      M.unknownFields,
    );
  });
});

describe('POST /_api/auth/logout', () => {
  it('ends the session: session is null afterwards and the cookie is cleared', async () => {
    const user = await buildUser(api.db.knex);
    const client = api.client();
    await login(client, user);
    const res = await client.post('/_api/auth/logout', {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(res.headers.getSetCookie().join('\n')).toMatch(new RegExp(`^${SESSION_COOKIE}=;`, 'm'));
    expect(client.cookies.get(SESSION_COOKIE)).toBeUndefined();
    expect((await client.get('/_api/auth/session')).body).toEqual({ user: null });
    expect(await api.db.knex('sessions').where({ user_id: user.id }).count('* as n')).toEqual([{ n: 0 }]);
  });

  it('answers 200 when nobody is signed in', async () => {
    const res = await api.client().post('/_api/auth/logout', {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
  });
});

describe('POST /_api/user/profile/update', () => {
  it('answers 401 with the product-rule message for a visitor', async () => {
    const res = await api.client().post('/_api/user/profile/update', { displayName: 'X' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: M.mustBeLoggedIn, code: 'unauthenticated' });
  });

  it('updates the given fields, turns empty optional values into null and keeps the rest', async () => {
    const user = await buildUser(api.db.knex, { phone: '9876543210', address: 'Old street' });
    const client = api.client();
    await login(client, user);
    await api.db.knex('media').insert({
      key: `avatar-${user.id}.webp`,
      content_type: 'image/webp',
      width: 1,
      height: 1,
      byte_size: 1,
      data: Buffer.from([0]),
    });
    const res = await client.post<UserBody>('/_api/user/profile/update', {
      displayName: 'Priya R',
      avatarUrl: `/media/avatar-${user.id}.webp`,
      address: '',
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      id: user.id,
      email: user.email,
      displayName: 'Priya R',
      avatarUrl: `/media/avatar-${user.id}.webp`,
      phone: '9876543210',
      address: null,
    });
    const session = await client.get<UserBody>('/_api/auth/session');
    expect(session.body.user).toEqual(res.body.user);

    const cleared = await client.post<UserBody>('/_api/user/profile/update', { phone: null, avatarUrl: '' });
    expect(cleared.status).toBe(200);
    expect(cleared.body.user).toMatchObject({ phone: null, avatarUrl: null, displayName: 'Priya R' });
  });

  it('changes the email with the current password, which then signs in; another user’s email is refused', async () => {
    const other = await buildUser(api.db.knex);
    const user = await buildUser(api.db.knex);
    const client = api.client();
    await login(client, user);

    const taken = await client.post('/_api/user/profile/update', {
      email: other.email.toUpperCase(),
      currentPassword: user.password,
    });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ error: M.emailUnavailable, code: 'email_unavailable' });

    const fresh = email('moved');
    const moved = await client.post<UserBody>('/_api/user/profile/update', {
      email: fresh.toUpperCase(),
      currentPassword: user.password,
    });
    expect(moved.status).toBe(200);
    expect(moved.body.user.email).toBe(fresh);
    const again = api.client();
    await login(again, { email: fresh, password: user.password });
  });

  it('gives every product-rule message for invalid fields', async () => {
    const user = await buildUser(api.db.knex, { displayName: 'Unchanged' });
    const c = api.client();
    await login(c, user);
    const path = '/_api/user/profile/update';
    await expectValidation(c, path, {}, M.atLeastOneField);
    await expectValidation(c, path, { nickname: 'x' }, M.unknownFields);
    await expectValidation(c, path, { displayName: 'ok', role: 'admin' }, M.unknownFields);
    await expectValidation(c, path, { displayName: '  ' }, M.displayNameEmpty);
    await expectValidation(c, path, { displayName: null }, M.displayNameEmpty);
    await expectValidation(c, path, { email: 'priya@', currentPassword: 'x' }, M.invalidEmail);
    await expectValidation(c, path, { avatarUrl: 'not a url' }, M.invalidAvatarUrl);
    await expectValidation(c, path, { avatarUrl: 'javascript:alert(1)' }, M.invalidAvatarUrl);
    await expectValidation(c, path, { phone: '1234' }, M.phoneMin);
    await expectValidation(c, path, { phone: '1'.repeat(21) }, M.phoneMax);
    await expectValidation(c, path, { address: 'a'.repeat(501) }, M.addressMax);
    const row = await api.db.knex('users').where({ id: user.id }).first('display_name', 'role');
    expect(row).toEqual({ display_name: 'Unchanged', role: 'customer' });
  });
});

describe('POST /_api/user/password/change', () => {
  it('answers 401 for a visitor', async () => {
    const res = await api.client().post('/_api/user/password/change', {
      currentPassword: 'x',
      newPassword: STRONG,
      confirmNewPassword: STRONG,
    });
    expect(res.status).toBe(401);
  });

  it('refuses a wrong current password with 400 and keeps the old password', async () => {
    const user = await buildUser(api.db.knex);
    const client = api.client();
    await login(client, user);
    const res = await client.post('/_api/user/password/change', {
      currentPassword: 'Wrong#Pass1',
      newPassword: STRONG,
      confirmNewPassword: STRONG,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: M.currentPasswordWrong, code: 'current_password_incorrect' });
    await login(api.client(), user);
  });

  it('changes the password: the new one signs in, the old one no longer does', async () => {
    const user = await buildUser(api.db.knex);
    const client = api.client();
    await login(client, user);
    const res = await client.post('/_api/user/password/change', {
      currentPassword: user.password,
      newPassword: STRONG,
      confirmNewPassword: STRONG,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await client.get<UserBody>('/_api/auth/session')).body.user.id).toBe(user.id);

    const old = await api.client().post('/_api/auth/login_with_password', {
      email: user.email,
      password: user.password,
    });
    expect(old.status).toBe(401);
    await login(api.client(), { email: user.email, password: STRONG });
  });

  it('gives every product-rule message for invalid fields', async () => {
    const user = await buildUser(api.db.knex);
    const c = api.client();
    await login(c, user);
    const path = '/_api/user/password/change';
    const ok = { currentPassword: user.password, newPassword: STRONG, confirmNewPassword: STRONG };
    const pw = (newPassword: string) => ({ ...ok, newPassword, confirmNewPassword: newPassword });
    await expectValidation(c, path, { ...ok, currentPassword: '' }, M.currentPasswordRequired);
    await expectValidation(c, path, { ...ok, currentPassword: undefined }, M.currentPasswordRequired);
    await expectValidation(c, path, pw('Ab1#'), M.newPasswordMin);
    await expectValidation(c, path, pw('ABCDEF1#'), M.newPasswordLower);
    await expectValidation(c, path, pw('abcdef1#'), M.newPasswordUpper);
    await expectValidation(c, path, pw('Abcdefg#'), M.newPasswordNumber);
    await expectValidation(c, path, pw('Abcdefg1'), M.newPasswordSpecial);
    await expectValidation(c, path, { ...ok, confirmNewPassword: 'Kolam#Rangoli8' }, M.newPasswordsMismatch);
    await expectValidation(c, path, { ...ok, confirmNewPassword: undefined }, M.newPasswordsMismatch);
    await expectValidation(c, path, { ...ok, logoutOthers: true }, M.unknownFields);
    // None of these changed anything: the original password still works.
    await login(api.client(), user);
  });
});
