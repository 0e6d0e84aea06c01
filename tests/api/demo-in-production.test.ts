import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/src/config';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../api/src/seeds/demo-accounts';
import { demoAccountLines, loadDemoAtStart } from '../../api/src/seeds/startup';
import { startTestApi, type TestApi } from '../support/api';

/**
 * Issue #46, item 1: a production start on the embedded database (docs/operations.md: NODE_ENV=production,
 * PAN_ENCRYPTION_KEY, PUBLIC_ORIGIN, no DATABASE_URL) holds no account that signs in with a published password.
 * The app runs with the production configuration, and the demo data is decided and loaded by the very function
 * api/src/server.ts calls at start.
 */
const PRODUCTION_EMBEDDED = {
  NODE_ENV: 'production',
  PAN_ENCRYPTION_KEY: 'a1'.repeat(32),
  PUBLIC_ORIGIN: 'https://nagai.example',
  LOG_LEVEL: 'silent',
} as const;

function captureLog() {
  const lines: { level: 'info' | 'warn'; msg: string }[] = [];
  return {
    lines,
    info: (msg: string) => lines.push({ level: 'info', msg }),
    warn: (msg: string) => lines.push({ level: 'warn', msg }),
  };
}

async function login(api: TestApi, email: string, password: string) {
  // Same-origin as production sees it: the site's own address (PUBLIC_ORIGIN), not the test listener's.
  const origin = api.config.publicOrigin ?? api.url;
  return api.client().post('/_api/auth/login_with_password', { email, password }, { Origin: origin });
}

let api: TestApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('demo accounts in production (issue #46, item 1)', () => {
  it('a production start on the embedded database loads no demo data: the published password signs nobody in', async () => {
    api = await startTestApi({ env: { ...PRODUCTION_EMBEDDED } });
    expect(api.config.env).toBe('production');
    expect(api.config.databaseUrl).toBeUndefined();
    expect(api.config.seedDemo).toBe(false);
    const log = captureLog();
    const outcome = await loadDemoAtStart(api.db.knex, api.config, log);
    expect(outcome).toEqual({ loaded: false, reason: 'not-asked' });
    // The start says what it did.
    expect(log.lines).toEqual([
      { level: 'info', msg: 'demo data: not loaded (production loads it only with SEED_DEMO=true)' },
    ]);
    expect(demoAccountLines(outcome, api.config, api.url)).toEqual([]);
    for (const a of DEMO_ACCOUNTS) {
      const res = await login(api, a.email, DEMO_PASSWORD);
      expect(res.status, a.email).toBe(401);
      expect(res.body).toMatchObject({ code: 'invalid_credentials' });
    }
    const users = (await api.db.knex('users').select('email')) as { email: string }[];
    expect(users).toEqual([]);
  });

  it('SEED_DEMO=true in production loads the demo, each account with its own fresh password; the published one fails', async () => {
    api = await startTestApi({ env: { ...PRODUCTION_EMBEDDED, SEED_DEMO: 'true' } });
    expect(api.config.seedDemo).toBe(true);
    expect(api.config.demoPassword).toBeUndefined();
    const log = captureLog();
    const outcome = await loadDemoAtStart(api.db.knex, api.config, log);
    if (!outcome.loaded) throw new Error(`demo data not loaded: ${outcome.reason}`);
    expect(log.lines[0]).toEqual({
      level: 'warn',
      msg: 'demo data: loading it (SEED_DEMO=true in production); each demo account gets a fresh random password, printed once on standard output',
    });

    // Every account the demo created has a password of its own, none of them the published one.
    const passwords = outcome.accounts.map((a) => a.password);
    expect(outcome.accounts.length).toBeGreaterThanOrEqual(10);
    expect(new Set(passwords).size).toBe(passwords.length);
    expect(passwords).not.toContain(DEMO_PASSWORD);

    const printed = demoAccountLines(outcome, api.config, api.url).join('\n');
    for (const a of DEMO_ACCOUNTS) {
      const { password } = outcome.accounts.find((x) => x.email === a.email)!;
      // The account exists and its fresh password is printed once…
      expect(printed).toContain(`${a.email}  ${password}`);
      // …the published password does not sign it in…
      const refused = await login(api, a.email, DEMO_PASSWORD);
      expect(refused.status, a.email).toBe(401);
      expect(refused.body).toMatchObject({ code: 'invalid_credentials' });
      // …and the printed one does.
      const accepted = await login(api, a.email, password);
      expect(accepted.status, a.email).toBe(200);
      expect((accepted.body as { user: { role: string } }).user.role).toBe(a.role);
    }
    expect(printed).not.toContain(DEMO_PASSWORD);
  }, 240_000);

  it('refuses the published password as SEED_DEMO_PASSWORD in production; development keeps the demo as it was', () => {
    expect(() =>
      loadConfig({ ...PRODUCTION_EMBEDDED, SEED_DEMO: 'true', SEED_DEMO_PASSWORD: DEMO_PASSWORD }),
    ).toThrow(/SEED_DEMO_PASSWORD: the published demo password cannot be used in production/);
    // A test harness names a password of its own (e2e, netlab, benchmarks).
    const harness = loadConfig({
      ...PRODUCTION_EMBEDDED,
      SEED_DEMO: 'true',
      SEED_DEMO_PASSWORD: 'harness-only-pw-1',
    });
    expect(harness.demoPassword).toBe('harness-only-pw-1');
    // `npm install && npm start`: development on the embedded database loads the demo with the published password.
    const dev = loadConfig({});
    expect(dev.env).toBe('development');
    expect(dev.seedDemo).toBe(true);
    expect(dev.demoPassword).toBe(DEMO_PASSWORD);
    // PostgreSQL still loads it only when asked.
    expect(loadConfig({ DATABASE_URL: 'postgres://x@localhost/db' }).seedDemo).toBe(false);
  });

  it('development on the embedded database loads the demo with the published password and prints it', async () => {
    api = await startTestApi({ env: { NODE_ENV: 'development' } });
    const log = captureLog();
    // The database already has an account: nothing is loaded (the real load is seed.test.ts's), and the start
    // says so, and still prints the published demo accounts.
    await api.db.knex('users').insert({
      email: 'someone@example.test',
      display_name: 'Someone',
      role: 'customer',
      password_hash: 'x',
    });
    const outcome = await loadDemoAtStart(api.db.knex, api.config, log);
    expect(outcome).toEqual({ loaded: false, reason: 'not-empty' });
    expect(log.lines).toEqual([
      { level: 'info', msg: 'demo data: not loaded (the database already has accounts)' },
    ]);
    expect(demoAccountLines(outcome, api.config, api.url)[0]).toBe(
      `Demo accounts (password ${DEMO_PASSWORD}):`,
    );
  });
});
