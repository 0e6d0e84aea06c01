/**
 * Whole-system load scenario (issue 8): one API process on PostgreSQL with 100k products, 2,000 sellers and
 * 50k past orders; a closed-loop mix of visitors browsing and searching, customers using carts and customers
 * checking out, while every seller polls for incoming calls every 4 s (open loop) and a few calls are placed,
 * answered and ended. Then the same mix, shorter, on the embedded PGlite database with the same data set.
 *   npm run bench:load
 *   (BENCH_SECONDS, BENCH_CONCURRENCY, BENCH_SELLERS_ONLINE, BENCH_POOL_MAX, BENCH_PGLITE_SECONDS,
 *    BENCH_PGLITE_SELLERS_ONLINE, BENCH_PGLITE=0 to skip the PGlite run, BENCH_LOAD_DATABASE_URL)
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import pg from 'pg';
import { PRODUCT_CATEGORIES, PRODUCT_MATERIALS, SORT_OPTIONS } from '../../api/contract/constants';
import { openPglite } from '../../db/connection';
import {
  BENCH_DATABASE_URL,
  fmt,
  machineLine,
  openKnex,
  prepareData,
  REPO,
  runLoad,
  runOpenLoop,
  sessionsFor,
  startServer,
  statsTable,
  summarize,
  writeSection,
  type LabelStats,
  type LoadResult,
  type RequestSpec,
  type ServerProcess,
} from './lib/harness';
import { ensureCustomers } from './lib/users';

const DATA = { products: 100_000, sellers: 2_000, orders: 50_000 };
/**
 * A database of its own: the bulk generator writes past orders only for the products it creates in the same
 * run, so the orders cannot be added later to the shared bench database that other benchmarks filled.
 */
const LOAD_DATABASE_URL =
  process.env.BENCH_LOAD_DATABASE_URL ??
  (() => {
    const u = new URL(BENCH_DATABASE_URL);
    u.pathname = `${u.pathname}_load`;
    return u.toString();
  })();
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ONLINE = Number(process.env.BENCH_SELLERS_ONLINE ?? 2_000);
const POOL_MAX = Number(process.env.BENCH_POOL_MAX ?? 20);
const PGLITE = process.env.BENCH_PGLITE !== '0';
const PGLITE_SECONDS = Number(process.env.BENCH_PGLITE_SECONDS ?? 20);
const PGLITE_ONLINE = Number(process.env.BENCH_PGLITE_SELLERS_ONLINE ?? 500);
const POLL_MS = 4_000;
/** Shares of the closed-loop actions (the issue's 70 / 15 / 5; seller polling is its own open loop). */
const MIX = { browse: 70, cart: 15, checkout: 5 };
const CALLERS = 20;

const TERMS = [
  'gold',
  'jhumka',
  'neck',
  'necklace',
  'ring',
  'bangle',
  'silver anklet',
  'pearl',
  'temple',
  'kundan',
  'diamond ring',
  'mangalsutra',
  // Misspellings and partial words people type.
  'jumka',
  'necklce',
  'chian',
  'earing',
  'bangel',
  'braclet',
  'mangalsutr',
  'dimond',
  'templ',
  'pearll',
];
const SHOP_WORDS = ['lakshmi', 'saravana', 'thanga', 'sri', 'royal', 'jewelers', 'maaligai', 'annai'];
const CHECKOUT_BODY = {
  customerName: 'Bench Customer',
  customerPhone: '9876543210',
  shippingAddress: '12 Bench Road, Anna Nagar',
  city: 'Chennai',
  state: 'Tamil Nadu',
  pinCode: '600040',
  paymentMethod: 'cash_on_delivery',
};

const pick = <T>(list: readonly T[]): T => list[crypto.randomInt(list.length)];
const chance = (p: number) => Math.random() < p;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** Everything a run needs from its database, prepared before the server starts (PGlite has one owner). */
interface Fixture {
  cartCustomers: number[];
  checkoutCustomers: number[];
  callers: number[];
  pollers: number[];
  videoSellers: number[];
  stockPool: number[];
  productIds: number[];
  slugs: string[];
  cities: string[];
  cookies: Map<number, string>;
}

