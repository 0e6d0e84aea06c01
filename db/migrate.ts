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
import * as m0010 from './migrations/0010_call_quality';
import * as m0011 from './migrations/0011_call_events';
import * as m0012 from './migrations/0012_abuse_protections';
import * as m0013 from './migrations/0013_call_selling';
import * as m0014 from './migrations/0014_pricing';
import * as m0015 from './migrations/0015_shop_hours';
import * as m0016 from './migrations/0016_payments';
import * as m0017 from './migrations/0017_appointments';
import * as m0018 from './migrations/0018_image_placeholders';
import * as m0019 from './migrations/0019_product_certificates';
import * as m0020 from './migrations/0020_money_and_stock';
import * as m0021 from './migrations/0021_search_in_tamil';
import * as m0022 from './migrations/0022_mobile_sign_in';
import * as m0023 from './migrations/0023_tryon_images';
import * as m0024 from './migrations/0024_notice_channels';
import * as m0026 from './migrations/0026_invoice_on_payment';
import * as m0027 from './migrations/0027_webhook_receipts';
import * as m0028 from './migrations/0028_account_proofs';
import * as m0029 from './migrations/0029_cancel_reasons';
import * as m0030 from './migrations/0030_shop_events';
import * as m0032 from './migrations/0032_call_activity';
import * as m0033 from './migrations/0033_call_family';
import * as m0034 from './migrations/0034_family_guest_stream';
import * as m0035 from './migrations/0035_call_guest_account';
import * as m0036 from './migrations/0036_guest_photo_notify';

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
  '0010_call_quality': m0010,
  '0011_call_events': m0011,
  '0012_abuse_protections': m0012,
  '0013_call_selling': m0013,
  '0014_pricing': m0014,
  '0015_shop_hours': m0015,
  '0016_payments': m0016,
  '0017_appointments': m0017,
  '0018_image_placeholders': m0018,
  '0019_product_certificates': m0019,
  '0020_money_and_stock': m0020,
  '0021_search_in_tamil': m0021,
  '0022_mobile_sign_in': m0022,
  '0023_tryon_images': m0023,
  '0024_notice_channels': m0024,
  '0026_invoice_on_payment': m0026,
  '0027_webhook_receipts': m0027,
  '0028_account_proofs': m0028,
  '0029_cancel_reasons': m0029,
  '0030_shop_events': m0030,
  '0032_call_activity': m0032,
  '0033_call_family': m0033,
  '0034_family_guest_stream': m0034,
  '0035_call_guest_account': m0035,
  '0036_guest_photo_notify': m0036,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};

/** Any constant: the advisory lock that serialises creating knex's bookkeeping tables across processes. */
const BOOKKEEPING_LOCK = 7_110_301;

/**
 * Creates knex's two bookkeeping tables and the one row of its lock table, once, under an advisory lock.
 * knex creates them itself without one: two processes starting together on an empty database could both
 * insert a lock row, and with two rows knex's lock (an update that must touch exactly one row) reports
 * "already locked" for ever. A lock table left with extra rows by such a race is repaired here.
 */
async function ensureBookkeeping(knex: Knex): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(?)', [BOOKKEEPING_LOCK]);
    if (!(await trx.schema.hasTable('knex_migrations'))) {
      await trx.schema.createTable('knex_migrations', (t) => {
        t.increments();
        t.string('name');
        t.integer('batch');
        t.timestamp('migration_time');
      });
    }
    if (!(await trx.schema.hasTable('knex_migrations_lock'))) {
      await trx.schema.createTable('knex_migrations_lock', (t) => {
        t.increments('index').primary();
        t.integer('is_locked');
      });
    }
    const rows = (await trx('knex_migrations_lock').select('index').orderBy('index')) as { index: number }[];
    if (rows.length === 0) await trx('knex_migrations_lock').insert({ is_locked: 0 });
    else if (rows.length > 1) await trx('knex_migrations_lock').where('index', '>', rows[0]!.index).delete();
  });
}

const RACE_CODES = new Set(['42P07', '23505']); // duplicate table / unique violation

/**
 * Brings the schema up to date; safe to run on every start and from several processes: the bookkeeping
 * tables are made once under an advisory lock, and knex's migration lock then lets exactly one process run
 * each migration while the others wait for it.
 */
export async function migrateLatest(knex: Knex): Promise<string[]> {
  await ensureBookkeeping(knex);
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
