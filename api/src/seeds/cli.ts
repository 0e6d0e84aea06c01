import { loadConfig } from '../config';
import { openConfiguredDatabase } from '../database';
import { migrateLatest } from '../../../db/migrate';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, isDatabaseEmpty, seedDemoData } from './demo';

/** `npm run db:seed`: migrates the configured database and loads the demo data if it is empty. */
async function main() {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  const label = database.kind === 'pg' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  try {
    await migrateLatest(database.knex);
    if (!(await isDatabaseEmpty(database.knex))) {
      console.log(`The database (${label}) already has users: demo data not loaded.`);
      return;
    }
    // Asked for by name; in production without SEED_DEMO_PASSWORD each account gets a fresh password.
    const accounts = await seedDemoData(database.knex, {
      log: (m) => console.log(m),
      passwords: config.demoPassword === undefined ? 'fresh' : { shared: config.demoPassword },
    });
    if (config.demoPassword === undefined) {
      console.log(`Demo data loaded into ${label}. Accounts, each with a fresh password shown only now:`);
      for (const a of accounts) console.log(`  ${a.role.padEnd(8)} ${a.email}  ${a.password}`);
    } else {
      const password = config.demoPassword === DEMO_PASSWORD ? DEMO_PASSWORD : 'SEED_DEMO_PASSWORD';
      console.log(`Demo data loaded into ${label}. Accounts (password ${password}):`);
      for (const a of DEMO_ACCOUNTS) console.log(`  ${a.role.padEnd(8)} ${a.email}`);
    }
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