async function prepareFixture(knex: Knex, online: number): Promise<Fixture> {
  const customers = await ensureCustomers(knex, 2 * CONCURRENCY + CALLERS);
  const cartCustomers = customers.slice(0, CONCURRENCY);
  const checkoutCustomers = customers.slice(CONCURRENCY, 2 * CONCURRENCY);
  const callers = customers.slice(2 * CONCURRENCY);
  await knex('cart_items').whereIn('user_id', customers).delete();
  // Calls a previous run left live would make the next call refused ('already in a call').
  await knex('calls')
    .whereIn('caller_id', callers)
    .whereIn('status', ['pending', 'ringing', 'active'])
    .update({ status: 'ended', ended_at: new Date() });
  await knex('rate_limits').where('key', 'like', 'call%').delete();
  const pollers = (await knex('users as u')
    .join('seller_profiles as s', 's.user_id', 'u.id')
    .where('u.role', 'seller')
    .orderBy('u.id')
    .limit(online)
    .pluck('u.id')) as number[];
  const videoSellers = (await knex('seller_profiles')
    .whereIn('user_id', pollers)
    .where({ is_approved: true, video_call_enabled: true })
    .orderBy('user_id')
    .pluck('user_id')) as number[];
  if (pollers.length < online || videoSellers.length < 10)
    throw new Error(`the data set has ${pollers.length} sellers (${videoSellers.length} take calls)`);
  const publicProducts = () =>
    knex('products as p').where('p.seller_approved', true).whereNull('p.deleted_at').orderByRaw('random()');
  // Checkouts and carts draw from products whose stock is raised, so a 409 'Only n available' is never a
  // correct answer in this run and counts as an error.
  const stockPool = (await publicProducts().limit(2000).pluck('p.id')) as number[];
  await knex('products').whereIn('id', stockPool).update({ stock_quantity: 1_000_000 });
  const productIds = (await publicProducts().limit(5000).pluck('p.id')) as number[];
  const slugs = (await knex('seller_profiles')
    .where('is_approved', true)
    .whereNotNull('url_slug')
    .orderByRaw('random()')
    .limit(500)
    .pluck('url_slug')) as string[];
  const cities = (await knex('seller_profiles').distinct('city').limit(30).pluck('city')) as string[];
  // Old bench sessions would only grow the table run after run.
  const signedIn = [...customers, ...pollers];
  await knex('sessions').whereIn('user_id', signedIn).delete();
  const cookies = await sessionsFor(knex, signedIn);
  return {
    cartCustomers,
    checkoutCustomers,
    callers,
    pollers,
    videoSellers,
    stockPool,
    productIds,
    slugs,
    cities,
    cookies,
  };
}

