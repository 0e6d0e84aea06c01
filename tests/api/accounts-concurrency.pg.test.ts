import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES as M } from '../../api/contract/accounts';
import { startTestApi, type TestApi } from '../support/api';
import { buildUser } from '../factories';

// PostgreSQL only: PGlite has one connection, so requests never truly overlap there.
let api: TestApi;
beforeAll(async () => {
  // A one-minute first wait: every one of the simultaneous guesses arrives inside it, however busy the machine.
  api = await startTestApi({ config: { trustProxy: true }, env: { LOGIN_DELAY_BASE_SECONDS: '60' } });
});
afterAll(async () => api?.close());

describe('accounts under concurrent requests', () => {
  it('lets no more than 5 simultaneous guesses from one address at one account reach the password check', async () => {
    const user = await buildUser(api.db.knex);
    const free = api.config.limits.loginFreeAttempts;
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        api
          .client()
          .post(
            '/_api/auth/login_with_password',
            { email: user.email, password: `Wrong#Guess${i}` },
            { 'X-Forwarded-For': '192.0.2.1' },
          ),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(free);
    expect(statuses.filter((s) => s === 429)).toHaveLength(16 - free);
    // The owner, elsewhere, is not held up.
    const owner = await api
      .client()
      .post(
        '/_api/auth/login_with_password',
        { email: user.email, password: user.password },
        { 'X-Forwarded-For': '192.0.2.2' },
      );
    expect(owner.status).toBe(200);
  });

  it('two simultaneous registrations of one email: one 201, one 409, never a 500', async () => {
    const email = `race-${Date.now()}@example.test`;
    const results = await Promise.all(
      ['A', 'B', 'C'].map((name, i) =>
        api
          .client()
          .post(
            '/_api/auth/register_with_password',
            { email: i === 1 ? email.toUpperCase() : email, password: 'longenough', displayName: name },
            { 'X-Forwarded-For': `198.18.0.${i + 1}` },
          ),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body).toEqual({ error: M.emailAlreadyInUse, code: 'email_in_use' });
    }
  });
});
