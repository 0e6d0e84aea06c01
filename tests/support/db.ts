import crypto from 'node:crypto';
import fs from 'node:fs';
import { openPglite, openPostgres, type Database } from '../../db/connection';
import { migrateLatest } from '../../db/migrate';
import { inject } from 'vitest';
import { databaseUrl, maintenanceUrl } from './pg-template';
import { PGLITE_TEMPLATE } from './pglite-template';

export type TestDbKind = 'pglite' | 'pg';

/** Which database this vitest project runs against (api-pglite or api-pg). */
export const testDbKind = (): TestDbKind => (process.env.TEST_DB === 'pg' ? 'pg' : 'pglite');

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase extends Database {
  /** The PostgreSQL schema that holds this test database's tables (pg only). */
  schema?: string;
}

/** The api-pg project's migrated template database (pg-template.ts), when this project has one. */
function pgTemplate(): string | undefined {
  try {
    return inject('pgTemplate');
  } catch {
    return undefined;
  }
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite; on the real PostgreSQL server, a new
 * database copied from the project's migrated template (api-pg), or else a new schema migrated here; either is
 * dropped on close.
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
  const template = pgTemplate();
  if (template) {
    const name = `t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = openPostgres({
      url: maintenanceUrl(TEST_DATABASE_URL),
      poolMax: 1,
      connectionTimeoutMs: 5000,
      statementTimeoutMs: 60_000,
    });
    try {
      await admin.knex.raw(`create database ${name} template ${template}`);
    } finally {
      await admin.close();
    }
    const db = openPostgres({
      url: databaseUrl(TEST_DATABASE_URL, name),
      poolMax: opts.poolMax ?? 10,
      connectionTimeoutMs: opts.connectionTimeoutMs ?? 5000,
      statementTimeoutMs: opts.statementTimeoutMs ?? 30000,
    });
    // Nothing to do when the template has every migration; run as a program would on start.
    await migrateLatest(db.knex);
    return {
      ...db,
      schema: 'public',
      async close() {
        await db.close();
        const drop = openPostgres({
          url: maintenanceUrl(TEST_DATABASE_URL),
          poolMax: 1,
          connectionTimeoutMs: 5000,
          statementTimeoutMs: 60_000,
        });
        await drop.knex.raw(`drop database if exists ${name} with (force)`).catch(() => undefined);
        await drop.close();
      },
    };
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
