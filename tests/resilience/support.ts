import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { hashToken, SESSION_COOKIE } from '../../api/src/http/session';
import { freePort, REPO } from '../bench/lib/harness';

export { freePort, REPO };

/** The shared PostgreSQL server other test files use: never stopped here, only given throwaway databases. */
export const SHARED_PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

/** Creates an empty database (with pg_trgm) on the server of `serverUrl`; returns its URL. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  const url = withDatabase(serverUrl, name);
  const inDb = new pg.Client({ connectionString: url });
  await inDb.connect();
  try {
    await inDb.query('create extension if not exists pg_trgm');
  } finally {
    await inDb.end();
  }
  return url;
}

/** Drops a database, first ending whatever connections are still open to it. */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}

export const randomName = (prefix: string) => `${prefix}_${crypto.randomBytes(5).toString('hex')}`;

export function openKnex(url: string, max = 4): Knex {
  // Quiet: the fault tests stop the database under this pool on purpose.
  const quiet = { warn: () => undefined, error: () => undefined, debug: () => undefined };
  return knexFactory({ client: 'pg', connection: url, pool: { min: 0, max }, log: quiet });
}

function pgBin(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', name)))
    .sort((a, b) => Number(b) - Number(a));
  if (!versions.length) throw new Error(`no ${name} under ${root}`);
  return path.join(root, versions[0], 'bin', name);
}

const asPostgres = (cmd: string) =>
  execFileSync('su', ['postgres', '-c', cmd], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });

/**
 * A private, throwaway PostgreSQL cluster on a free loopback port, owned by the postgres user, that a test
 * may stop and start at will without touching the shared server on 5432.
 */
export class PrivateCluster {
  readonly dir: string;
  port = 0;
  private constructor(dir: string) {
    this.dir = dir;
  }

