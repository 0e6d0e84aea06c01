import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import ClientPgLite from 'knex-pglite';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';

// int8 (count(*), bigserial) as a JS number: our counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

/** A connected database: knex for queries, plus what it is and how to close it. */
export interface Database {
  knex: Knex;
  kind: 'pglite' | 'pg';
  close(): Promise<void>;
}

export interface PgOptions {
  url: string;
  poolMax: number;
  connectionTimeoutMs: number;
  statementTimeoutMs: number;
  searchPath?: string[];
  applicationName?: string;
}

/** PostgreSQL through node-postgres with a bounded pool and time limits. */
export function openPostgres(opts: PgOptions): Database {
  const knex = knexFactory({
    client: 'pg',
    connection: {
      connectionString: opts.url,
      statement_timeout: opts.statementTimeoutMs,
      connectionTimeoutMillis: opts.connectionTimeoutMs,
      application_name: opts.applicationName ?? 'nagai',
    },
    searchPath: opts.searchPath,
    pool: {
      min: 0,
      max: opts.poolMax,
      // A request waits at most this long for a free connection, then fails (503) instead of hanging.
      acquireTimeoutMillis: opts.connectionTimeoutMs,
      createTimeoutMillis: opts.connectionTimeoutMs,
      idleTimeoutMillis: 30000,
      propagateCreateError: true,
    },
    acquireConnectionTimeout: opts.connectionTimeoutMs,
  });
  return { knex, kind: 'pg', close: () => knex.destroy() };
}

type ClientCtor = new (config: Knex.Config) => object;

/**
 * knex-pglite reports a delete as command 'DEL', which knex does not recognise, so `.delete()` resolved to
 * a raw result object instead of the affected row count. Naming it 'delete' gives knex's 'DELETE'.
 */
class PgliteClient extends (ClientPgLite as unknown as ClientCtor) {
  processResponse(obj: { method?: string }, runner: unknown): unknown {
    const fixed = obj.method === 'del' ? { ...obj, method: 'delete' } : obj;
    const parent = Object.getPrototypeOf(PgliteClient.prototype) as {
      processResponse(this: unknown, o: unknown, r: unknown): unknown;
    };
    return parent.processResponse.call(this, fixed, runner);
  }
}

/**
 * Embedded PGlite (PostgreSQL in WebAssembly) in a directory, or in memory when dir is undefined. An in-memory
 * database may start from a dump of another (`loadDataDir`, from dumpPglite): far quicker than a new one.
 */
export async function openPglite(
  dir: string | undefined,
  opts: { loadDataDir?: Blob } = {},
): Promise<Database> {
  if (dir) fs.mkdirSync(path.resolve(dir), { recursive: true });
  const pglite = new PGlite({
    dataDir: dir ? path.resolve(dir) : undefined,
    loadDataDir: opts.loadDataDir,
    extensions: { pg_trgm },
  });
  await pglite.waitReady;
  const knex = knexFactory({
    client: PgliteClient as unknown as typeof knexFactory.Client,
    dialect: 'postgres',
    connection: () => ({ pglite }) as object,
  });
  return {
    knex,
    kind: 'pglite',
    async close() {
      await knex.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/** A dump of a PGlite database's files (for openPglite's loadDataDir). */
export async function dumpPglite(db: Database): Promise<Blob> {
  const { pglite } = (
    db.knex.client as { config: { connection: () => { pglite: PGlite } } }
  ).config.connection();
  return (await pglite.dumpDataDir('none')) as Blob;
}

/** Normalises count(*) and numeric aggregates, which differ between pg (string) and PGlite (number). */
export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return Number(v);
  if (typeof v === 'bigint') return Number(v);
  return 0;
}

const pgTexts = new Map<string, string>();

/**
 * Runs one fixed statement that a hot path repeats (the session lookup, a seller's poll). On PostgreSQL it is
 * a named prepared statement, parsed and planned once per pooled connection instead of on every request; on
 * PGlite (one in-process connection, no network) it goes through knex as usual. `sql` takes `?` placeholders
 * like knex.raw; `name` must be unique to that text.
 */
export async function hotQuery<T>(knex: Knex, name: string, sql: string, bindings: unknown[]): Promise<T[]> {
  if (knex.client.config.client !== 'pg') {
    return ((await knex.raw(sql, bindings as Knex.RawBinding[])) as { rows: T[] }).rows;
  }
  let text = pgTexts.get(name);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    pgTexts.set(name, text);
  }
  const client = knex.client as {
    acquireConnection(): Promise<pg.PoolClient>;
    releaseConnection(c: pg.PoolClient): Promise<void>;
  };
  const conn = await client.acquireConnection();
  try {
    return (await conn.query<T & pg.QueryResultRow>({ name, text, values: bindings })).rows;
  } finally {
    await client.releaseConnection(conn);
  }
}

/**
 * Runs one statement whose text varies with its input (a catalogue filter), straight on a pooled pg
 * connection: no knex query building, and one round trip. Unnamed, so PostgreSQL plans it for these values
 * (a generic plan would not suit price bands and rare materials alike). On PGlite it goes through knex.raw.
 * `sql` takes `?` placeholders like knex.raw.
 */
export async function directQuery<T>(knex: Knex, sql: string, bindings: unknown[]): Promise<T[]> {
  if (knex.client.config.client !== 'pg') {
    return ((await knex.raw(sql, bindings as Knex.RawBinding[])) as { rows: T[] }).rows;
  }
  let n = 0;
  const text = sql.replace(/\?/g, () => `$${++n}`);
  const client = knex.client as {
    acquireConnection(): Promise<pg.PoolClient>;
    releaseConnection(c: pg.PoolClient): Promise<void>;
  };
  const conn = await client.acquireConnection();
  try {
    return (await conn.query<T & pg.QueryResultRow>({ text, values: bindings })).rows;
  } finally {
    await client.releaseConnection(conn);
  }
}
