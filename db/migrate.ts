import type { Knex } from 'knex';
import * as m0001 from './migrations/0001_initial';
import * as m0002 from './migrations/0002_catalog_indexes';
import * as m0003 from './migrations/0003_call_heartbeats';
import * as m0004 from './migrations/0004_products_seller_index';
import * as m0005 from './migrations/0005_search_vocabulary';
import * as m0006 from './migrations/0006_checkout_hot_updates';
import * as m0007 from './migrations/0007_catalog_sort_indexes';
import * as m0008 from './migrations/0008_shop_name_words';
import * as m0009 from './migrations/0009_directory_search_indexes';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Every migration in order. A new migration is a new file added at the end, never an edit. */
const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_catalog_indexes': m0002,
  '0003_call_heartbeats': m0003,
  '0004_products_seller_index': m0004,
  '0005_search_vocabulary': m0005,
  '0006_checkout_hot_updates': m0006,
  '0007_catalog_sort_indexes': m0007,
  '0008_shop_name_words': m0008,
  '0009_directory_search_indexes': m0009,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};

const RACE_CODES = new Set(['42P07', '23505']); // duplicate table / unique violation

/**
 * Brings the schema up to date; safe to run on every start and from several processes. Processes starting
 * at once on an empty database race to create knex's bookkeeping tables; the loser retries, and from then on
 * knex's migration lock lets exactly one process run each migration.
 */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  // Another process may hold the migration lock while it migrates (seconds on a busy machine): wait up to ~60 s.
  const deadline = Date.now() + 60_000;
  for (let attempt = 1; ; attempt++) {
    try {
      const [, names] = (await knex.migrate.latest({ migrationSource: source })) as [number, string[]];
      return names;
    } catch (err) {
      const code = (err as { code?: string }).code;
      const lockHeld = /Migration table is already locked/i.test((err as Error).message ?? '');
      if (Date.now() > deadline || !(lockHeld || (code && RACE_CODES.has(code)))) throw err;
      await new Promise((r) => setTimeout(r, Math.min(1000, 100 * attempt)));
    }
  }
}
