import crypto from 'node:crypto';
import net from 'node:net';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CallSignalsResponse,
  CallStatusResponse,
  IncomingCallsResponse,
} from '../../api/contract/calls';
import { buildProduct, buildSeller, buildUser, markSellerAppOpen } from '../factories';
import { ApiClient } from '../support/api';
import { EventStreamReader } from '../support/sse';
import {
  stockAndSold,
  call,
  checkoutBody,
  createDatabase,
  dropDatabase,
  openKnex,
  orderProblems,
  randomName,
  sessionCookie,
  SHARED_PG_URL,
  sleep,
  startServer,
  type ServerProcess,
} from './support';

/** `nagai_session=<token>` as a [name, value] pair for an ApiClient's cookie jar. */
const cookiePair = (cookie: string): [string, string] => {
  const i = cookie.indexOf('=');
  return [cookie.slice(0, i), cookie.slice(i + 1)];
};

/**
 * Two API processes behind one PostgreSQL database, as they run behind a load balancer: everything a
 * second process needs (sessions, calls, signals, stock) must be in the database, not in memory.
 */

const dbName = randomName('nagai_res');
let dbUrl: string | undefined;
let knex: Knex | undefined;
let a: ServerProcess | undefined;
let b: ServerProcess | undefined;

beforeAll(async () => {
  dbUrl = await createDatabase(SHARED_PG_URL, dbName);
  const env = { DATABASE_URL: dbUrl, DB_POOL_MAX: '10', DB_CONNECTION_TIMEOUT_MS: '10000' };
  // Both start at once on the empty database: each runs the migrations itself, as a rolling deploy would.
  const started = await Promise.allSettled([startServer(env), startServer(env)]);
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    // Leave no server behind to retry a database that afterAll drops.
    for (const r of started) if (r.status === 'fulfilled') await r.value.stop();
    throw (failed as PromiseRejectedResult).reason;
  }
  [a, b] = started.map((r) => (r as PromiseFulfilledResult<ServerProcess>).value);
  knex = openKnex(dbUrl);
});

afterAll(async () => {
  await Promise.allSettled([a?.stop(), b?.stop()]);
  await knex?.destroy();
  if (dbUrl) await dropDatabase(SHARED_PG_URL, dbName);
});

