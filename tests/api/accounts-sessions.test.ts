import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES as M, type User } from '../../api/contract/accounts';
import { SESSION_COOKIE } from '../../api/src/http/session';
import { ApiClient, startTestApi, type TestApi } from '../support/api';
import { buildUser, login } from '../factories';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());
beforeEach(async () => {
  await api.db.knex('rate_limits').delete();
});

type SessionBody = { user: User | null };
const NEW_PASSWORD = 'Jasmine#Garland7';

/** A separate browser that presents exactly this session cookie. */
function browserWithCookie(token: string): ApiClient {
  const client = api.client();
  client.cookies.set(SESSION_COOKIE, token);
  return client;
}

const sessionUser = async (client: ApiClient) =>
  (await client.get<SessionBody>('/_api/auth/session')).body.user;

describe('session fixation', () => {
  it('issues a new session id at login and kills the one presented before it', async () => {
    const first = await buildUser(api.db.knex);
    const second = await buildUser(api.db.knex);
    const client = api.client();
    await login(client, first);
    const before = client.cookies.get(SESSION_COOKIE)!;

    await login(client, second);
    const after = client.cookies.get(SESSION_COOKIE)!;
    expect(after).not.toBe(before);
    expect((await sessionUser(client))?.id).toBe(second.id);
    // The id the browser held before logging in is gone on the server, not merely replaced in the jar.
    expect(await sessionUser(browserWithCookie(before))).toBeNull();
  });

  it('never adopts a session id chosen by an attacker', async () => {
    const victim = await buildUser(api.db.knex);
    const planted = 'attacker-chosen-session-id-0123456789abcdefghijk';
    const client = browserWithCookie(planted);
    await login(client, victim);
    const issued = client.cookies.get(SESSION_COOKIE)!;
    expect(issued).not.toBe(planted);
    expect((await sessionUser(client))?.id).toBe(victim.id);

    const attacker = browserWithCookie(planted);
    expect(await sessionUser(attacker)).toBeNull();
    const res = await attacker.post('/_api/user/profile/update', { displayName: 'Pwned' });
    expect(res.status).toBe(401);
  });

  it('issues a fresh random 256-bit id each time and stores only its hash', async () => {
    const user = await buildUser(api.db.knex);
    const a = api.client();
    const b = api.client();
    await login(a, user);
    await login(b, user);
    const tokenA = a.cookies.get(SESSION_COOKIE)!;
    const tokenB = b.cookies.get(SESSION_COOKIE)!;
    expect(tokenA).not.toBe(tokenB);
    expect(Buffer.from(tokenA, 'base64url').length).toBeGreaterThanOrEqual(32);
    const ids = (await api.db.knex('sessions').where({ user_id: user.id }).pluck('id')) as string[];
    expect(ids).toHaveLength(2);
    expect(ids).not.toContain(tokenA);
    expect(ids).not.toContain(tokenB);
  });
});

describe('replay after logout', () => {
  it('a copied cookie gets no user and a 401 on profile update once its owner logged out', async () => {
    const user = await buildUser(api.db.knex, { displayName: 'Original' });
    const client = api.client();
    await login(client, user);
    const stolen = client.cookies.get(SESSION_COOKIE)!;
    const thief = browserWithCookie(stolen);
    expect((await sessionUser(thief))?.id).toBe(user.id);

    expect((await client.post('/_api/auth/logout', {})).status).toBe(200);

    expect(await sessionUser(thief)).toBeNull();
    const res = await thief.post('/_api/user/profile/update', { displayName: 'Hijacked' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: M.mustBeLoggedIn, code: 'unauthenticated' });
    const pw = await thief.post('/_api/user/password/change', {
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
      confirmNewPassword: NEW_PASSWORD,
    });
    expect(pw.status).toBe(401);
    expect(await api.db.knex('users').where({ id: user.id }).first('display_name')).toEqual({
      display_name: 'Original',
    });
  });

  it('logging out one browser leaves the user’s other browsers signed in', async () => {
    const user = await buildUser(api.db.knex);
    const phone = api.client();
    const laptop = api.client();
    await login(phone, user);
    await login(laptop, user);
    await phone.post('/_api/auth/logout', {});
    expect(await sessionUser(phone)).toBeNull();
    expect((await sessionUser(laptop))?.id).toBe(user.id);
  });
});

describe('replay after password change', () => {
  it('kills every old cookie (the one used for the change too) and keeps the tab signed in with a new one', async () => {
    const user = await buildUser(api.db.knex);
    const tab = api.client();
    const otherDevice = api.client();
    await login(tab, user);
    await login(otherDevice, user);
    const oldTabCookie = tab.cookies.get(SESSION_COOKIE)!;
    const oldOtherCookie = otherDevice.cookies.get(SESSION_COOKIE)!;

    const res = await tab.post('/_api/user/password/change', {
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
      confirmNewPassword: NEW_PASSWORD,
    });
    expect(res.status).toBe(200);
    const newTabCookie = tab.cookies.get(SESSION_COOKIE)!;
    expect(newTabCookie).toBeTruthy();
    expect(newTabCookie).not.toBe(oldTabCookie);

    // The new cookie works.
    expect((await sessionUser(tab))?.id).toBe(user.id);
    const update = await tab.post('/_api/user/profile/update', { displayName: 'Still me' });
    expect(update.status).toBe(200);

    // Every old cookie is dead, including the one that made the change.
    for (const old of [oldTabCookie, oldOtherCookie]) {
      const replay = browserWithCookie(old);
      expect(await sessionUser(replay)).toBeNull();
      expect((await replay.post('/_api/user/profile/update', { displayName: 'Replayed' })).status).toBe(401);
    }
    expect(await api.db.knex('sessions').where({ user_id: user.id }).count('* as n')).toEqual([{ n: 1 }]);

    // The new password signs in and the old one does not.
    await login(api.client(), { email: user.email, password: NEW_PASSWORD });
    const old = await api.client().post('/_api/auth/login_with_password', {
      email: user.email,
      password: user.password,
    });
    expect(old.status).toBe(401);
  });

  it('a failed password change revokes nothing', async () => {
    const user = await buildUser(api.db.knex);
    const tab = api.client();
    await login(tab, user);
    const cookie = tab.cookies.get(SESSION_COOKIE)!;
    const res = await tab.post('/_api/user/password/change', {
      currentPassword: 'Wrong#Guess1',
      newPassword: NEW_PASSWORD,
      confirmNewPassword: NEW_PASSWORD,
    });
    expect(res.status).toBe(400);
    expect(tab.cookies.get(SESSION_COOKIE)).toBe(cookie);
    expect((await sessionUser(tab))?.id).toBe(user.id);
  });
});

describe('session expiry', () => {
  it('a session past its lifetime gives no user', async () => {
    const user = await buildUser(api.db.knex);
    const client = api.client();
    await login(client, user);
    expect((await sessionUser(client))?.id).toBe(user.id);
    api.clock.advance(api.config.sessionTtlDays * 86_400_000 + 1000);
    try {
      expect(await sessionUser(client)).toBeNull();
    } finally {
      api.clock.advance(-(api.config.sessionTtlDays * 86_400_000 + 1000));
    }
  });
});