  static async create(): Promise<PrivateCluster> {
    const dir = fs.mkdtempSync('/tmp/nagai-pg-');
    fs.chmodSync(dir, 0o755);
    execFileSync('chown', ['postgres', dir]);
    const cluster = new PrivateCluster(dir);
    cluster.port = await freePort();
    asPostgres(`${pgBin('initdb')} -D ${dir}/data -A trust -U postgres --no-sync >/dev/null`);
    cluster.start();
    return cluster;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  start(): void {
    asPostgres(
      `${pgBin('pg_ctl')} -D ${this.dir}/data -l ${this.dir}/log -w -t 20 ` +
        `-o "-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50" start`,
    );
  }

  /** Stops the cluster; `fast` ends open sessions (as an operator's restart does). */
  stop(mode: 'fast' | 'immediate' = 'fast'): void {
    asPostgres(`${pgBin('pg_ctl')} -D ${this.dir}/data -m ${mode} -w -t 20 stop`);
  }

  /** Stops the cluster if it runs and removes its files. Safe to call more than once. */
  destroy(): void {
    try {
      if (fs.existsSync(`${this.dir}/data/postmaster.pid`)) this.stop('immediate');
    } catch {
      /* already down */
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** The last lines the server wrote to stderr (its warnings and errors), for failure messages. */
  stderr(): string;
  /** Resolves with the exit code (or signal) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

/** Starts the production server (api/src/server.ts) as its own process on a free loopback port (or `port`). */
export async function startServer(
  env: Record<string, string>,
  opts: { port?: number } = {},
): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/src/server.ts'], {
    cwd: REPO,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // Production requires the key that encrypts buyers' PANs (any 32 bytes will do for a test server).
      PAN_ENCRYPTION_KEY: 'e2'.repeat(32),
      LOG_LEVEL: 'error',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      SEED_DEMO: 'false',
      // A few customers stand in for many, each checking out again and again: lift the unpaid-order cap.
      UNPAID_ORDERS_MAX_PER_CUSTOMER: '100000',
      UNPAID_UNITS_MAX_PER_PRODUCT: '100000',
      UNPAID_UNITS_MAX_PER_SHOP: '100000',
      // No balancer in front unless a test puts one there: stopping need not wait for one to notice.
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let tail = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-8000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  // Generous: on a shared 2-core host under load, a cold start (tsx compiling the server, migrations) has
  // been seen to take over a minute. Startup speed is not what these tests measure.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited during start:\n${tail}`);
    try {
      if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) })).ok) break;
    } catch {
      /* starting */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${tail}`);
    }
    await sleep(150);
  }
  return {
    url,
    port,
    child,
    stderr: () => tail,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 12_000);
      await exited;
      clearTimeout(t);
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Signs a user in by writing a session row the way the server does; returns the Cookie header. */
export async function sessionCookie(knex: Knex, userId: number): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await knex('sessions').insert({
    id: hashToken(token),
    user_id: userId,
    expires_at: new Date(Date.now() + 86_400_000),
  });
  return `${SESSION_COOKIE}=${token}`;
}

export interface Answer {
  status: number;
  body: Record<string, unknown> & { error?: string; code?: string };
  ms: number;
  /** Set instead of a status when no HTTP answer came (connection refused, reset, timeout). */
  failure?: string;
  headers?: http.IncomingHttpHeaders;
}

/**
 * One request on its own connection (no keep-alive pool to hide a refused connection), bounded in time.
 * Never throws: a transport failure is reported in `failure` with status 0.
 */
export function call(
  baseUrl: string,
  method: 'GET' | 'POST',
  pathAndQuery: string,
  opts: { body?: unknown; cookie?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const started = performance.now();
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return new Promise((resolve) => {
    const done = (a: Omit<Answer, 'ms'>) => resolve({ ...a, ms: performance.now() - started });
    const req = http.request(
      baseUrl + pathAndQuery,
      {
        method,
        agent: false,
        timeout: opts.timeoutMs ?? 15_000,
        headers: {
          Origin: baseUrl,
          Connection: 'close',
          ...(opts.cookie ? { Cookie: opts.cookie } : {}),
          ...(payload
            ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(payload)) }
            : {}),
          ...opts.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          let body: Answer['body'];
          try {
            body = text ? (JSON.parse(text) as Answer['body']) : {};
          } catch {
            body = { raw: text };
          }
          done({ status: res.statusCode ?? 0, body, headers: res.headers });
        });
        res.on('error', (err) => done({ status: 0, body: {}, failure: err.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({ status: 0, body: {}, failure: err.code ?? err.message }),
    );
    req.end(payload);
  });
}

export const checkoutBody = {
  customerName: 'Meena Sundaram',
  customerPhone: '9876501234',
  shippingAddress: '4 Gandhi Road, R.S. Puram',
  city: 'Coimbatore',
  state: 'Tamil Nadu',
  pinCode: '641002',
  paymentMethod: 'cash_on_delivery',
};

/** Checks every order is whole: it has items, and its subtotal and total match them. Returns problems. */
/**
 * A product's stock, and its units sold as the catalogue shows them once the queued sales are added in (the
 * 'orders:units-sold' background task).
 */
export async function stockAndSold(
  knex: Knex,
  productId: number,
): Promise<{ stock_quantity: number; units_sold: number }> {
  const { rows } = (await knex.raw(
    `select stock_quantity,
            (units_sold + coalesce((select sum(q.quantity) from product_sales_pending q
                                     where q.product_id = p.id), 0))::int as units_sold
       from products p where id = ?`,
    [productId],
  )) as { rows: { stock_quantity: number; units_sold: number }[] };
  return rows[0];
}

export async function orderProblems(knex: Knex): Promise<string[]> {
  const rows = (
    (await knex.raw(`
      select o.id, o.subtotal::text as subtotal, o.total_amount::text as total,
             o.shipping_charges::text as shipping, o.gst_total::text as gst,
             count(i.id)::int as items,
             coalesce(sum(i.price * i.quantity), 0)::text as item_sum,
             coalesce(sum(i.gst_amount * i.quantity), 0)::text as item_gst
        from orders o left join order_items i on i.order_id = o.id
       group by o.id`)) as {
      rows: {
        id: number;
        subtotal: string;
        total: string;
        shipping: string;
        gst: string;
        items: number;
        item_sum: string;
        item_gst: string;
      }[];
    }
  ).rows;
  const paise = (s: string) => Math.round(Number(s) * 100);
  const problems: string[] = [];
  for (const r of rows) {
    if (r.items === 0) problems.push(`order ${r.id} has no items`);
    if (paise(r.subtotal) !== paise(r.item_sum))
      problems.push(`order ${r.id}: subtotal ${r.subtotal} ≠ items ${r.item_sum}`);
    if (paise(r.total) !== paise(r.subtotal) + paise(r.shipping))
      problems.push(`order ${r.id}: total ${r.total} ≠ subtotal ${r.subtotal} + shipping ${r.shipping}`);
    if (paise(r.gst) !== paise(r.item_gst))
      problems.push(`order ${r.id}: gst ${r.gst} ≠ items ${r.item_gst}`);
  }
  return problems;
}
