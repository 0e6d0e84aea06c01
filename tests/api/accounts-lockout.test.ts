import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES as M, type User } from '../../api/contract/accounts';
import { LOGIN_FAILURE_WINDOW_MS, PASSWORD_CHANGE_WINDOW_MS } from '../../api/src/features/accounts/service';
import { SESSION_COOKIE } from '../../api/src/http/session';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { buildUser, login } from '../factories';

// trustProxy lets each test speak from its own client address through X-Forwarded-For (the rightmost entry,
// as our one proxy would append it). A one-minute first wait keeps the real time of each password check (slow
// on a busy machine) far inside the test clock's margins.
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ env: { TRUST_PROXY: 'true', LOGIN_DELAY_BASE_SECONDS: '60' } });
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
const slowDown = (seconds: number) => M.loginSlowDown.replace('{seconds}', String(seconds));

function attempt(client: ApiClient, email: string, password: string, address = ip) {
  return client.post<{ user: User; error?: string; code?: string }>(
    '/_api/auth/login_with_password',
    { email, password },
    from(address),
  );
}

async function failTimes(n: number, email: string, address = ip) {
  for (let i = 0; i < n; i++) {
    const res = await attempt(api.client(), email, WRONG, address);
    expect(res.status, `failure ${i + 1}`).toBe(401);
  }
}

describe('failed logins slow the guesser down, per account and address, and never lock the owner out', () => {
  it('after 5 free failures each attempt from that address waits, the wait doubling, even with the right password', async () => {
    // A one-minute first wait (LOGIN_DELAY_BASE_SECONDS), so the real time a busy machine spends on each
    // password check stays far inside the margins of the test clock.
    const slow = await startTestApi({ env: { TRUST_PROXY: 'true', LOGIN_DELAY_BASE_SECONDS: '60' } });
    try {
      const user = await buildUser(slow.db.knex);
      const tryLogin = (password: string, address = ip) =>
        slow.client().post('/_api/auth/login_with_password', { email: user.email, password }, from(address));
      for (let i = 0; i < slow.config.limits.loginFreeAttempts; i++) {
        expect((await tryLogin(WRONG)).status, `failure ${i + 1}`).toBe(401);
      }
      const retryAfter = (res: { headers: Headers }) => Number(res.headers.get('retry-after'));

      const client = slow.client();
      const held = await client.post(
        '/_api/auth/login_with_password',
        { email: user.email, password: user.password },
        from(ip),
      );
      expect(held.status).toBe(429);
      expect(held.body).toMatchObject({ code: 'too_many_attempts' });
      expect(retryAfter(held)).toBeGreaterThan(55);
      expect(retryAfter(held)).toBeLessThanOrEqual(60);
      expect(held.body).toEqual({ error: slowDown(retryAfter(held)), code: 'too_many_attempts' });
      expect(client.cookies.get(SESSION_COOKIE)).toBeUndefined();

      // The waits double, and a refused attempt does not count (it does not lengthen the wait).
      for (const minutes of [1, 2, 4]) {
        slow.clock.advance(minutes * 60_000 - 20_000);
        expect((await tryLogin(WRONG)).status, 'during the wait').toBe(429);
        slow.clock.advance(20_001);
        expect((await tryLogin(WRONG)).status, 'after the wait').toBe(401);
        const next = await tryLogin(WRONG);
        expect(next.status).toBe(429);
        expect(retryAfter(next)).toBeGreaterThan(minutes * 120 - 5);
        expect(retryAfter(next)).toBeLessThanOrEqual(minutes * 120);
      }

      // The letter case of the email does not reset the count.
      const upper = await slow
        .client()
        .post(
          '/_api/auth/login_with_password',
          { email: user.email.toUpperCase(), password: user.password },
          from(ip),
        );
      expect(upper.status).toBe(429);

      // The owner, from another address, signs in at once: no lockout by strangers.
      expect((await tryLogin(user.password, '198.51.100.77')).status).toBe(200);
    } finally {
      await slow.close();
    }
  });

  it('caps the wait (LOGIN_DELAY_MAX_SECONDS), so even a determined guesser never locks the account', async () => {
    const user = await buildUser(api.db.knex);
    await failTimes(api.config.limits.loginFreeAttempts, user.email);
    let last = 0;
    for (let i = 0; i < 14; i++) {
      api.clock.advance(api.config.limits.loginDelayMaxMs);
      expect((await attempt(api.client(), user.email, WRONG)).status).toBe(401);
      last = Number((await attempt(api.client(), user.email, WRONG)).headers.get('retry-after'));
    }
    expect(last).toBeGreaterThan(api.config.limits.loginDelayMaxMs / 1000 - 5);
    expect(last).toBeLessThanOrEqual(api.config.limits.loginDelayMaxMs / 1000);
    expect((await attempt(api.client(), user.email, user.password, '198.51.100.78')).status).toBe(200);
    // After the window the count starts again.
    api.clock.advance(LOGIN_FAILURE_WINDOW_MS + 1000);
    await failTimes(api.config.limits.loginFreeAttempts, user.email);
  });

  it('a successful login clears the count of its account and address', async () => {
    const user = await buildUser(api.db.knex);
    await failTimes(api.config.limits.loginFreeAttempts - 1, user.email);
    expect((await attempt(api.client(), user.email, user.password)).status).toBe(200);
    // Had the four failures survived, the second of these would be held.
    await failTimes(api.config.limits.loginFreeAttempts - 1, user.email);
    expect((await attempt(api.client(), user.email, user.password)).status).toBe(200);
  });

  it('treats unknown emails the same way, so the wait does not reveal which accounts exist', async () => {
    const ghost = `ghost-${Date.now()}@example.test`;
    await failTimes(api.config.limits.loginFreeAttempts, ghost);
    const res = await attempt(api.client(), ghost, WRONG);
    expect(res.status).toBe(429);
    const seconds = Number(res.headers.get('retry-after'));
    expect(seconds).toBeGreaterThan(55);
    expect(res.body).toEqual({ error: slowDown(seconds), code: 'too_many_attempts' });
  });
});