describe('two API processes on one PostgreSQL database', () => {
  it('both started together on an empty database and migrated it once', async () => {
    const rows = (await knex!('knex_migrations').select('name')) as { name: string }[];
    const names = rows.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThan(0);
  });

  it('a session created by logging in on one is valid on the other, and logout on the other ends it', async () => {
    const user = await buildUser(knex!, { role: 'customer' });
    const login = await call(a!.url, 'POST', '/_api/auth/login_with_password', {
      body: { email: user.email, password: user.password },
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const setCookie = (login.headers?.['set-cookie'] ?? []).find((c) => c.startsWith('nagai_session='));
    expect(setCookie).toBeDefined();
    const cookie = setCookie!.split(';')[0];

    const onB = await call(b!.url, 'GET', '/_api/auth/session', { cookie });
    expect(onB.status).toBe(200);
    expect((onB.body.user as { id: number } | null)?.id).toBe(user.id);

    const out = await call(b!.url, 'POST', '/_api/auth/logout', { cookie, body: {} });
    expect(out.status).toBe(200);
    const onA = await call(a!.url, 'GET', '/_api/auth/session', { cookie });
    expect(onA.body.user).toBeNull();
  });

  it('a call placed through A rings through B, is accepted on B, and signalling relays across both', async () => {
    const customer = await buildUser(knex!, { role: 'customer' });
    const seller = await buildSeller(knex!);
    const asCustomer = await sessionCookie(knex!, customer.id);
    const asSeller = await sessionCookie(knex!, seller.id);

    const before = await call(b!.url, 'GET', '/_api/call/incoming', { cookie: asSeller });
    expect(before.status).toBe(200);
    expect((before.body as unknown as IncomingCallsResponse).calls).toEqual([]);
    // That poll is the seller's open app; its presence is written in the next batch, made sure of here.
    await markSellerAppOpen(knex!, seller.id);

    const placed = await call(a!.url, 'POST', '/_api/call/initiate', {
      cookie: asCustomer,
      body: { sellerId: seller.id },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const callId = placed.body.callId as number;

    // The seller's poll on B sees the ring placed on A (bounded: a few polls at most).
    let ringing: IncomingCallsResponse['calls'] = [];
    for (let i = 0; i < 10 && ringing.length === 0; i++) {
      const poll = await call(b!.url, 'GET', '/_api/call/incoming', { cookie: asSeller });
      expect(poll.status).toBe(200);
      ringing = (poll.body as unknown as IncomingCallsResponse).calls;
      if (!ringing.length) await sleep(200);
    }
    expect(ringing.map((c) => c.callId)).toEqual([callId]);
    expect(ringing[0].caller.id).toBe(customer.id);

    const accepted = await call(b!.url, 'POST', '/_api/call/respond', {
      cookie: asSeller,
      body: { callId, response: 'accept' },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const statusOnA = await call(a!.url, 'GET', `/_api/call/status?callId=${callId}`, { cookie: asCustomer });
    expect((statusOnA.body as unknown as CallStatusResponse).status).toBe('active');

    // Offer and candidates sent through A are read on B; the answer sent through B is read on A.
    const offer = { type: 'offer', sdp: `v=0 ${crypto.randomUUID()}` };
    const sent = await call(a!.url, 'POST', '/_api/call/signal', {
      cookie: asCustomer,
      body: { callId, kind: 'offer', payload: offer },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const cand = { candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host', sdpMid: '0' };
    expect(
      (
        await call(a!.url, 'POST', '/_api/call/signal', {
          cookie: asCustomer,
          body: { callId, kind: 'candidate', payload: cand },
        })
      ).status,
    ).toBe(201);

    const onB = (await call(b!.url, 'GET', `/_api/call/signals?callId=${callId}`, { cookie: asSeller }))
      .body as unknown as CallSignalsResponse;
    expect(onB.status).toBe('active');
    expect(onB.signals.map((s) => [s.kind, s.payload, s.fromUserId])).toEqual([
      ['offer', offer, customer.id],
      ['candidate', cand, customer.id],
    ]);

    const answer = { type: 'answer', sdp: 'v=0 answer' };
    expect(
      (
        await call(b!.url, 'POST', '/_api/call/signal', {
          cookie: asSeller,
          body: { callId, kind: 'answer', payload: answer },
        })
      ).status,
    ).toBe(201);
    const onA = (await call(a!.url, 'GET', `/_api/call/signals?callId=${callId}`, { cookie: asCustomer }))
      .body as unknown as CallSignalsResponse;
    expect(onA.signals.map((s) => [s.kind, s.payload, s.fromUserId])).toEqual([
      ['answer', answer, seller.id],
    ]);

    // Hanging up on A ends the call for the seller polling B.
    expect(
      (await call(a!.url, 'POST', '/_api/call/end', { cookie: asCustomer, body: { callId } })).status,
    ).toBe(200);
    const endedOnB = await call(b!.url, 'GET', `/_api/call/status?callId=${callId}`, { cookie: asSeller });
    expect((endedOnB.body as unknown as CallStatusResponse).status).toBe('ended');
  });

  it('a checkout race split across both servers never oversells: 20 customers, stock 5', async () => {
    const CUSTOMERS = 20;
    const STOCK = 5;
    const seller = await buildSeller(knex!);
    const product = await buildProduct(knex!, seller.id, { stockQuantity: STOCK, price: '12500.00' });
    const buyers: { id: number; cookie: string }[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const u = await buildUser(knex!, { role: 'customer' });
      buyers.push({ id: u.id, cookie: await sessionCookie(knex!, u.id) });
    }
    await knex!('cart_items').insert(
      buyers.map((u) => ({ user_id: u.id, product_id: product.id, quantity: 1 })),
    );

    const results = await Promise.all(
      buyers.map((u, i) =>
        call(i % 2 === 0 ? a!.url : b!.url, 'POST', '/_api/checkout/create', {
          cookie: u.cookie,
          body: checkoutBody,
          headers: { 'Idempotency-Key': crypto.randomUUID() },
          timeoutMs: 30_000,
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    const label = JSON.stringify(results.map((r) => [r.status, r.body.code ?? r.failure]));
    expect(statuses.filter((s) => s === 201).length, label).toBe(STOCK);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect([400, 409], label).toContain(r.status);
      expect(r.body.error, label).toMatch(/available in stock|no longer available|cart is empty/);
    }

    const row = await stockAndSold(knex!, product.id);
    expect(row).toEqual({ stock_quantity: 0, units_sold: STOCK });
    const sold = (await knex!('order_items')
      .where({ product_id: product.id })
      .sum({ n: 'quantity' })
      .first()) as { n: string | number };
    expect(Number(sold.n)).toBe(STOCK);
    expect(await orderProblems(knex!)).toEqual([]);
    expect(a!.child.exitCode).toBeNull();
    expect(b!.child.exitCode).toBeNull();
  });

  it('requests Node refuses before the app (huge headers, malformed HTTP) still get { error, code }', async () => {
    const long = await call(a!.url, 'GET', `/_api/products/list?q=${'x'.repeat(20_000)}`);
    expect(long.status).toBe(431);
    expect(long.body).toEqual({ error: 'The request headers are too large.', code: 'headers_too_large' });
    const raw = await new Promise<string>((resolve, reject) => {
      const s = net.connect(Number(new URL(b!.url).port), '127.0.0.1', () => s.end('GARBAGE /\r\n\r\n'));
      let text = '';
      s.setEncoding('utf8');
      s.on('data', (c: string) => (text += c));
      s.on('end', () => resolve(text));
      s.on('error', reject);
      s.setTimeout(5000, () => s.destroy(new Error('timeout')));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'The request was malformed.',
      code: 'bad_request',
    });
    expect(a!.child.exitCode).toBeNull();
    expect(b!.child.exitCode).toBeNull();
  });

  it('a call placed through A rings a seller streaming from B within 1 s; the answer and signals stream back', async () => {
    const customer = await buildUser(knex!, { role: 'customer' });
    const seller = await buildSeller(knex!);
    const sellerOnB = new ApiClient(b!.url);
    const customerOnB = new ApiClient(b!.url);
    sellerOnB.cookies.set(...cookiePair(await sessionCookie(knex!, seller.id)));
    const customerCookie = await sessionCookie(knex!, customer.id);
    customerOnB.cookies.set(...cookiePair(customerCookie));
    const sellerStream = await EventStreamReader.open(sellerOnB);
    const customerStream = await EventStreamReader.open(customerOnB);
    try {
      await sellerStream.waitFor((e) => e.event === 'hello');
      await customerStream.waitFor((e) => e.event === 'hello');
      // The open stream is the seller's app (its presence is refreshed every few seconds): reachable now.
      await markSellerAppOpen(knex!, seller.id);
      const placed = await call(a!.url, 'POST', '/_api/call/initiate', {
        body: { sellerId: seller.id },
        cookie: customerCookie,
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      const placedAt = Date.now();
      const callId = placed.body.callId as number;
      const ring = await sellerStream.waitFor((e) => e.event === 'incoming', 3000);
      console.log(`ring across processes: ${ring.at - placedAt} ms after the initiate answered`);
      // Across processes (the database's notification between them), fixed: within 1 s of the initiate's answer.
      expect(ring.at - placedAt).toBeLessThan(1000);
      expect((ring.data as { callId: number }).callId).toBe(callId);

      // Accepted on A: the customer streaming from B hears of it; a signal sent through A streams to B.
      const sellerCookie = `nagai_session=${sellerOnB.cookies.get('nagai_session')}`;
      await call(a!.url, 'POST', '/_api/call/respond', {
        body: { callId, response: 'accept' },
        cookie: sellerCookie,
      });
      await customerStream.waitFor(
        (e) => e.event === 'call' && (e.data as { status: string }).status === 'active',
        3000,
      );
      await call(a!.url, 'POST', '/_api/call/signal', {
        body: { callId, kind: 'answer', payload: { sdp: 'v=0' } },
        cookie: sellerCookie,
      });
      const signal = await customerStream.waitFor((e) => e.event === 'signal', 3000);
      expect((signal.data as { payload: unknown }).payload).toEqual({ sdp: 'v=0' });
      await call(a!.url, 'POST', '/_api/call/end', { body: { callId }, cookie: customerCookie });
    } finally {
      sellerStream.close();
      customerStream.close();
    }
  });

  it('SIGTERM ends the open event streams and the process exits promptly', async () => {
    const seller = await buildSeller(knex!);
    const env = { DATABASE_URL: dbUrl!, DB_POOL_MAX: '4' };
    const c = await startServer(env);
    const client = new ApiClient(c.url);
    client.cookies.set(...cookiePair(await sessionCookie(knex!, seller.id)));
    const stream = await EventStreamReader.open(client);
    await stream.waitFor((e) => e.event === 'hello');
    const stoppedAt = Date.now();
    await c.stop();
    await stream.waitForEnd(1000);
    const exited = await c.exited;
    expect(exited.code).toBe(0);
    // The streams end and the process exits within 5 s of the stop, fixed: a process held open by them fails.
    expect(Date.now() - stoppedAt).toBeLessThan(5000);
  });
});
