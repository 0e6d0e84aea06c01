import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openConfiguredDatabase } from '../database';
import { migrateLatest } from '../../../db/migrate';
import { generateBulkData } from './bulk';

/**
 * `npm run db:generate -- --products 100000 --sellers 2000 [--orders 50000] [--customers N]`:
 * adds a large data set to DATABASE_URL (or the embedded database) for benchmarks.
 */
async function main() {
  const { values } = parseArgs({
    options: {
      products: { type: 'string', default: '1000' },
      sellers: { type: 'string', default: '50' },
      orders: { type: 'string', default: '0' },
      customers: { type: 'string' },
      batch: { type: 'string', default: '5000' },
    },
  });
  const num = (name: string, v: string | undefined, min: number) => {
    const n = v === undefined ? undefined : Number(v);
    if (n !== undefined && (!Number.isInteger(n) || n < min))
      throw new Error(`--${name} must be an integer ≥ ${min}`);
    return n;
  };
  const base = loadConfig();
  // Bulk statements run far longer than a request may; the server's statement timeout does not apply here.
  const config = loadConfig(process.env, { db: { ...base.db, statementTimeoutMs: 600_000 } });
  const database = await openConfiguredDatabase(config);
  const label = database.kind === 'pg' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  try {
    await migrateLatest(database.knex);
    console.log(`Generating into ${label}…`);
    const summary = await generateBulkData(database.knex, {
      products: num('products', values.products, 0)!,
      sellers: num('sellers', values.sellers, 1)!,
      orders: num('orders', values.orders, 0),
      customers: num('customers', values.customers, 0),
      batchSize: num('batch', values.batch, 1),
      log: (m) => console.log(`  ${m}`),
    });
    const perSec = Math.round((summary.products / Math.max(1, summary.ms)) * 1000);
    console.log(
      `Done in ${(summary.ms / 1000).toFixed(1)} s: ${summary.sellers} sellers, ${summary.products} products ` +
        `(${perSec}/s overall), ${summary.customers} customers, ${summary.orders} orders with ${summary.orderItems} items, ` +
        `${summary.images} drawn images.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