/** One visitor request: listing pages with varied filters, searches, the directory, storefronts, details. */
function visitorRequest(f: Fixture): RequestSpec {
  const r = crypto.randomInt(100);
  if (r < 30) {
    const q = new URLSearchParams();
    // Mostly the first pages, sometimes deeper, as people page.
    q.set('page', String(chance(0.7) ? 1 : chance(0.8) ? crypto.randomInt(2, 6) : crypto.randomInt(6, 60)));
    q.set('limit', '20');
    if (chance(0.5)) q.set('category', pick(PRODUCT_CATEGORIES));
    if (chance(0.35)) q.set('material', pick(PRODUCT_MATERIALS));
    if (chance(0.25)) {
      const min = pick([0, 5000, 10000, 25000, 50000]);
      q.set('minPrice', String(min));
      q.set('maxPrice', String(min + pick([20000, 50000, 100000, 250000])));
    }
    if (chance(0.6)) q.set('sortBy', pick(SORT_OPTIONS));
    const search = chance(0.2);
    if (search) q.set('query', pick(TERMS));
    return { label: search ? 'products/list (search)' : 'products/list', path: `/_api/products/list?${q}` };
  }
  if (r < 50) {
    return {
      label: 'search/suggestions',
      path: `/_api/search/suggestions?query=${encodeURIComponent(pick(TERMS))}`,
    };
  }
  if (r < 65) return { label: 'products/get', path: `/_api/products/get?id=${pick(f.productIds)}` };
  if (r < 75) {
    const q = new URLSearchParams({ page: String(chance(0.7) ? 1 : crypto.randomInt(2, 10)), limit: '12' });
    if (chance(0.3)) q.set('city', pick(f.cities));
    if (chance(0.3)) q.set('searchQuery', pick(SHOP_WORDS));
    return { label: 'sellers/list', path: `/_api/sellers/list?${q}` };
  }
  if (r < 80) return { label: 'sellers/top', path: '/_api/sellers/top?limit=8' };
  if (r < 95) {
    return {
      label: 'seller/store',
      path: `/_api/seller/store?slug=${encodeURIComponent(pick(f.slugs))}&page=${chance(0.8) ? 1 : 2}&limit=20`,
    };
  }
  return { label: 'catalog/stats', path: '/_api/catalog/stats' };
}

type Send = (spec: RequestSpec) => Promise<{ status: number; body: string } | null>;

interface PoolSampleStats {
  samples: number;
  meanBusy: number;
  p95Busy: number;
  maxBusy: number;
  maxOpen: number;
  saturatedShare: number;
  lockShare: number;
  waits: [string, number][];
}

/**
 * Samples the server's connections in pg_stat_activity every 250 ms (the server exposes nothing for this).
 * A connection is busy when it runs a statement or holds a transaction open; when every pooled connection
 * is busy, a new request waits for one — the share of such samples is the measure of pool waits.
 */
function samplePool(url: string, poolMax: number) {
  const client = new pg.Client({ connectionString: url, application_name: 'nagai-bench-sampler' });
  const busy: number[] = [];
  const open: number[] = [];
  let saturated = 0;
  let lockSamples = 0;
  const waits = new Map<string, number>();
  let running = true;
  const loop = (async () => {
    await client.connect();
    while (running) {
      const t0 = performance.now();
      const { rows } = await client.query<{
        state: string | null;
        wait_event_type: string | null;
        wait_event: string | null;
      }>(
        `select state, wait_event_type, wait_event from pg_stat_activity
          where datname = current_database() and application_name = 'nagai' and backend_type = 'client backend'`,
      );
      const b = rows.filter((r) => r.state === 'active' || r.state?.startsWith('idle in transaction'));
      busy.push(b.length);
      open.push(rows.length);
      if (b.length >= poolMax) saturated++;
      if (b.some((r) => r.wait_event_type === 'Lock')) lockSamples++;
      for (const r of b) {
        const key =
          r.state === 'active'
            ? r.wait_event_type
              ? `${r.wait_event_type}:${r.wait_event}`
              : 'on CPU'
            : r.state!;
        waits.set(key, (waits.get(key) ?? 0) + 1);
      }
      await sleep(Math.max(0, 250 - (performance.now() - t0)));
    }
    await client.end();
  })();
  return {
    async stop(): Promise<PoolSampleStats> {
      running = false;
      await loop;
      const s = summarize('busy', busy);
      const total = [...waits.values()].reduce((a, c) => a + c, 0) || 1;
      return {
        samples: busy.length,
        meanBusy: s.mean,
        p95Busy: s.p95,
        maxBusy: s.max,
        maxOpen: Math.max(0, ...open),
        saturatedShare: busy.length ? saturated / busy.length : NaN,
        lockShare: busy.length ? lockSamples / busy.length : NaN,
        waits: [...waits]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 6)
          .map(([k, v]) => [k, v / total]),
      };
    },
  };
}

