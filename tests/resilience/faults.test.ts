import crypto from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../api/src/http/errors';
import { buildProduct, buildSeller, buildUser } from '../factories';
import {
  stockAndSold,
  call,
  checkoutBody,
  createDatabase,
  openKnex,
  orderProblems,
  PrivateCluster,
  sessionCookie,
  sleep,
  startServer,
  type Answer,
  type ServerProcess,
} from './support';

/**
 * Faults an operator will meet: the database restarting under load, a pool held by slow queries, and a
 * SIGTERM during a deploy. They run against a private throwaway PostgreSQL cluster that this file may stop
 * and start, never the shared server other tests use.
 */

const UNAVAILABLE = { error: DATABASE_UNAVAILABLE_MESSAGE, code: 'database_unavailable' };
const CONNECTION_TIMEOUT_MS = 1000;

let cluster: PrivateCluster | undefined;
let dbUrl = '';
let knex: Knex | undefined;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  cluster = await PrivateCluster.create();
  dbUrl = await createDatabase(cluster.url, 'nagai_faults');
  // The first server migrates the empty database; the others find it ready.
  servers.push(await serverFor({}));
  knex = openKnex(dbUrl);
});

afterAll(async () => {
  await Promise.allSettled(servers.map((s) => s.stop()));
  await knex?.destroy().catch(() => undefined);
  cluster?.destroy();
});

async function serverFor(env: Record<string, string>): Promise<ServerProcess> {
  const s = await startServer({
    DATABASE_URL: dbUrl,
    DB_POOL_MAX: '5',
    DB_CONNECTION_TIMEOUT_MS: String(CONNECTION_TIMEOUT_MS),
    DB_STATEMENT_TIMEOUT_MS: '30000',
    ...env,
  });
  servers.push(s);
  return s;
}

const alive = (s: ServerProcess) => s.child.exitCode === null && s.child.signalCode === null;

/** An open transaction holding an ACCESS EXCLUSIVE lock on products: every query touching it waits. */
async function lockProducts(): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  await client.query('begin');
  await client.query('lock table products in access exclusive mode');
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await client.query('rollback').catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

/** Waits (bounded) until `n` server queries are blocked on a lock. */
async function waitForBlocked(n: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = (await knex!.raw(
      `select count(*)::int as n from pg_stat_activity
        where application_name = 'nagai' and wait_event_type = 'Lock'`,
    )) as { rows: { n: number }[] };
    if (r.rows[0].n >= n) return;
    if (Date.now() > deadline) throw new Error(`only ${r.rows[0].n} of ${n} queries blocked`);
    await sleep(50);
  }
}

interface Sample extends Answer {
  label: string;
  startedAt: number;
}

