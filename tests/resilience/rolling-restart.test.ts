import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProduct, buildSeller, buildUser, markSellerAppOpen } from '../factories';
import { inCi } from '../support/ci';
import {
  call,
  checkoutBody,
  createDatabase,
  dropDatabase,
  freePort,
  openKnex,
  orderProblems,
  randomName,
  sessionCookie,
  SHARED_PG_URL,
  sleep,
  startServer,
  type Answer,
  type ServerProcess,
} from './support';

/**
 * The deployment of docs/operations.md as a fact: HAProxy in front of three server processes on one
 * PostgreSQL, health-checked on the readiness endpoint. Under a steady mix (browsing, carts and checkouts,
 * calls placed and hung up, two live calls exchanging signals, 500 open event streams) the processes are
 * restarted one at a time. Nothing may fail: no request, no event missed by a stream (each resumes from its
 * cursor on another process), the live calls stay active with every signal delivered, and a call placed while
 * a process drains rings. Each stopping process must leave the balancer's pool before it stops listening.
 *
 * The calls are driven at the API level (the call state machine, signalling and event delivery through the
 * balancer); media between real browsers through a relay is tests/netlab's subject.
 */

const HAPROXY = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy', '/usr/bin/haproxy'].find((p) =>
  fs.existsSync(p),
);
if (!HAPROXY) {
  const notice = 'HAProxy is not installed: the rolling-restart test cannot run (apt-get install haproxy).';
  if (inCi()) throw new Error(notice);
  console.warn(`\n${'!'.repeat(100)}\n!!! SKIPPED: ${notice}\n${'!'.repeat(100)}\n`);
}

const PROCESSES = 3;
const SELLERS = 100;
const STREAMS_PER_SELLER = 5; // 500 streams: a seller's phone and tabs
const DRAIN_MS = 1500;

/** One event stream as EventSource keeps it: reconnects after `retry` with Last-Event-ID, forever. */
class ResumingStream {
  lastId: string | undefined;
  retryMs = 1500;
  connects = 0;
  /** Answers other than 200 to a (re)connection: none expected. */
  refused: number[] = [];
  firstCursor: number | undefined;
  /** Ids of every event but 'hello', in the order received. */
  ids: number[] = [];
  events: { id: number; event: string; data: unknown; at: number }[] = [];
  private req: http.ClientRequest | undefined;
  private closed = false;
  private waiters = new Set<() => void>();

  constructor(
    private readonly base: string,
    private readonly cookie: string,
  ) {}