interface MixResult {
  seconds: number;
  online: number;
  closed: LoadResult;
  poll: LoadResult & { offered: number };
  calls: LoadResult;
  callsPlaced: number;
  callsAnswered: number;
  callsEnded: number;
  actions: { browse: number; cart: number; checkout: number };
  ordersPlaced: number;
  cpuSeconds: number;
  rssMb: number;
  pool?: PoolSampleStats;
  loadBefore: string;
  loadAfter: string;
}

async function runMix(
  server: ServerProcess,
  f: Fixture,
  opts: { seconds: number; online: number; sampleUrl?: string },
): Promise<MixResult> {
  const durationMs = opts.seconds * 1000;
  const cookie = (id: number) => f.cookies.get(id)!;
  const actions = { browse: 0, cart: 0, checkout: 0 };
  let ordersPlaced = 0;
  const cartLines = f.cartCustomers.map(() => [] as number[]);
  const cartStep = f.cartCustomers.map(() => 0);
  const stats = { callsPlaced: 0, callsAnswered: 0, callsEnded: 0, failedInitiates: 0 };

  /** A customer's cart session, one step per action: add → list → change quantity → remove. */
  const cartAction = async (w: number, send: Send): Promise<RequestSpec | null> => {
    const headers = { Cookie: cookie(f.cartCustomers[w]) };
    const lines = cartLines[w];
    const step = cartStep[w]++ % 4;
    if (step === 0 || lines.length === 0) {
      const res = await send({
        label: 'cart/add',
        method: 'POST',
        path: '/_api/cart/add',
        body: { productId: pick(f.stockPool), quantity: 1 },
        headers,
      });
      if (res && res.status === 200) {
        const id = (JSON.parse(res.body) as { cartItemId: number }).cartItemId;
        if (!lines.includes(id)) lines.push(id);
      }
      return null;
    }
    if (step === 1) return { label: 'cart/list', path: '/_api/cart/list', headers };
    if (step === 2) {
      return {
        label: 'cart/update',
        method: 'POST',
        path: '/_api/cart/update',
        body: { cartItemId: pick(lines), quantity: crypto.randomInt(1, 4) },
        headers,
      };
    }
    return {
      label: 'cart/remove',
      method: 'POST',
      path: '/_api/cart/remove',
      body: { cartItemId: lines.shift()! },
      headers,
    };
  };

  /** One checkout: one or two products (often from two shops) into the cart, then the order. */
  const checkoutAction = async (w: number, send: Send): Promise<RequestSpec> => {
    const headers = { Cookie: cookie(f.checkoutCustomers[w]) };
    for (let i = chance(0.5) ? 2 : 1; i > 0; i--) {
      await send({
        label: 'cart/add',
        method: 'POST',
        path: '/_api/cart/add',
        body: { productId: pick(f.stockPool), quantity: crypto.randomInt(1, 3) },
        headers,
      });
    }
    return {
      label: 'checkout/create',
      method: 'POST',
      path: '/_api/checkout/create',
      headers: { ...headers, 'Idempotency-Key': crypto.randomUUID() },
      body: CHECKOUT_BODY,
    };
  };

  const sampler = opts.sampleUrl ? samplePool(opts.sampleUrl, POOL_MAX) : undefined;
  const loadBefore = loadavg();
  server.resetUsage();
  const total = MIX.browse + MIX.cart + MIX.checkout;
  const [closed, poll, calls] = await Promise.all([
    runLoad({
      url: server.url,
      concurrency: CONCURRENCY,
      durationMs,
      next: async (w, send) => {
        const r = crypto.randomInt(total);
        if (r < MIX.browse) {
          actions.browse++;
          return visitorRequest(f);
        }
        if (r < MIX.browse + MIX.cart) {
          actions.cart++;
          return cartAction(w, send);
        }
        actions.checkout++;
        const spec = await checkoutAction(w, send);
        const res = await send(spec);
        if (res?.status === 201)
          ordersPlaced += (JSON.parse(res.body) as { orders: unknown[] }).orders.length;
        return null;
      },
    }),
    runOpenLoop({
      url: server.url,
      ratePerSecond: opts.online / (POLL_MS / 1000),
      durationMs,
      next: (i) => ({
        label: 'call/incoming (poll)',
        path: '/_api/call/incoming',
        headers: { Cookie: cookie(f.pollers[i % f.pollers.length]) },
      }),
    }),
    // A few real calls: a customer rings a seller, the seller accepts, the customer checks and hangs up.
    runLoad({
      url: server.url,
      concurrency: 1,
      durationMs: Math.max(1000, durationMs - 3000),
      next: async (_w, send) => {
        const k = stats.callsPlaced + stats.failedInitiates;
        const customer = f.callers[k % f.callers.length];
        const seller = f.videoSellers[(k * 97) % f.videoSellers.length];
        const init = await send({
          label: 'call/initiate',
          method: 'POST',
          path: '/_api/call/initiate',
          body: { sellerId: seller },
          headers: { Cookie: cookie(customer) },
        });
        if (init?.status !== 201) {
          stats.failedInitiates++;
          await sleep(1000);
          return null;
        }
        stats.callsPlaced++;
        const { callId } = JSON.parse(init.body) as { callId: number };
        await sleep(300);
        const ans = await send({
          label: 'call/respond',
          method: 'POST',
          path: '/_api/call/respond',
          body: { callId, response: 'accept' },
          headers: { Cookie: cookie(seller) },
        });
        if (ans?.status === 200) stats.callsAnswered++;
        await sleep(500);
        await send({
          label: 'call/status',
          path: `/_api/call/status?callId=${callId}`,
          headers: { Cookie: cookie(customer) },
        });
        const end = await send({
          label: 'call/end',
          method: 'POST',
          path: '/_api/call/end',
          body: { callId },
          headers: { Cookie: cookie(customer) },
        });
        if (end?.status === 200) stats.callsEnded++;
        await sleep(700);
        return null;
      },
    }),
  ]);
  const usage = server.usage();
  const pool = await sampler?.stop();
  return {
    seconds: opts.seconds,
    online: opts.online,
    closed,
    poll,
    calls,
    callsPlaced: stats.callsPlaced,
    callsAnswered: stats.callsAnswered,
    callsEnded: stats.callsEnded,
    actions,
    ordersPlaced,
    cpuSeconds: usage.cpuSeconds,
    rssMb: usage.rssMb,
    pool,
    loadBefore,
    loadAfter: loadavg(),
  };
}