describe('the owner learns of failed sign-ins', () => {
  it('shows the count and time at the next sign-in and in the session until dismissed', async () => {
    const user = await buildUser(api.db.knex);
    await failTimes(3, user.email, '192.0.2.10');
    const client = api.client();
    const signedIn = await attempt(client, user.email, user.password);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.failedLogins).toMatchObject({ count: 3 });
    expect(Date.parse(signedIn.body.user.failedLogins!.lastAt)).toBeGreaterThan(Date.now() - 60_000);
    const session = await client.get<{ user: User }>('/_api/auth/session');
    expect(session.body.user.failedLogins).toMatchObject({ count: 3 });

    // A stranger cannot dismiss it, and a visitor is refused.
    expect((await api.client().post('/_api/user/login-notice/dismiss', {})).status).toBe(401);
    const dismissed = await client.post('/_api/user/login-notice/dismiss', {});
    expect(dismissed.body).toEqual({ success: true });
    expect((await client.get<{ user: User }>('/_api/auth/session')).body.user.failedLogins).toBeNull();
  });
});

describe('a loose outer bound per address (LOGIN_FAILURES_PER_IP_PER_HOUR)', () => {
  let strict: TestApi;
  beforeAll(async () => {
    strict = await startTestApi({ env: { TRUST_PROXY: 'true', LOGIN_FAILURES_PER_IP_PER_HOUR: '8' } });
  });
  afterAll(async () => strict?.close());

  it('refuses an address after that many failures across accounts for the rest of the hour', async () => {
    const users = await Promise.all([1, 2, 3].map(() => buildUser(strict.db.knex)));
    for (let i = 0; i < 8; i++) {
      const res = await strict
        .client()
        .post(
          '/_api/auth/login_with_password',
          { email: users[i % 3].email, password: WRONG },
          from('198.18.0.1'),
        );
      expect(res.status, `failure ${i + 1}`).toBe(401);
    }
    const fresh = await buildUser(strict.db.knex);
    const body = { email: fresh.email, password: fresh.password };
    const blocked = await strict.client().post('/_api/auth/login_with_password', body, from('198.18.0.1'));
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'too_many_attempts' });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(
      (await strict.client().post('/_api/auth/login_with_password', body, from('198.18.0.2'))).status,
    ).toBe(200);
    strict.clock.advance(3_600_000 + 1000);
    expect(
      (await strict.client().post('/_api/auth/login_with_password', body, from('198.18.0.1'))).status,
    ).toBe(200);
  });

  it('counts failures only: successful logins from a busy address do not use it up', async () => {
    const user = await buildUser(strict.db.knex);
    for (let i = 0; i < 12; i++) {
      const res = await strict
        .client()
        .post(
          '/_api/auth/login_with_password',
          { email: user.email, password: user.password },
          from('198.18.0.9'),
        );
      expect(res.status, `login ${i + 1}`).toBe(200);
    }
  });
});

