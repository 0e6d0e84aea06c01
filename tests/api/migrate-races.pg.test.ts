import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../db/connection';
import { migrateLatest } from '../../db/migrate';
import { TEST_DATABASE_URL } from '../support/db';

// Processes starting together on an empty database (a rolling deploy, two API processes) each migrate it.

const opened: Database[] = [];
let schema = '';

async function freshSchema(): Promise<void> {
  schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = open();
  await admin.knex.raw(`create schema ${schema}`);
}

function open(): Database {
  const db = openPostgres({
    url: TEST_DATABASE_URL,
    poolMax: 3,
    connectionTimeoutMs: 10_000,
    statementTimeoutMs: 60_000,
    searchPath: schema ? [schema, 'public'] : undefined,
  });
  opened.push(db);
  return db;
}

afterEach(async () => {
  if (schema) await opened[0]!.knex.raw(`drop schema if exists ${schema} cascade`);
  await Promise.all(opened.splice(0).map((db) => db.close()));
  schema = '';
});

const lockRows = (db: Database) =>
  db.knex('knex_migrations_lock').select('index', 'is_locked') as Promise<{ is_locked: number }[]>;

describe('migrating one database from several processes at once', () => {
  it('six at once on an empty schema: each migration runs once, and the lock is left with one free row', async () => {
    await freshSchema();
    const dbs = Array.from({ length: 6 }, () => open());
    const ran = await Promise.all(dbs.map((db) => migrateLatest(db.knex)));
    const all = ran.flat();
    expect(all.length).toBeGreaterThan(0);
    expect(new Set(all).size).toBe(all.length); // no migration ran twice
    const names = (await dbs[0]!.knex('knex_migrations').select('name')) as { name: string }[];
    expect(names.map((r) => r.name).sort()).toEqual([...all].sort());
    expect(await lockRows(dbs[0]!)).toEqual([expect.objectContaining({ is_locked: 0 })]);
  });

  it('repairs a lock table that an earlier race left with two rows, then migrates', async () => {
    await freshSchema();
    const db = open();
    await db.knex.schema.createTable('knex_migrations_lock', (t) => {
      t.increments('index').primary();
      t.integer('is_locked');
    });
    await db.knex('knex_migrations_lock').insert([{ is_locked: 0 }, { is_locked: 0 }]);
    const ran = await migrateLatest(db.knex);
    expect(ran.length).toBeGreaterThan(0);
    expect(await lockRows(db)).toHaveLength(1);
    expect(await migrateLatest(db.knex)).toEqual([]);
  });
});