/**
 * The same data set in an embedded database: generated once into .tmp (like the PostgreSQL bench database,
 * it is kept between runs) and copied to a fresh temporary DATA_DIR for each run.
 */
async function pgliteTemplate(): Promise<{ dir: string; generatedSeconds?: number }> {
  const dir = path.join(REPO, '.tmp', 'bench-load-pglite', `${DATA.products}-${DATA.sellers}-${DATA.orders}`);
  if (fs.existsSync(path.join(dir, 'pglite'))) return { dir };
  const partial = `${dir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  const t0 = performance.now();
  const args = [
    '--import',
    'tsx',
    'api/src/seeds/generate.ts',
    '--products',
    String(DATA.products),
    '--sellers',
    String(DATA.sellers),
    '--orders',
    String(DATA.orders),
  ];
  console.log(`generating PGlite bench data: DATA_DIR=${partial} node ${args.join(' ')}`);
  execFileSync(process.execPath, args, {
    cwd: REPO,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: partial },
    stdio: 'inherit',
  });
  const db = await openPglite(path.join(partial, 'pglite'));
  try {
    await db.knex.raw('vacuum analyze');
  } finally {
    await db.close();
  }
  fs.renameSync(partial, dir);
  return { dir, generatedSeconds: (performance.now() - t0) / 1000 };
}

const rate = (r: LoadResult) => r.total / (r.durationMs / 1000);
const closedShare = (m: MixResult) => {
  const n = m.actions.browse + m.actions.cart + m.actions.checkout || 1;
  const pct = (v: number) => `${fmt((100 * v) / n, 0)}%`;
  return `${pct(m.actions.browse)} browsing / ${pct(m.actions.cart)} cart / ${pct(m.actions.checkout)} checkout`;
};

/** Per-endpoint rows: the closed-loop mix by volume, then the call flow, then the pollers. */
function rows(m: MixResult): LabelStats[] {
  return [...[...m.closed.byLabel].sort((a, b) => b.count - a.count), ...m.calls.byLabel, ...m.poll.byLabel];
}

function errorsOf(m: MixResult): { count: number; samples: string[] } {
  return {
    count: m.closed.errors + m.poll.errors + m.calls.errors,
    samples: [...m.closed.errorSamples, ...m.calls.errorSamples, ...m.poll.errorSamples].slice(0, 10),
  };
}

function runSummary(m: MixResult, poolMax: number | undefined): string {
  const wall = m.closed.durationMs / 1000;
  const pollWall = m.poll.durationMs / 1000;
  const offered = m.online / (POLL_MS / 1000);
  const lines = [
    `- Closed loop (${CONCURRENCY} users): **${fmt(rate(m.closed), 0)} req/s** (${m.closed.total} requests in ${fmt(wall)} s; actions ${closedShare(m)}); ${m.ordersPlaced} orders placed.`,
    `- Seller polling (open loop): offered ${fmt(offered, 0)} req/s, answered ${fmt(m.poll.total / pollWall, 0)} req/s over ${fmt(pollWall)} s (the last answers arrive after the ${m.seconds} s of offered load when the server queues).`,
    `- Calls: ${m.callsPlaced} placed, ${m.callsAnswered} answered, ${m.callsEnded} ended.`,
    `- All requests: ${m.closed.total + m.poll.total + m.calls.total}, **errors ${errorsOf(m).count}**.`,
    `- Server: CPU ${fmt(m.cpuSeconds)} s over ${fmt(Math.max(wall, pollWall))} s (${fmt((100 * m.cpuSeconds) / Math.max(wall, pollWall), 0)}% of one core), peak RSS ${fmt(m.rssMb, 0)} MB${poolMax ? `, pool ${poolMax}` : ''}.`,
    `- Load average (1/5/15 min): ${m.loadBefore} before, ${m.loadAfter} after.`,
  ];
  return lines.join('\n');
}

function poolSection(p: PoolSampleStats | undefined, poolMax: number): string {
  if (!p) return '';
  const pct = (v: number) => `${fmt(100 * v, 1)}%`;
  return `Database pool, from \`pg_stat_activity\` sampled every 250 ms by the bench (${p.samples} samples; the server's connections are those named \`nagai\`; busy = running a statement or inside a transaction):

| pool max | connections opened (max) | busy mean | busy p95 | busy max | samples with all ${poolMax} busy (new requests wait) | samples with a row-lock wait |
| --- | --- | --- | --- | --- | --- | --- |
| ${poolMax} | ${p.maxOpen} | ${fmt(p.meanBusy)} | ${fmt(p.p95Busy, 0)} | ${fmt(p.maxBusy, 0)} | ${pct(p.saturatedShare)} | ${pct(p.lockShare)} |

What busy connections were doing: ${p.waits.map(([k, v]) => `${k} ${pct(v)}`).join(', ') || 'nothing sampled'}.`;
}