const register = (target: TestApi, n: number, headers: Record<string, string>) =>
  target.client().post(
    '/_api/auth/register_with_password',
    {
      email: `reg-${n}-${Date.now()}-${Math.random()}@example.test`,
      password: 'longenough',
      displayName: 'R',
    },
    headers,
  );

describe('registration limit per address fits carrier NAT', () => {
  it('300 customers register from one address within an hour with the defaults', async () => {
    expect(api.config.limits.registrationPerIpPerHour).toBeGreaterThanOrEqual(500);
    const statuses: number[] = [];
    for (let batch = 0; batch < 30; batch++) {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => register(api, batch * 10 + i, from('100.64.0.1'))),
      );
      statuses.push(...results.map((r) => r.status));
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(300);
  }, 240_000);
});

describe('REGISTRATION_LIMIT_PER_IP_PER_HOUR behind a proxy (TRUST_PROXY, TRUSTED_PROXY_HOPS)', () => {
  let limited: TestApi;
  let twoHops: TestApi;
  beforeAll(async () => {
    limited = await startTestApi({ env: { TRUST_PROXY: 'true', REGISTRATION_LIMIT_PER_IP_PER_HOUR: '5' } });
    twoHops = await startTestApi({
      env: { TRUST_PROXY: 'true', TRUSTED_PROXY_HOPS: '2', REGISTRATION_LIMIT_PER_IP_PER_HOUR: '5' },
    });
  });
  afterAll(async () => {
    await limited?.close();
    await twoHops?.close();
  });

  it('one address cycling X-Forwarded-For values gets no more than the bound', async () => {
    // The client writes whatever it likes on the left; our proxy appends the address it saw.
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      statuses.push((await register(limited, i, from(`10.9.${i}.${i + 1}, 198.51.100.50`))).status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429, 429]);
    const refused = await register(limited, 99, from('1.2.3.4, 198.51.100.50'));
    expect(refused.body).toEqual({
      error: M.tooManyRegistrations.replace('{minutes}', '60'),
      code: 'too_many_attempts',
    });
    expect(refused.headers.get('retry-after')).toBeTruthy();
    // Another real address is its own bucket.
    expect((await register(limited, 100, from('1.2.3.4, 198.51.100.51'))).status).toBe(201);
    limited.clock.advance(3_600_000 + 1000);
    expect((await register(limited, 101, from('198.51.100.50'))).status).toBe(201);
  });

  it('with two proxies, the client is the second entry from the right', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await register(twoHops, i, from(`10.0.0.${i}, 198.51.100.60, 10.1.1.1`))).status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    expect((await register(twoHops, 50, from('198.51.100.61, 10.1.1.1'))).status).toBe(201);
  });
});

describe('password change attempts', () => {
  it('refuses password change after 5 wrong current passwords, even with the right one, for the window', async () => {
    const user = await buildUser(api.db.knex);
    const client = api.client();
    await login(client, user);
    const body = (currentPassword: string) => ({
      currentPassword,
      newPassword: 'Temple#Bells42',
      confirmNewPassword: 'Temple#Bells42',
    });
    for (let i = 0; i < api.config.limits.passwordChangeAttemptsPerUser; i++) {
      const res = await client.post('/_api/user/password/change', body(WRONG), from(ip));
      expect(res.status, `wrong ${i + 1}`).toBe(400);
    }
    const locked = await client.post('/_api/user/password/change', body(user.password), from(ip));
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({
      error: M.tooManyPasswordAttempts.replace('{minutes}', '15'),
      code: 'too_many_attempts',
    });
    api.clock.advance(PASSWORD_CHANGE_WINDOW_MS + 1000);
    // The session is still valid (30 days) and the change now goes through.
    const ok = await client.post('/_api/user/password/change', body(user.password), from(ip));
    expect(ok.status).toBe(200);
  });
});
