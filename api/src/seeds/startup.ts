import type { Knex } from 'knex';
import type { Config } from '../config';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-accounts';
import { isDatabaseEmpty, seedDemoData, type DemoAccount } from './demo';

/** What the server did about demo data at start. */
export type DemoAtStart =
  | { loaded: false; reason: 'not-asked' | 'not-empty' }
  /** Loaded now; `accounts` holds each account's password (a fresh one each, or the shared one). */
  | { loaded: true; accounts: DemoAccount[]; sharedPassword: string | undefined };

interface StartLogger {
  info(msg: string): void;
  warn(msg: string): void;
}

/**
 * Decides and does the demo data at start (api/src/server.ts): loaded only into an empty database, only when
 * SEED_DEMO asks for it (by default in development on the embedded database; in production only when set to
 * true), and in production with a fresh random password per account unless SEED_DEMO_PASSWORD names one (never
 * the published one: the configuration refuses it). One log line says which it did.
 */
export async function loadDemoAtStart(knex: Knex, config: Config, logger: StartLogger): Promise<DemoAtStart> {
  if (!config.seedDemo) {
    logger.info(
      config.env === 'production'
        ? 'demo data: not loaded (production loads it only with SEED_DEMO=true)'
        : 'demo data: not loaded (SEED_DEMO=false)',
    );
    return { loaded: false, reason: 'not-asked' };
  }
  if (!(await isDatabaseEmpty(knex))) {
    logger.info('demo data: not loaded (the database already has accounts)');
    return { loaded: false, reason: 'not-empty' };
  }
  const sharedPassword = config.demoPassword;
  if (sharedPassword === undefined)
    logger.warn(
      'demo data: loading it (SEED_DEMO=true in production); each demo account gets a fresh random password, printed once on standard output',
    );
  else if (sharedPassword === DEMO_PASSWORD)
    logger.info(
      'demo data: loading it into the empty database; the demo accounts have the published password',
    );
  else
    logger.info('demo data: loading it into the empty database; the demo accounts have SEED_DEMO_PASSWORD');
  const accounts = await seedDemoData(knex, {
    log: (m) => logger.info(m),
    passwords: sharedPassword === undefined ? 'fresh' : { shared: sharedPassword },
  });
  return { loaded: true, accounts, sharedPassword };
}

/**
 * The lines `npm start` prints about the demo accounts: the three named ones with their login pages, and with
 * fresh passwords every account and its password (shown this once: only their hashes are stored).
 */
export function demoAccountLines(outcome: DemoAtStart, config: Config, url: string): string[] {
  if (outcome.loaded && outcome.sharedPassword === undefined) {
    const named = new Set<string>(DEMO_ACCOUNTS.map((a) => a.email));
    const lines = ['Demo accounts, each with a fresh password shown only now (change or note them):'];
    for (const a of DEMO_ACCOUNTS) {
      const password = outcome.accounts.find((x) => x.email === a.email)?.password ?? '';
      lines.push(`  ${a.role.padEnd(8)} ${a.email}  ${password}  → ${url}${a.loginPath}`);
    }
    for (const a of outcome.accounts)
      if (!named.has(a.email)) lines.push(`  ${a.role.padEnd(8)} ${a.email}  ${a.password}`);
    return lines;
  }
  // Shared password: the demo accounts exist once loaded (this start or an earlier one).
  if (!outcome.loaded && outcome.reason === 'not-asked') return [];
  if (config.demoPassword === undefined) return [];
  const password = config.demoPassword === DEMO_PASSWORD ? DEMO_PASSWORD : 'SEED_DEMO_PASSWORD';
  return [
    `Demo accounts (password ${password}):`,
    ...DEMO_ACCOUNTS.map((a) => `  ${a.role.padEnd(8)} ${a.email}  → ${url}${a.loginPath}`),
  ];
}