function ratioSection(pgRun: MixResult, lite: MixResult, matched: boolean): string {
  const r = (a: number, b: number) =>
    Number.isFinite(a) && Number.isFinite(b) && b > 0 ? fmt(a / b, 2) : '–';
  const line = (name: string, a: number, b: number, unit: string) =>
    `| ${name} | ${fmt(a)} ${unit} | ${fmt(b)} ${unit} | ${r(b, a)} |`;
  const out = [
    '| measure | PostgreSQL | PGlite | PGlite / PostgreSQL |',
    '| --- | --- | --- | --- |',
    line('closed-loop throughput', rate(pgRun.closed), rate(lite.closed), 'req/s'),
    line(
      'polls answered',
      pgRun.poll.total / (pgRun.poll.durationMs / 1000),
      lite.poll.total / (lite.poll.durationMs / 1000),
      'req/s',
    ),
    line('closed-loop p50', pgRun.closed.all.p50, lite.closed.all.p50, 'ms'),
    line('closed-loop p95', pgRun.closed.all.p95, lite.closed.all.p95, 'ms'),
    line('closed-loop p99', pgRun.closed.all.p99, lite.closed.all.p99, 'ms'),
    line('poll p95', pgRun.poll.all.p95, lite.poll.all.p95, 'ms'),
  ];
  for (const label of ['products/list', 'search/suggestions', 'cart/list', 'checkout/create']) {
    const a = pgRun.closed.byLabel.find((x) => x.label === label);
    const b = lite.closed.byLabel.find((x) => x.label === label);
    if (a && b) out.push(line(`${label} p95`, a.p95, b.p95, 'ms'));
  }
  return `${matched ? 'Both runs below use the same settings' : 'Compared with the PostgreSQL run above'} (${lite.seconds} s, ${lite.online.toLocaleString('en-IN')} sellers polling, ${CONCURRENCY} users).

${out.join('\n')}`;
}