describe('PostgreSQL stopped and restarted under load', () => {
  it('answers 503 fast while it is down, never exits, recovers within 5 s, and leaves no half-made order', async () => {
    const server = servers[0];
    const STOCK = 500;
    const seller = await buildSeller(knex!);
    const product = await buildProduct(knex!, seller.id, { stockQuantity: STOCK, price: '2500.00' });
    const buyers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const u = await buildUser(knex!, { role: 'customer' });
      buyers.push(await sessionCookie(knex!, u.id));
    }

    const samples: Sample[] = [];
    let running = true;
    const LOAD_LIMIT_MS = 25_000;
    const loadStarted = Date.now();
    const record = async (label: string, p: () => Promise<Answer>) => {
      const startedAt = Date.now();
      samples.push({ ...(await p()), label, startedAt });
    };
    const browse = async () => {
      for (let i = 0; running && i < 2000 && Date.now() - loadStarted < LOAD_LIMIT_MS; i++) {
        await record('list', () => call(server.url, 'GET', '/_api/products/list?limit=12'));
        await record('get', () => call(server.url, 'GET', `/_api/products/get?id=${product.id}`));
        await sleep(20);
      }
    };
    const buy = async (cookie: string) => {
      for (let i = 0; running && i < 2000 && Date.now() - loadStarted < LOAD_LIMIT_MS; i++) {
        await record('cart', () =>
          call(server.url, 'POST', '/_api/cart/add', {
            cookie,
            body: { productId: product.id, quantity: 1 },
          }),
        );
        await record('checkout', () =>
          call(server.url, 'POST', '/_api/checkout/create', {
            cookie,
            body: checkoutBody,
            headers: { 'Idempotency-Key': crypto.randomUUID() },
          }),
        );
        await sleep(20);
      }
    };
    const load = Promise.all([browse(), browse(), ...buyers.map(buy)]);

    try {
      await sleep(1500);
      const healthyOrders = samples.filter((s) => s.label === 'checkout' && s.status === 201).length;
      expect(healthyOrders, 'checkouts succeed before the fault').toBeGreaterThan(0);

      cluster!.stop('fast');
      const downAt = Date.now();
      await sleep(2500);
      expect(alive(server), server.stderr()).toBe(true);
      cluster!.start();
      const upAt = Date.now();

      // Service returns within 5 s of the database coming back.
      let recoveredAt = 0;
      while (!recoveredAt && Date.now() - upAt < 8000) {
        const r = await call(server.url, 'GET', `/_api/products/get?id=${product.id}`);
        if (r.status === 200) recoveredAt = Date.now();
        else await sleep(100);
      }
      expect(recoveredAt, 'service came back').toBeGreaterThan(0);
      expect(recoveredAt - upAt).toBeLessThan(5000);
      await sleep(1500);
      running = false;
      await load;

      const during = samples.filter((s) => s.startedAt > downAt + 100 && s.startedAt + s.ms < upAt);
      const describeAll = (xs: Sample[]) =>
        JSON.stringify(
          xs.slice(0, 20).map((s) => [s.label, s.status, s.body.code ?? s.failure, Math.round(s.ms)]),
        );
      expect(during.length, 'requests were made while the database was down').toBeGreaterThan(5);
      // Fail fast: nobody waits much beyond the connection timeout.
      expect(
        during.filter((s) => s.ms > CONNECTION_TIMEOUT_MS + 1500),
        describeAll(during),
      ).toEqual([]);
      // Nothing that needs the database can succeed; what fails says so in the product-rule words.
      const refused = during.filter((s) => s.status !== 200);
      for (const s of refused) {
        expect(s.status, describeAll([s])).toBe(503);
        expect(s.body).toEqual(UNAVAILABLE);
      }
      expect(during.filter((s) => s.label === 'checkout' && s.status === 503).length).toBeGreaterThan(0);
      expect(during.filter((s) => s.status === 201)).toEqual([]);

      // Over the whole run: never a 500, never a dropped connection, never a crash.
      expect(
        samples.filter((s) => s.status === 0 || (s.status >= 500 && s.status !== 503)),
        describeAll(samples.filter((s) => s.status === 0 || (s.status >= 500 && s.status !== 503))),
      ).toEqual([]);
      expect(alive(server), server.stderr()).toBe(true);
      const after = samples.filter((s) => s.startedAt > recoveredAt + 500);
      expect(after.length).toBeGreaterThan(0);
      expect(
        after.filter((s) => s.status >= 500),
        describeAll(after),
      ).toEqual([]);
    } finally {
      running = false;
      await load;
    }

    // No half-made order: each order is whole, and stock + sold units still add up to what there was.
    expect(await orderProblems(knex!)).toEqual([]);
    const row = await stockAndSold(knex!, product.id);
    const sold = (await knex!('order_items')
      .where({ product_id: product.id })
      .sum({ n: 'quantity' })
      .first()) as {
      n: string | number | null;
    };
    expect(row.stock_quantity + row.units_sold).toBe(STOCK);
    expect(Number(sold.n ?? 0)).toBe(row.units_sold);
    const created = samples.filter((s) => s.label === 'checkout' && s.status === 201).length;
    expect(row.units_sold).toBeGreaterThanOrEqual(created);
  });
});