  open(): void {
    if (this.closed) return;
    this.connects++;
    const req = http.get(
      `${this.base}/_api/events`,
      {
        agent: false,
        headers: {
          Accept: 'text/event-stream',
          Cookie: this.cookie,
          ...(this.lastId !== undefined ? { 'Last-Event-ID': this.lastId } : {}),
        },
      },
      (res) => {
        if (res.statusCode !== 200) {
          this.refused.push(res.statusCode ?? 0);
          res.resume();
          res.on('end', () => this.reconnect());
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let blank: number;
          while ((blank = buffer.indexOf('\n\n')) >= 0) {
            this.frame(buffer.slice(0, blank));
            buffer = buffer.slice(blank + 2);
          }
        });
        res.on('end', () => this.reconnect());
        res.on('error', () => this.reconnect());
      },
    );
    req.on('error', () => this.reconnect());
    this.req = req;
  }

  private reconnect(): void {
    if (this.closed) return;
    this.req = undefined;
    setTimeout(() => this.open(), this.retryMs);
  }

  private frame(block: string): void {
    let event = 'message';
    let id: string | undefined;
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const i = line.indexOf(':');
      const field = i < 0 ? line : line.slice(0, i);
      const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data += value;
      else if (field === 'id') id = value;
      else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    }
    if (id !== undefined) this.lastId = id;
    if (!data) return;
    const parsed = JSON.parse(data) as Record<string, unknown>;
    if (event === 'hello') {
      this.firstCursor ??= parsed.cursor as number;
    } else {
      this.ids.push(Number(id));
      this.events.push({ id: Number(id), event, data: parsed, at: Date.now() });
    }
    for (const w of this.waiters) w();
  }

  /** Resolves once an event matches (polling the list as frames arrive), or rejects after `ms`. */
  waitFor(test: (e: ResumingStream['events'][number]) => boolean, ms: number) {
    return new Promise<ResumingStream['events'][number]>((resolve, reject) => {
      const check = () => {
        const found = this.events.find(test);
        if (found) {
          this.waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no matching event within ${ms} ms`));
      }, ms);
      this.waiters.add(check);
      check();
    });
  }

  close(): void {
    this.closed = true;
    this.req?.destroy();
  }
}

/** HAProxy's view of each server, from its stats page (CSV). */
async function backendStates(statsUrl: string): Promise<Map<string, string>> {
  const text = await (await fetch(`${statsUrl};csv`)).text();
  const states = new Map<string, string>();
  for (const line of text.split('\n')) {
    const cols = line.split(',');
    if (cols[0] === 'nagai' && /^p\d$/.test(cols[1])) states.set(cols[1], cols[17]);
  }
  return states;
}

const describeWithHaproxy = HAPROXY ? describe : describe.skip;

describeWithHaproxy('three processes behind HAProxy, restarted one at a time under load', () => {
  const dbName = randomName('nagai_roll');
  let dbUrl: string | undefined;
  let knex: Knex | undefined;
  const servers: (ServerProcess | undefined)[] = [];
  const ports: number[] = [];
  let haproxy: ChildProcess | undefined;
  let haproxyLog = '';
  let dir = '';
  let base = '';
  let stats = '';
  let env: Record<string, string> = {};

  beforeAll(async () => {
    dbUrl = await createDatabase(SHARED_PG_URL, dbName);
    knex = openKnex(dbUrl);
    env = {
      DATABASE_URL: dbUrl,
      DB_POOL_MAX: '6',
      DB_CONNECTION_TIMEOUT_MS: '10000',
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      EVENT_STREAM_HEARTBEAT_MS: '5000',
      CALL_INITIATE_LIMIT_PER_USER_PER_MINUTE: '100000',
      SEARCH_LIMIT_PER_IP_PER_MINUTE: '100000',
      // The catalogue answers are each process's own for a few seconds, as in production.
      CATALOG_CACHE_TTL_MS: '2000',
      LOG_LEVEL: 'warn',
    };
    // The site's address is the balancer's: the processes compare a request's Origin with it (CSRF).
    const front = await freePort();
    const statsPort = await freePort();
    base = `http://127.0.0.1:${front}`;
    env.PUBLIC_ORIGIN = base;
    for (let i = 0; i < PROCESSES; i++) ports.push(await freePort());
    const started = await Promise.allSettled(ports.map((port) => startServer(env, { port })));
    for (const r of started) servers.push(r.status === 'fulfilled' ? r.value : undefined);
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;

    stats = `http://127.0.0.1:${statsPort}/stats`;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-haproxy-'));
    // The configuration docs/operations.md recommends, with the checks tightened so the test stays short.
    const config = [
      'global',
      '  maxconn 4000',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  timeout http-keep-alive 10s',
      '  timeout queue 10s',
      '  retries 3',
      '  option redispatch 1',
      'frontend web',
      `  bind 127.0.0.1:${front}`,
      '  default_backend nagai',
      'frontend stats',
      `  bind 127.0.0.1:${statsPort}`,
      '  stats enable',
      '  stats uri /stats',
      'backend nagai',
      '  balance leastconn',
      '  option httpchk GET /healthz',
      '  http-check expect status 200',
      '  timeout check 3s',
      '  default-server inter 400ms fall 2 rise 2',
      ...ports.map((port, i) => `  server p${i + 1} 127.0.0.1:${port} check`),
      '',
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'haproxy.cfg'), config);
    execFileSync(HAPROXY!, ['-c', '-q', '-f', path.join(dir, 'haproxy.cfg')]);
    haproxy = spawn(HAPROXY!, ['-db', '-f', path.join(dir, 'haproxy.cfg')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    haproxy.stdout!.on('data', (c: Buffer) => (haproxyLog = (haproxyLog + c.toString()).slice(-4000)));
    haproxy.stderr!.on('data', (c: Buffer) => (haproxyLog = (haproxyLog + c.toString()).slice(-4000)));
    const deadline = Date.now() + 20_000;
    for (;;) {
      const states = await backendStates(stats).catch(() => new Map<string, string>());
      if ([...states.values()].filter((s) => s === 'UP').length === PROCESSES) break;
      if (Date.now() > deadline) throw new Error(`HAProxy did not see the servers up:\n${haproxyLog}`);
      await sleep(100);
    }
  });

  afterAll(async () => {
    haproxy?.kill('SIGKILL');
    await Promise.allSettled(servers.map((s) => s?.stop()));
    await knex?.destroy();
    if (dbUrl) await dropDatabase(SHARED_PG_URL, dbName);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('restarts all three with no failed request, no missed event, the live calls intact and a ring during the restart', async () => {
    const testStart = Date.now();
    const db = knex!;
    // The people: sellers with five open streams each, customers who browse and buy, callers, two live calls.
    const sellers = await Promise.all(Array.from({ length: SELLERS }, () => buildSeller(db)));
    const sellerCookies = await Promise.all(sellers.map((s) => sessionCookie(db, s.id)));
    const customer = async () => {
      const u = await buildUser(db, { role: 'customer' });
      return { id: u.id, cookie: await sessionCookie(db, u.id) };
    };
    const buyers = await Promise.all(Array.from({ length: 4 }, customer));
    const callers = await Promise.all(Array.from({ length: 4 }, customer));
    const ringCaller = await customer();
    const products = await Promise.all(
      sellers.slice(0, 5).map((s) => buildProduct(db, s.id, { price: '1250.00', stockQuantity: 100_000 })),
    );
    const live = await Promise.all(
      [0, 1].map(async () => {
        const c = await customer();
        const s = await buildSeller(db);
        return { customer: c, seller: { id: s.id, cookie: await sessionCookie(db, s.id) }, callId: 0 };
      }),
    );
    // The seller rung during each restart streams through the balancer like everyone else.
    const ringSeller = sellers[SELLERS - 1];

    // A slow answer is not a failed one: on a loaded 2-core machine a server-rendered page has taken over 15 s.
    const req = (...args: Parameters<typeof call>) =>
      call(args[0], args[1], args[2], { timeoutMs: 30_000, ...args[3] });
    const answers: { what: string; a: Answer }[] = [];
    const check = (what: string, a: Answer, ok: number[]) => {
      answers.push({ what, a });
      if (!ok.includes(a.status))
        failures.push(`${what}: ${a.status} ${a.failure ?? JSON.stringify(a.body)}`);
      return a;
    };
    const failures: string[] = [];

    // The two live calls: placed, rung and accepted before the restarts (the sellers' apps are open: #40).
    for (const l of live) {
      await markSellerAppOpen(db, l.seller.id);
      const placed = check(
        'live initiate',
        await req(base, 'POST', '/_api/call/initiate', {
          cookie: l.customer.cookie,
          body: { sellerId: l.seller.id },
        }),
        [201],
      );
      l.callId = placed.body.callId as number;
      check(
        'live accept',
        await req(base, 'POST', '/_api/call/respond', {
          cookie: l.seller.cookie,
          body: { callId: l.callId, response: 'accept' },
        }),
        [200],
      );
    }
    const liveStreams = live.map((l) => ({
      customer: new ResumingStream(base, l.customer.cookie),
      seller: new ResumingStream(base, l.seller.cookie),
    }));

    // 500 streams through the balancer (leastconn spreads them over the three processes).
    const streams = sellers.flatMap((s, i) =>
      Array.from({ length: STREAMS_PER_SELLER }, () => ({
        userId: s.id,
        stream: new ResumingStream(base, sellerCookies[i]),
      })),
    );
    const all = [...streams.map((s) => s.stream), ...liveStreams.flatMap((l) => [l.customer, l.seller])];
    for (const s of all) s.open();
    const openDeadline = Date.now() + 30_000;
    while (all.some((s) => s.firstCursor === undefined)) {
      if (Date.now() > openDeadline) throw new Error('the streams did not all open');
      await sleep(50);
    }
    // Open streams are open apps: each process refreshes its streaming sellers' presence every 5 s; the first
    // refresh is made sure of here, so the first calls find the sellers reachable (issue #40).
    for (const seller of sellers) await markSellerAppOpen(db, seller.id);
    const perProcess = await Promise.all(
      servers.map(async (s) => {
        const h = await call(s!.url, 'GET', '/healthz');
        return h.status;
      }),
    );
    expect(perProcess).toEqual([200, 200, 200]);

    // The steady mix, until told to stop.
    let running = true;
    const loops: Promise<void>[] = [];
    const loop = (fn: () => Promise<void>) =>
      loops.push(
        (async () => {
          // A steady mix, not a saturating one: the restarts are what is measured.
          while (running) {
            await fn();
            await sleep(100);
          }
        })(),
      );
    for (let w = 0; w < 3; w++) {
      let n = w;
      loop(async () => {
        n++;
        const kind = n % 3;
        if (kind === 0)
          check(
            'browse list',
            await req(base, 'GET', `/_api/products/list?page=${1 + (n % 3)}&pageSize=12`),
            [200],
          );
        else if (kind === 1)
          check(
            'browse product',
            await req(base, 'GET', `/_api/products/get?id=${products[n % products.length].id}`),
            [200],
          );
        else check('browse page', await req(base, 'GET', '/marketplace'), [200]);
      });
    }
    for (const b of buyers) {
      let n = 0;
      loop(async () => {
        n++;
        check(
          'cart add',
          await req(base, 'POST', '/_api/cart/add', {
            cookie: b.cookie,
            body: { productId: products[n % products.length].id, quantity: 1 },
          }),
          [200],
        );
        check(
          'checkout',
          await req(base, 'POST', '/_api/checkout/create', {
            cookie: b.cookie,
            body: checkoutBody,
            headers: { 'Idempotency-Key': crypto.randomUUID() },
          }),
          [201],
        );
      });
    }
    // Calls placed and hung up: each rings one of the streaming sellers (its own quarter of them).
    callers.forEach((c, w) => {
      let n = 0;
      loop(async () => {
        const seller = sellers[(w + 4 * n++) % (SELLERS - 1)];
        const placed = check(
          'call initiate',
          await req(base, 'POST', '/_api/call/initiate', {
            cookie: c.cookie,
            body: { sellerId: seller.id },
          }),
          [201],
        );
        await sleep(150);
        if (placed.status === 201)
          check(
            'call end',
            await req(base, 'POST', '/_api/call/end', {
              cookie: c.cookie,
              body: { callId: placed.body.callId },
            }),
            [200],
          );
      });
    });
    // The live calls: each side sends a signal every 200 ms and checks the call's status.
    const sentSignals = live.map(() => ({ customer: [] as number[], seller: [] as number[] }));
    live.forEach((l, i) => {
      for (const side of ['customer', 'seller'] as const) {
        loop(async () => {
          const sent = check(
            'live signal',
            await req(base, 'POST', '/_api/call/signal', {
              cookie: l[side].cookie,
              body: {
                callId: l.callId,
                kind: 'candidate',
                payload: { candidate: `candidate:${crypto.randomUUID()}` },
              },
            }),
            [201],
          );
          if (sent.status === 201) sentSignals[i][side].push(sent.body.id as number);
          const status = check(
            'live status',
            await req(base, 'GET', `/_api/call/status?callId=${l.callId}`, { cookie: l[side].cookie }),
            [200],
          );
          if (status.status === 200 && status.body.status !== 'active')
            failures.push(`live call ${l.callId} is ${String(status.body.status)}`);
          await sleep(200);
        });
      }
    });
    await sleep(1500);

    const t0 = Date.now();
    console.log(`set up in ${Date.now() - testStart} ms`);
    // The rolling restart.
    const ringStreams = streams.filter((s) => s.userId === ringSeller.id).map((s) => s.stream);
    const rings: number[] = [];
    const starts: number[] = [];
    const drains: {
      termAt: number;
      downAt: number;
      exitedAt: number;
      code: number | null;
      /** When the process's own /healthz first answered 503, and when it first refused a connection. */
      notReadyAt: number;
      closedAt: number;
      /** Requests sent straight to the stopping process (past the balancer) before it left the pool. */
      direct: { at: number; status: number; failure?: string }[];
    }[] = [];
    for (let i = 0; i < PROCESSES; i++) {
      const old = servers[i]!;
      const name = `p${i + 1}`;
      let downAt = 0;
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          const state = (await backendStates(stats).catch(() => new Map())).get(name);
          // Out of the pool: DOWN (or MAINT). "UP 1/2" is a failed check that still gets traffic.
          if (state && /^(DOWN|MAINT)/.test(state) && !downAt) downAt = Date.now();
          await sleep(50);
        }
      })();
      // Straight to the stopping process, past HAProxy (whose retries and redispatch would hide a refused
      // connection): a real request every 100 ms until the balancer takes it out of the pool, each of which
      // must be answered 200, and its readiness, which must fail at once and keep answering until it stops.
      const direct: { at: number; status: number; failure?: string }[] = [];
      let notReadyAt = 0;
      let closedAt = 0;
      // Until the process refuses a connection (it has then closed its listener, or exited). Each request is
      // sent on its own timer, not after the one before it: a slow answer must not thin out the probing.
      const sent: Promise<void>[] = [];
      const probe = async () => {
        const at = Date.now();
        const a = await call(old.url, 'GET', `/_api/products/get?id=${products[0].id}`, {
          timeoutMs: 30_000,
        });
        answers.push({ what: 'direct to the stopping process', a });
        if (!downAt || at < downAt) direct.push({ at, status: a.status, failure: a.failure });
      };
      const requests = setInterval(() => {
        if (!downAt) sent.push(probe());
      }, 100);
      const readiness = (async () => {
        while (!closedAt) {
          const at = Date.now();
          const h = await call(old.url, 'GET', '/healthz', { timeoutMs: 30_000 });
          // When the check that saw it was sent: what a balancer's check sent then would see.
          if (h.status === 503) notReadyAt ||= at;
          else if (h.status !== 200) closedAt ||= at;
          await sleep(50);
        }
      })();
      const prober = (async () => {
        await readiness;
        clearInterval(requests);
        await Promise.all(sent);
      })();
      const termAt = Date.now();
      old.child.kill('SIGTERM');
      // A call placed while the process drains rings the seller at once, wherever the seller's streams are.
      await sleep(300);
      const placed = check(
        'ring during restart',
        await req(base, 'POST', '/_api/call/initiate', {
          cookie: ringCaller.cookie,
          body: { sellerId: ringSeller.id },
        }),
        [201],
      );
      const placedAt = Date.now();
      const callId = placed.body.callId as number;
      // The seller is rung on whichever of the five devices gets it first.
      const isRing = (e: ResumingStream['events'][number]) =>
        e.event === 'incoming' && (e.data as { callId: number }).callId === callId;
      const ring = await Promise.any(ringStreams.map((st) => st.waitFor(isRing, 5000))).catch(
        () => undefined,
      );
      if (ring) rings.push(ring.at - placedAt);
      else failures.push(`restart ${i + 1}: call ${callId} (${placed.status}) did not ring within 5 s`);
      check(
        'ring end',
        await req(base, 'POST', '/_api/call/end', { cookie: ringCaller.cookie, body: { callId } }),
        [200],
      );

      const exited = await old.exited;
      const exitedAt = Date.now();
      await prober;
      drains.push({ termAt, downAt, exitedAt, code: exited.code, notReadyAt, closedAt, direct });
      if (exited.code !== 0 || Date.now() - termAt > DRAIN_MS + 4000)
        console.log(`p${i + 1} stopped slowly (${exited.code}):\n${old.stderr().slice(-3000)}`);
      watching = false;
      await watcher;
      const startAt = Date.now();
      servers[i] = await startServer(env, { port: ports[i] });
      starts.push(Date.now() - startAt);
      const upDeadline = Date.now() + 20_000;
      while ((await backendStates(stats)).get(name) !== 'UP') {
        if (Date.now() > upDeadline) throw new Error(`${name} did not come back up:\n${haproxyLog}`);
        await sleep(100);
      }
    }
    console.log(`restarted in ${Date.now() - t0} ms`);
    await sleep(1000);
    running = false;
    await Promise.all(loops);

    // Every stream catches up with the log (the last events were written a moment ago).
    const expectedByUser = new Map<number, { id: number }[]>();
    const rows = (await db('call_events')
      .whereIn(
        'user_id',
        sellers.map((s) => s.id),
      )
      .where('kind', 'call')
      .select('id', 'user_id')) as { id: number | string; user_id: number }[];
    for (const r of rows) {
      const list = expectedByUser.get(r.user_id) ?? [];
      list.push({ id: Number(r.id) });
      expectedByUser.set(r.user_id, list);
    }
    const missing = () =>
      streams.flatMap(({ userId, stream }) => {
        const got = new Set(stream.ids);
        return (expectedByUser.get(userId) ?? [])
          .filter((e) => e.id > stream.firstCursor! && !got.has(e.id))
          .map((e) => `user ${userId}: event ${e.id}`);
      });
    const catchUp = Date.now() + 10_000;
    while (missing().length && Date.now() < catchUp) await sleep(100);
    for (const l of liveStreams) for (const s of [l.customer, l.seller]) s.close();
    for (const { stream } of streams) stream.close();

    const slowest = Math.round(Math.max(...answers.map((x) => x.a.ms)));
    const times = answers.map((x) => x.a.ms).sort((a, b) => a - b);
    const p99 = Math.round(times[Math.floor(times.length * 0.99)]);
    const counts = new Map<string, number>();
    for (const { what } of answers) counts.set(what, (counts.get(what) ?? 0) + 1);
    console.log(
      `rolling restart: ${answers.length} requests (${[...counts].map(([k, v]) => `${k} ${v}`).join(', ')}); ` +
        `${rows.length} call events to ${streams.length} streams, ` +
        `${streams.reduce((n, s) => n + s.stream.connects - 1, 0)} reconnections; ` +
        `slowest answer ${slowest} ms, p99 ${p99} ms; rings during the restarts after ${rings.join(', ')} ms; new processes started in ${starts.join(', ')} ms; ` +
        `SIGTERM → not ready → out of the pool → listener closed → exit: ${drains.map((d) => `${d.notReadyAt - d.termAt}/${d.downAt - d.termAt}/${d.closedAt - d.termAt}/${d.exitedAt - d.termAt}`).join(', ')} ms; ` +
        `requests straight to the stopping processes before they left the pool: ${drains.map((d) => d.direct.length).join(', ')}`,
    );
    const kinds = new Map<string, number>();
    for (const f of failures) {
      const k = f.slice(0, 60);
      kinds.set(k, (kinds.get(k) ?? 0) + 1);
    }
    if (kinds.size) console.log('failures:', [...kinds]);

    expect(failures.slice(0, 20)).toEqual([]);
    expect(answers.length).toBeGreaterThan(200);
    expect(counts.get('checkout') ?? 0).toBeGreaterThan(10);
    expect(counts.get('call initiate') ?? 0).toBeGreaterThan(20);
    // No stream missed an event; each received its events once and in order.
    expect(missing().slice(0, 20)).toEqual([]);
    expect(rows.length).toBeGreaterThan(50);
    for (const { stream } of streams) {
      expect(stream.refused).toEqual([]);
      expect(stream.ids).toEqual([...new Set(stream.ids)].sort((a, b) => a - b));
      // Every process was restarted, so every stream moved at least once.
      expect(stream.connects).toBeGreaterThan(1);
    }
    // The live calls are still active and every signal sent by one side reached the other's stream.
    for (const [i, l] of live.entries()) {
      const status = await req(base, 'GET', `/_api/call/status?callId=${l.callId}`, {
        cookie: l.customer.cookie,
      });
      expect(status.body.status).toBe('active');
      const got = (s: ResumingStream) =>
        new Set(s.events.filter((e) => e.event === 'signal').map((e) => (e.data as { id: number }).id));
      const atSeller = got(liveStreams[i].seller);
      const atCustomer = got(liveStreams[i].customer);
      expect(sentSignals[i].customer.length).toBeGreaterThan(10);
      expect(sentSignals[i].customer.filter((id) => !atSeller.has(id))).toEqual([]);
      expect(sentSignals[i].seller.filter((id) => !atCustomer.has(id))).toEqual([]);
    }
    // Each ring during a restart arrived within 3 s: within a second on a stream that stays, and after the
    // reconnection (spread over 0.2-1.2 s) on one that was moving off the stopping process.
    expect(rings).toHaveLength(PROCESSES);
    for (const ms of rings) expect(ms).toBeLessThan(3000);
    // Answers stay quick while processes come and go: the 99th percentile under 5 s (a request is given 30 s
    // before it counts as failed, so this is what catches answers held up by the restarts).
    expect(p99).toBeLessThan(5000);
    // Each stopping process: its readiness failed at once (within 1 s of SIGTERM, where HAProxy's check
    // every 400 ms sees it), it answered every request sent straight to it, 200, until the balancer took it
    // out of the pool, it stopped listening only after that, and it exited cleanly.
    for (const d of drains) {
      expect(d.code).toBe(0);
      expect(d.notReadyAt).toBeGreaterThan(0);
      expect(d.notReadyAt - d.termAt).toBeLessThan(1000);
      expect(d.downAt).toBeGreaterThan(0);
      // Two failed checks 400 ms apart take it out of the pool: requests went to it meanwhile.
      expect(d.direct.length).toBeGreaterThanOrEqual(2);
      expect(d.direct.filter((r) => r.status !== 200)).toEqual([]);
      expect(d.closedAt).toBeGreaterThan(d.downAt);
      expect(d.exitedAt).toBeGreaterThan(d.downAt);
    }
    expect(await orderProblems(db)).toEqual([]);
  }, 480_000);
});
