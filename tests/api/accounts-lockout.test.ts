import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES as M } from '../../api/contract/accounts';
import {
  LOGIN_LIMITS,
  PASSWORD_CHANGE_LIMITS,
  REGISTER_LIMITS,
} from '../../api/src/features/accounts/service';
import { SESSION_COOKIE } from '../../api/src/http/session';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { buildUser, login } from '../factories';

// trustProxy lets each test speak from its own client address through X-Forwarded-For.
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ config: { trustProxy: true } });
});
afterAll(async () => api?.close());

let ipSeq = 0;
let ip = '';
beforeEach(() => {
  ipSeq += 1;
  ip = `203.0.113.${ipSeq}`;
});

const from = (address: string) => ({ 'X-Forwarded-For': address });
const WRONG = 'Wrong#Guess99';
const lockedMessage = (minutes: number) => M.tooManyLoginAttempts.replace('{minutes}', String(minutes));

function attempt(client: ApiClient, email: string, password: string, address = ip) {
  return client.post('/_api/auth/login_with_password', { email, password }, from(address));
}

async function failTimes(n: number, email: string, address = ip) {
  for (let i = 0; i < n; i++) {
    const res = await attempt(api.client(), email, WRONG, address);
    expect(res.status, `failure ${i + 1}`).toBe(401);
  }
}

describe('failed-login lockout per account', () => {
  it('refuses the 6th attempt with 429 even with the right password, and unlocks after the window', async () => {
    const user = await buildUser(api.db.knex);
    const bystander = await buildUser(api.db.knex);
    await failTimes(LOGIN_LIMITS.perAccount, user.email);

    const client = api.client();
    const locked = await attempt(client, user.email, user.password);
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ error: lockedMessage(15), code: 'too_many_attempts' });
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(client.cookies.get(SESSION_COOKIE)).toBeUndefined();

    // Another address does not get around an account lock, and the email's letter case does not either.
    const elsewhere = await attempt(api.client(), user.email.toUpperCase(), user.password, '198.51.100.77');
    expect(elsewhere.status).toBe(429);

    // Other accounts are unaffected, even from the same address.
    await login(api.client(), bystander);
    expect((await attempt(api.client(), bystander.email, bystander.password)).status).toBe(200);

    // The message counts down in whole minutes.
    api.clock.advance(10 * 60_000);
    const later = await attempt(api.client(), user.email, user.password);
    expect(later.status).toBe(429);
    expect(later.body).toMatchObject({ error: lockedMessage(5) });

    api.clock.advance(5 * 60_000 + 1000);
    const unlocked = await attempt(api.client(), user.email, user.password);
    expect(unlocked.status).toBe(200);
  });

  it('a successful login clears the account’s failures', async () => {
    const user = await buildUser(api.db.knex);
    await failTimes(LOGIN_LIMITS.perAccount - 1, user.email);
    expect((await attempt(api.client(), user.email, user.password)).status).toBe(200);
    // Had the four failures survived, the second of these would be refused.
    await failTimes(LOGIN_LIMITS.perAccount - 1, user.email);
    expect((await attempt(api.client(), user.email, user.password)).status).toBe(200);
  });

  it('locks unknown emails the same way, so lockout does not reveal which accounts exist', async () => {
    const ghost = `ghost-${Date.now()}@example.test`;
    await failTimes(LOGIN_LIMITS.perAccount, ghost);
    const res = await attempt(api.client(), ghost, WRONG);
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ error: lockedMessage(15), code: 'too_many_attempts' });
  });
});

describe('failed-login lockout per IP', () => {
  it('refuses an address after 30 failures across accounts, not other addresses', async () => {
    const users = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(() => buildUser(api.db.knex)));
    // Spread over accounts so no single account reaches its own limit.
    for (let i = 0; i < LOGIN_LIMITS.perIp; i++) {
      const res = await attempt(api.client(), users[i % users.length].email, WRONG);
      expect(res.status, `failure ${i + 1}`).toBe(401);
    }
    const fresh = await buildUser(api.db.knex);
    const blocked = await attempt(api.client(), fresh.email, fresh.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ error: lockedMessage(15), code: 'too_many_attempts' });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);

    expect((await attempt(api.client(), fresh.email, fresh.password, '198.51.100.200')).status).toBe(200);

    api.clock.advance(LOGIN_LIMITS.windowMs + 1000);
    expect((await attempt(api.client(), fresh.email, fresh.password)).status).toBe(200);
  });

  it('counts failures only: successful logins from a busy address do not lock it', async () => {
    const user = await buildUser(api.db.knex);
    for (let i = 0; i < LOGIN_LIMITS.perIp + 2; i++) {
      expect((await attempt(api.client(), user.email, user.password)).status, `login ${i + 1}`).toBe(200);
    }
  });
});

describe('registration rate limit per IP', () => {
  it('refuses the 21st registration from one address within an hour', async () => {
    const register = (n: number, address = ip) =>
      api
        .client()
        .post(
          '/_api/auth/register_with_password',
          { email: `reg-${ipSeq}-${n}-${Date.now()}@example.test`, password: 'longenough', displayName: 'R' },
          from(address),
        );
    for (let i = 0; i < REGISTER_LIMITS.perIp; i++) {
      expect((await register(i)).status, `registration ${i + 1}`).toBe(201);
    }
    const refused = await register(99);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: M.tooManyRegistrations.replace('{minutes}', '60'),
      code: 'too_many_attempts',
    });
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await register(100, '198.51.100.9')).status).toBe(201);
  });
});

describe('password change attempts', () => {
  it('locks password change after 5 wrong current passwords, even with the right one', async () => {
    const user = await buildUser(api.db.knex);
    const client = api.client();
    await login(client, user);
    const body = (currentPassword: string) => ({
      currentPassword,
      newPassword: 'Temple#Bells42',
      confirmNewPassword: 'Temple#Bells42',
    });
    for (let i = 0; i < PASSWORD_CHANGE_LIMITS.perUser; i++) {
      const res = await client.post('/_api/user/password/change', body(WRONG), from(ip));
      expect(res.status, `wrong ${i + 1}`).toBe(400);
    }
    const locked = await client.post('/_api/user/password/change', body(user.password), from(ip));
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({
      error: M.tooManyPasswordAttempts.replace('{minutes}', '15'),
      code: 'too_many_attempts',
    });
    api.clock.advance(PASSWORD_CHANGE_LIMITS.windowMs + 1000);
    // The session is still valid (30 days) and the change now goes through.
    const ok = await client.post('/_api/user/password/change', body(user.password), from(ip));
    expect(ok.status).toBe(200);
  });
});
