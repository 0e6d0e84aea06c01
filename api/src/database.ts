import path from 'node:path';
import { openPglite, openPostgres, type Database } from '../../db/connection';
import type { Config } from './config';

/** Opens the configured database: PostgreSQL when DATABASE_URL is set, else embedded PGlite in DATA_DIR. */
export async function openConfiguredDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) {
    return openPostgres({
      url: config.databaseUrl,
      poolMax: config.db.poolMax,
      connectionTimeoutMs: config.db.connectionTimeoutMs,
      statementTimeoutMs: config.db.statementTimeoutMs,
    });
  }
  return openPglite(path.join(config.dataDir, 'pglite'));
}