async function main() {
  const started = performance.now();
  const loadAtStart = loadavg();
  const t0 = performance.now();
  const data = await prepareData(DATA, LOAD_DATABASE_URL);
  const prepareSeconds = (performance.now() - t0) / 1000;
  console.log(`data: ${JSON.stringify(data)} (${fmt(prepareSeconds)} s)`);

  // 1. PostgreSQL, the full run.
  let knex = openKnex(LOAD_DATABASE_URL);
  let fixture = await prepareFixture(knex, ONLINE);
  await knex.destroy();
  const pgEnv = { DATABASE_URL: LOAD_DATABASE_URL, DB_POOL_MAX: String(POOL_MAX), SEED_DEMO: 'false' };
  let server = await startServer(pgEnv);
  let main: MixResult;
  try {
    main = await runMix(server, fixture, { seconds: SECONDS, online: ONLINE, sampleUrl: LOAD_DATABASE_URL });
  } finally {
    await server.stop();
  }
  console.log(
    `PostgreSQL run done: ${rate(main.closed).toFixed(0)} req/s closed loop, errors ${errorsOf(main).count}`,
  );

  // 2. PGlite, shorter; compared with a PostgreSQL run of the same settings.
  let lite: MixResult | undefined;
  let pgMatched: MixResult | undefined;
  let liteGenerated: number | undefined;
  if (PGLITE) {
    const matched = PGLITE_SECONDS !== SECONDS || PGLITE_ONLINE !== ONLINE;
    if (matched) {
      knex = openKnex(LOAD_DATABASE_URL);
      fixture = await prepareFixture(knex, PGLITE_ONLINE);
      await knex.destroy();
      server = await startServer(pgEnv);
      try {
        pgMatched = await runMix(server, fixture, { seconds: PGLITE_SECONDS, online: PGLITE_ONLINE });
      } finally {
        await server.stop();
      }
    }
    const template = await pgliteTemplate();
    liteGenerated = template.generatedSeconds;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-load-'));
    try {
      fs.cpSync(template.dir, dataDir, { recursive: true });
      const db = await openPglite(path.join(dataDir, 'pglite'));
      try {
        fixture = await prepareFixture(db.knex, PGLITE_ONLINE);
      } finally {
        await db.close();
      }
      server = await startServer({ DATABASE_URL: '', DATA_DIR: dataDir, SEED_DEMO: 'false' });
      try {
        lite = await runMix(server, fixture, { seconds: PGLITE_SECONDS, online: PGLITE_ONLINE });
      } finally {
        await server.stop();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    console.log(
      `PGlite run done: ${rate(lite.closed).toFixed(0)} req/s closed loop, errors ${errorsOf(lite).count}`,
    );
  }

  const totalSeconds = (performance.now() - started) / 1000;
  const runs = [main, pgMatched, lite].filter((m): m is MixResult => !!m);
  const errors = runs.reduce((a, m) => a + errorsOf(m).count, 0);
  const samples = runs.flatMap((m) => errorsOf(m).samples).slice(0, 10);
  const md = `## Whole-system load (issue 8)

Command: \`npm run bench:load\`${SECONDS !== 60 ? ` with BENCH_SECONDS=${SECONDS}` : ''} — one API process on PostgreSQL (pool ${POOL_MAX}) with ${data.products.toLocaleString('en-IN')} products, ${data.sellers.toLocaleString('en-IN')} sellers and ${data.orders.toLocaleString('en-IN')} past orders from the bulk generator (database \`${new URL(LOAD_DATABASE_URL).pathname.slice(1)}\`). For ${SECONDS} s, ${CONCURRENCY} simulated users in a closed loop each pick an action ${MIX.browse}:${MIX.cart}:${MIX.checkout}: browse or search (products/list with varied filters, sorts, pages and searches, suggestions with typical terms and misspellings, the directory, top sellers, storefronts by slug, product details, catalogue stats), one step of a cart session (add → list → change quantity → remove), or a checkout (one or two products added, then checkout/create with a fresh Idempotency-Key, cash on delivery; the products' stock is raised so no 409 is a correct answer). At the same time ${ONLINE.toLocaleString('en-IN')} signed-in sellers poll \`GET /_api/call/incoming\` every ${POLL_MS / 1000} s (open loop, ${fmt(ONLINE / (POLL_MS / 1000), 0)} req/s) and one customer at a time rings a seller, who accepts; the customer checks the status and hangs up. ${machineLine()} Whole command: ${fmt(totalSeconds, 0)} s (data check ${fmt(prepareSeconds)} s${liteGenerated ? `, PGlite data generated in ${fmt(liteGenerated, 0)} s` : ''}); load average ${loadAtStart} at start.

| target | met | measured |
| --- | --- | --- |
| no errors | ${errors === 0 ? 'yes' : '**no**'} | ${errors} |
| completes in under 10 minutes | ${totalSeconds < 600 ? 'yes' : '**no**'} | ${fmt(totalSeconds, 0)} s |

### PostgreSQL, ${SECONDS} s

${runSummary(main, POOL_MAX)}

${statsTable(rows(main))}

${poolSection(main.pool, POOL_MAX)}

How to read this: the latencies are measured by the bench from the moment a request is due, so when the
server cannot keep up with the pollers' offered rate the queue shows up as latency, not as fewer requests.
The pool figure is a lower bound on occupancy: a connection the server has checked out but not yet sent its
next statement on shows as \`idle\` in \`pg_stat_activity\`; \`idle in transaction\` means a transaction
waiting for the Node process, not for PostgreSQL. Load averages are in each run's summary; on a shared
machine the server process gets only part of a core, so rerun on a quiet machine before comparing figures.
${
  lite
    ? `
### Embedded PGlite, ${PGLITE_SECONDS} s

The same data set generated into PGlite, copied to a fresh \`DATA_DIR\`; the server runs with no \`DATABASE_URL\` (one connection inside the process). ${PGLITE_ONLINE.toLocaleString('en-IN')} sellers polling.

${runSummary(lite, undefined)}

${statsTable(rows(lite))}
${
  pgMatched
    ? `
PostgreSQL with the same settings as the PGlite run (${PGLITE_SECONDS} s, ${PGLITE_ONLINE.toLocaleString('en-IN')} sellers polling):

${runSummary(pgMatched, POOL_MAX)}
`
    : ''
}
#### Ratio PGlite / PostgreSQL

${ratioSection(pgMatched ?? main, lite, !!pgMatched)}
`
    : ''
}${samples.length ? `\nError samples:\n\n${samples.map((s) => `- \`${s.replace(/`/g, "'")}\``).join('\n')}\n` : ''}`;
  writeSection('load', md);
  console.log(md);
  if (errors) {
    console.error(samples);
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