describe('pool exhaustion', () => {
  it('with every connection held by a slow query, new requests get 503 within about the connection timeout', async () => {
    const server = await serverFor({ DB_POOL_MAX: '2' });
    const seller = await buildSeller(knex!);
    await buildProduct(knex!, seller.id);
    const lock = await lockProducts();
    // Two different catalogue requests take both pool connections and wait on the lock (two identical ones
    // would share one computation, and so one connection: see ResponseCache).
    const blocked: Promise<Answer>[] = [12, 13].map((limit) =>
      call(server.url, 'GET', `/_api/products/list?limit=${limit}`, { timeoutMs: 30_000 }),
    );
    try {
      await waitForBlocked(2);

      const fresh = await Promise.all([
        call(server.url, 'GET', '/_api/products/list?limit=14'),
        call(server.url, 'GET', '/_api/sellers/list'),
        call(server.url, 'GET', '/healthz'),
        call(server.url, 'POST', '/_api/auth/login_with_password', {
          body: { email: 'nobody@example.test', password: 'whatever-long' },
        }),
      ]);
      for (const r of fresh) {
        expect(r.status, JSON.stringify(r.body)).toBe(503);
        expect(r.body).toEqual(UNAVAILABLE);
        expect(r.headers?.['retry-after']).toBeDefined();
        expect(r.ms).toBeGreaterThan(CONNECTION_TIMEOUT_MS * 0.8);
        // The pool's connection timeout plus 1.5 s to answer, fixed: a request left waiting on the pool fails.
        expect(r.ms).toBeLessThan(CONNECTION_TIMEOUT_MS + 1500);
      }
    } finally {
      await lock.release();
    }
    // The slow requests were never abandoned: they finish once the lock goes.
    for (const r of await Promise.all(blocked)) expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await call(server.url, 'GET', '/_api/products/list?limit=12')).status).toBe(200);
    expect(alive(server)).toBe(true);
  });
});

describe('SIGTERM during load', () => {
  it('finishes in-flight requests, refuses new connections and exits within 10 s', async () => {
    const server = await serverFor({});
    const seller = await buildSeller(knex!);
    const product = await buildProduct(knex!, seller.id, { stockQuantity: 5 });
    const customer = await buildUser(knex!, { role: 'customer' });
    const cookie = await sessionCookie(knex!, customer.id);
    await knex!('cart_items').insert({ user_id: customer.id, product_id: product.id, quantity: 1 });
    const ordersBefore = Number(
      ((await knex!('orders').where({ customer_id: customer.id }).count({ n: '*' })) as { n: unknown }[])[0]
        .n,
    );

    const lock = await lockProducts();
    try {
      const inFlight = [
        call(server.url, 'GET', '/_api/products/list?limit=12', { timeoutMs: 20_000 }),
        call(server.url, 'GET', `/_api/products/get?id=${product.id}`, { timeoutMs: 20_000 }),
        call(server.url, 'POST', '/_api/checkout/create', {
          cookie,
          body: checkoutBody,
          headers: { 'Idempotency-Key': crypto.randomUUID() },
          timeoutMs: 20_000,
        }),
      ];
      await waitForBlocked(3);

      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      await sleep(400);
      // Draining: still running, but no longer accepting connections.
      expect(alive(server), server.stderr()).toBe(true);
      const refused = await call(server.url, 'GET', '/healthz', { timeoutMs: 3000 });
      expect(refused.status).toBe(0);
      expect(refused.failure).toBe('ECONNREFUSED');

      await sleep(600);
      await lock.release();
      const answers = await Promise.all(inFlight);
      expect(
        answers.map((r) => r.status),
        JSON.stringify(answers.map((r) => r.body)),
      ).toEqual([200, 200, 201]);

      const exit = await Promise.race([server.exited, sleep(10_000).then(() => null)]);
      expect(exit, 'exited within 10 s of SIGTERM').not.toBeNull();
      expect(exit!.code, server.stderr()).toBe(0);
      expect(Date.now() - signalledAt).toBeLessThan(10_000);
    } finally {
      await lock.release();
    }
    const ordersAfter = Number(
      ((await knex!('orders').where({ customer_id: customer.id }).count({ n: '*' })) as { n: unknown }[])[0]
        .n,
    );
    expect(ordersAfter).toBe(ordersBefore + 1);
    expect(await orderProblems(knex!)).toEqual([]);
  });
});
