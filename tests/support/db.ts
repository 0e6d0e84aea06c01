import crypto from 'node:crypto';
import fs from 'node:fs';
import { openPglite, openPostgres, type Database } from '../../db/connection';
import { migrateLatest } from '../../db/migrate';
import { PGLITE_TEMPLATE } from './pglite-template';

export type TestDbKind = 'pglite' | 'pg';

/** Which database this vitest project runs against (api-pglite or api-pg). */
export const testDbKind = (): TestDbKind => (process.env.TEST_DB === 'pg' ? 'pg' : 'pglite');

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase extends Database {
  /** The PostgreSQL schema of this test database (pg only). */
  schema?: string;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or a new schema on the real
 * PostgreSQL server that is dropped on close.
 */
export async function createTestDatabase(
  kind: TestDbKind = testDbKind(),
  opts: { poolMax?: number; connectionTimeoutMs?: number; statementTimeoutMs?: number } = {},
): Promise<TestDatabase> {
  if (kind === 'pglite') {
    // From the migrated template the project's global setup wrote, when there is one (see pglite-template.ts).
    const template = fs.existsSync(PGLITE_TEMPLATE)
      ? new Blob([fs.readFileSync(PGLITE_TEMPLATE)])
      : undefined;
    const db = await openPglite(undefined, { loadDataDir: template });
    await migrateLatest(db.knex);
    return db;
  }
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = openPostgres({
    url: TEST_DATABASE_URL,
    poolMax: 1,
    connectionTimeoutMs: 5000,
    statementTimeoutMs: 30000,
  });
  try {
    // The extension lives in public once for the whole database; dropping a test schema must not drop it.
    await admin.knex
      .raw('create extension if not exists pg_trgm with schema public')
      .catch((err: { code?: string }) => {
        if (err.code !== '23505' && err.code !== '42710') throw err; // raced with another worker
      });
    await admin.knex.raw(`create schema ${schema}`);
  } finally {
    await admin.close();
  }
  const db = openPostgres({
    url: TEST_DATABASE_URL,
    poolMax: opts.poolMax ?? 10,
    connectionTimeoutMs: opts.connectionTimeoutMs ?? 5000,
    statementTimeoutMs: opts.statementTimeoutMs ?? 30000,
    searchPath: [schema, 'public'],
  });
  await migrateLatest(db.knex);
  return {
    ...db,
    schema,
    async close() {
      await db.knex.raw(`drop schema if exists ${schema} cascade`).catch(() => undefined);
      await db.close();
    },
  };
}
