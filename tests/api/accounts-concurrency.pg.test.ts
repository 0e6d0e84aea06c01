import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES as M } from '../../api/contract/accounts';
import { LOGIN_LIMITS } from '../../api/src/features/accounts/service';
import { startTestApi, type TestApi } from '../support/api';
import { buildUser } from '../factories';

// PostgreSQL only: PGlite has one connection, so requests never truly overlap there.
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ config: { trustProxy: true } });
});
afterAll(async () => api?.close());

describe('accounts under concurrent requests', () => {
  it('lets no more than 5 simultaneous guesses at one account reach the password check', async () => {
    const user = await buildUser(api.db.knex);
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        api
          .client()
          .post(
            '/_api/auth/login_with_password',
            { email: user.email, password: `Wrong#Guess${i}` },
            { 'X-Forwarded-For': `192.0.2.${i + 1}` },
          ),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_LIMITS.perAccount);
    expect(statuses.filter((s) => s === 429)).toHaveLength(16 - LOGIN_LIMITS.perAccount);
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
