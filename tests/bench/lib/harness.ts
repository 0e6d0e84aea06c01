import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { hashToken, SESSION_COOKIE } from '../../../api/src/http/session';
import { migrateLatest } from '../../../db/migrate';

export const REPO = path.resolve(import.meta.dirname, '../../..');

/** The PostgreSQL database benchmarks use (kept between runs so the large data set is generated once). */
export const BENCH_DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/nagai_bench';

export async function ensureDatabase(url = BENCH_DATABASE_URL): Promise<void> {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = '/postgres';
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  try {
    const r = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!r.rowCount) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

export function openKnex(url = BENCH_DATABASE_URL): Knex {
  return knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 4 } });
}

/** Makes sure the bench database holds at least the given data set, generating what is missing. */
export async function prepareData(
  target: { products: number; sellers: number; orders?: number },
  url = BENCH_DATABASE_URL,
): Promise<{ products: number; sellers: number; orders: number }> {
  await ensureDatabase(url);
  const knex = openKnex(url);
  try {
    await migrateLatest(knex);
    await readAutovacuum(knex);
    const count = async (sql: string) => Number((await knex.raw(sql)).rows[0].n);
    let products = await count('select count(*)::int as n from products');
    let sellers = await count("select count(*)::int as n from users where role = 'seller'");
    let orders = await count('select count(*)::int as n from orders');
    if (
      products < target.products * 0.95 ||
      sellers < target.sellers * 0.95 ||
      orders < (target.orders ?? 0) * 0.95
    ) {
      const args = [
        '--import',
        'tsx',
        'api/src/seeds/generate.ts',
        '--products',
        String(Math.max(0, target.products - products)),
        '--sellers',
        String(Math.max(0, target.sellers - sellers)),
        '--orders',
        String(Math.max(0, (target.orders ?? 0) - orders)),
      ];
      console.log(`generating bench data: node ${args.join(' ')}`);
      await run(process.execPath, args, { DATABASE_URL: url });
      // VACUUM too: the bulk inserts leave the GIN indexes' pending lists full, which every search would scan.
      await knex.raw('vacuum analyze');
      products = await count('select count(*)::int as n from products');
      sellers = await count("select count(*)::int as n from users where role = 'seller'");
      orders = await count('select count(*)::int as n from orders');
    } else {
      await vacuumChurned(knex);
    }
    return { products, sellers, orders };
  } finally {
    await knex.destroy();
  }
}

/** The tables the benchmarks write to: carts, checkouts, sessions, polls, calls, and the users they add. */
const CHURNED_TABLES = [
  'users',
  'seller_profiles',
  'cart_items',
  'idempotency_keys',
  'products',
  'orders',
  'order_items',
  'sessions',
  'seller_presence',
  'calls',
  'call_signals',
];

/**
 * Every run starts from a vacuumed database. Earlier runs leave thousands of dead rows behind (each checkout
 * deletes cart lines and rewrites product rows) and fill GIN pending lists (the thousands of sellers the calls
 * benchmark adds made one shop-name lookup take 18 ms), and a PostgreSQL with autovacuum off, as on this
 * machine, never clears them: the same query then gets slower run after run.
 */
export async function vacuumChurned(knex: Knex): Promise<void> {
  for (const table of CHURNED_TABLES) await knex.raw(`vacuum analyze ${table}`);
}

/** PostgreSQL's autovacuum setting, for the machine line (off here: see vacuumChurned). */
let autovacuum = 'unknown';
export async function readAutovacuum(knex: Knex): Promise<void> {
  autovacuum = String((await knex.raw('show autovacuum')).rows[0]?.autovacuum ?? 'unknown');
}

function run(cmd: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: REPO, env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited with ${code}`))));
  });
}

/**
 * Signs users in by writing sessions straight into the database (a bench of thousands of sellers would
 * otherwise spend minutes on argon2 logins that are not what is being measured). Returns cookie headers.
 */
export async function sessionsFor(knex: Knex, userIds: number[]): Promise<Map<number, string>> {
  const cookies = new Map<number, string>();
  const rows = userIds.map((id) => {
    const token = crypto.randomBytes(32).toString('base64url');
    cookies.set(id, `${SESSION_COOKIE}=${token}`);
    return { id: hashToken(token), user_id: id, expires_at: new Date(Date.now() + 86_400_000) };
  });
  for (let i = 0; i < rows.length; i += 1000) await knex('sessions').insert(rows.slice(i, i + 1000));
  return cookies;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** CPU seconds and peak RSS of the server process since the last reset. */
  usage(): { cpuSeconds: number; rssMb: number };
  resetUsage(): void;
  stop(): Promise<void>;
}

function procStat(pid: number): { cpuTicks: number; rssPages: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { cpuTicks: Number(fields[11]) + Number(fields[12]), rssPages: Number(fields[21]) };
}

/** Starts the production server as its own process (so the load tool does not share its event loop). */
/**
 * The demo accounts' password on the benchmarks' servers: production refuses the published one (docs/security.md,
 * "Demo accounts in production"), so each run names a fresh one (SEED_DEMO_PASSWORD).
 */
export const DEMO_PASSWORD = crypto.randomBytes(12).toString('base64url');

export async function startServer(
  env: Record<string, string>,
  /** The checkout to run (its own build and packages); this one by default. */
  cwd: string = REPO,
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      '--import',
      'tsx',
      'api/src/server.ts',
    ],
    {
      cwd,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        // Production requires the key that encrypts buyers' PANs (any 32 bytes will do for a benchmark).
        PAN_ENCRYPTION_KEY: 'e2'.repeat(32),
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
        // The load comes from one address and a few dozen accounts standing in for thousands of clients: the
        // per-address search bound and the cap on a customer's unpaid orders would refuse it (docs/security.md).
        SEARCH_LIMIT_PER_IP_PER_MINUTE: '1000000000',
        UNPAID_ORDERS_MAX_PER_CUSTOMER: '1000',
        UNPAID_UNITS_MAX_PER_PRODUCT: '1000000',
        UNPAID_UNITS_MAX_PER_SHOP: '1000000',
        // The demo shops and accounts on the embedded database, as before production needed them asked for by
        // name; PostgreSQL only when the benchmark asks (SEED_DEMO in env).
        SEED_DEMO:
          process.env.SEED_DEMO ?? ((env.DATABASE_URL ?? process.env.DATABASE_URL) ? 'false' : 'true'),
        SEED_DEMO_PASSWORD: DEMO_PASSWORD,
        ...env,
      },
      // BENCH_SERVER_STDOUT=1 shows the server's JSON log lines (the stack behind a 500 during a run).
      stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('server exited during start');
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* starting */
    }
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  const pid = child.pid!;
  let base = procStat(pid);
  let peakRss = base.rssPages;
  const sampler = setInterval(() => {
    try {
      peakRss = Math.max(peakRss, procStat(pid).rssPages);
    } catch {
      /* exited */
    }
  }, 250);
  sampler.unref();
  return {
    url,
    child,
    usage() {
      const now = procStat(pid);
      peakRss = Math.max(peakRss, now.rssPages);
      return { cpuSeconds: (now.cpuTicks - base.cpuTicks) / 100, rssMb: (peakRss * 4096) / 1048576 };
    },
    resetUsage() {
      base = procStat(pid);
      peakRss = base.rssPages;
    },
    async stop() {
      clearInterval(sampler);
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    },
  };
}

export interface RequestSpec {
  label: string;
  method?: 'GET' | 'POST';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Statuses that count as success besides 2xx (e.g. a 409 that is the correct answer in a race). */
  okStatuses?: number[];
}

export interface LabelStats {
  label: string;
  count: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
}

export function summarize(label: string, samples: number[], errors = 0): LabelStats {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => (s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN);
  return {
    label,
    count: s.length,
    errors,
    p50: q(50),
    p95: q(95),
    p99: q(99),
    mean: s.length ? s.reduce((a, b) => a + b, 0) / s.length : NaN,
    max: s.length ? s[s.length - 1] : NaN,
  };
}

export interface LoadResult {
  durationMs: number;
  total: number;
  errors: number;
  errorSamples: string[];
  byLabel: LabelStats[];
  all: LabelStats;
  cacheHits: number;
  cacheTotal: number;
}

/** Sends one request over a keep-alive agent and reads the whole answer. */
function sendRequest(
  agent: http.Agent,
  target: URL,
  spec: RequestSpec,
): Promise<{ status: number; body: string; cache?: string }> {
  return new Promise((resolve, reject) => {
    const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const req = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method: spec.method ?? 'GET',
        path: spec.path,
        headers: {
          Origin: target.origin,
          ...(payload
            ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }
            : {}),
          ...spec.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            cache: res.headers['x-cache'] as string | undefined,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** Collects latencies and failures per label. */
class Recorder {
  private samples = new Map<string, number[]>();
  private errorsBy = new Map<string, number>();
  readonly errorSamples: string[] = [];
  /** Answers that said X-Cache: hit, of those that said X-Cache at all. */
  cacheHits = 0;
  cacheTotal = 0;

  async measure(
    agent: http.Agent,
    target: URL,
    spec: RequestSpec,
  ): Promise<{ status: number; body: string } | null> {
    const t0 = performance.now();
    let ok = false;
    let detail = '';
    let res: { status: number; body: string; cache?: string } | null = null;
    try {
      res = await sendRequest(agent, target, spec);
      if (res.cache) {
        this.cacheTotal++;
        if (res.cache === 'hit') this.cacheHits++;
      }
      ok = (res.status >= 200 && res.status < 300) || !!spec.okStatuses?.includes(res.status);
      if (!ok) detail = `${res.status} ${res.body.slice(0, 160)}`;
    } catch (err) {
      detail = (err as Error).message;
    }
    const ms = performance.now() - t0;
    if (!this.samples.has(spec.label)) this.samples.set(spec.label, []);
    this.samples.get(spec.label)!.push(ms);
    if (!ok) {
      this.errorsBy.set(spec.label, (this.errorsBy.get(spec.label) ?? 0) + 1);
      if (this.errorSamples.length < 10) this.errorSamples.push(`${spec.label}: ${detail}`);
    }
    return res;
  }

  result(durationMs: number): LoadResult {
    const byLabel = [...this.samples].map(([label, s]) => summarize(label, s, this.errorsBy.get(label) ?? 0));
    const all = [...this.samples.values()].flat();
    const errors = [...this.errorsBy.values()].reduce((a, b) => a + b, 0);
    return {
      durationMs,
      total: all.length,
      errors,
      errorSamples: this.errorSamples,
      byLabel,
      all: summarize('all', all, errors),
      cacheHits: this.cacheHits,
      cacheTotal: this.cacheTotal,
    };
  }
}

/**
 * Closed loop: `concurrency` workers each send the next request from `next()` as soon as the previous
 * answer arrives, until the duration or the request budget is spent. `next` may also run a multi-step
 * flow itself through the `send` it is given.
 */
export async function runLoad(opts: {
  url: string;
  concurrency: number;
  durationMs?: number;
  requests?: number;
  next: (
    worker: number,
    send: (spec: RequestSpec) => Promise<{ status: number; body: string } | null>,
  ) => RequestSpec | null | Promise<RequestSpec | null>;
}): Promise<LoadResult> {
  const target = new URL(opts.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const rec = new Recorder();
  const send = (spec: RequestSpec) => rec.measure(agent, target, spec);
  let started = 0;
  const start = performance.now();
  const deadline = start + (opts.durationMs ?? Infinity);
  const budget = opts.requests ?? Infinity;
  const worker = async (w: number) => {
    while (performance.now() < deadline && started < budget) {
      started++;
      const spec = await opts.next(w, send);
      if (spec) await send(spec);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, (_, i) => worker(i)));
  agent.destroy();
  return rec.result(performance.now() - start);
}

/**
 * Open loop: requests start at a fixed rate whatever the answers do (like thousands of independent pollers),
 * so a slow server shows up as latency, not as a lower offered load.
 */
export async function runOpenLoop(opts: {
  url: string;
  ratePerSecond: number;
  durationMs: number;
  maxSockets?: number;
  next: (i: number) => RequestSpec;
}): Promise<LoadResult & { offered: number }> {
  const target = new URL(opts.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 256 });
  const rec = new Recorder();
  const start = performance.now();
  const inflight = new Set<Promise<unknown>>();
  let i = 0;
  const intervalMs = 1000 / opts.ratePerSecond;
  while (performance.now() - start < opts.durationMs) {
    const due = start + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const p = rec.measure(agent, target, opts.next(i));
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
    i++;
  }
  await Promise.all(inflight);
  agent.destroy();
  return { ...rec.result(performance.now() - start), offered: i };
}

/**
 * Times one GET, `iterations` times one after another after a warm-up of five, on one keep-alive connection
 * through the same client as the load phases. Not fetch: its spec layer added 1-2 ms to every request here
 * (/healthz 2.2 ms through fetch, 1.3 ms through node:http), which is the client's time, not the API's.
 */
export async function timeSequential(url: string, path: string, iterations: number): Promise<LabelStats> {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const times: number[] = [];
    for (let i = 0; i < iterations + 5; i++) {
      const t0 = performance.now();
      const res = await sendRequest(agent, target, { label: path, path });
      if (res.status !== 200) throw new Error(`${path} → ${res.status}`);
      if (i >= 5) times.push(performance.now() - t0);
    }
    return summarize(path, times);
  } finally {
    agent.destroy();
  }
}

/** Times one SQL statement through a raw pg client, `iterations` times after a warm-up. */
export async function timeRawSql(
  url: string,
  sql: string,
  bindings: unknown[],
  iterations: number,
): Promise<LabelStats> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let i = 0; i < 5; i++) await client.query(sql, bindings);
    const times: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const t0 = performance.now();
      await client.query(sql, bindings);
      times.push(performance.now() - t0);
    }
    return summarize('raw sql', times);
  } finally {
    await client.end();
  }
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

export function statsTable(
  rows: LabelStats[],
  extra?: (r: LabelStats) => string[],
  extraHeads: string[] = [],
): string {
  const head = ['endpoint', 'requests', 'errors', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', ...extraHeads];
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const r of rows) {
    lines.push(
      `| ${[r.label, String(r.count), String(r.errors), fmt(r.p50), fmt(r.p95), fmt(r.p99), fmt(r.max), ...(extra?.(r) ?? [])].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

/** Replaces (or appends) one named section of docs/benchmarks.md, so each benchmark keeps its own table. */
export function writeSection(name: string, markdown: string): void {
  const file = path.join(REPO, 'docs', 'benchmarks.md');
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  let doc = fs.existsSync(file)
    ? fs.readFileSync(file, 'utf8')
    : '# Benchmarks\n\nEvery figure here is written by a script under `tests/bench`; each section names its command.\n';
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  doc =
    i >= 0 && j > i ? doc.slice(0, i) + block + doc.slice(j + end.length) : `${doc.trimEnd()}\n\n${block}\n`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, doc);
}

/** One line naming the machine and date a table was measured on. */
export function machineLine(): string {
  const mem = Math.round(os.totalmem() / 2 ** 30);
  return `Measured on ${os.cpus().length} cores / ${mem} GiB, Node ${process.version}, PostgreSQL at ${new URL(BENCH_DATABASE_URL).host} (autovacuum ${autovacuum}; the tables the benchmarks write to are vacuumed before each run), ${new Date().toISOString().slice(0, 10)}.`;
}

/** Whole-machine CPU counters from /proc/stat, in ticks (1/100 s). */
function machineTicks(): { busy: number; idle: number; steal: number } {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = cpu;
  return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal };
}

/**
 * Measures the whole machine's CPU over a phase (server, database and load tool together share it):
 * `stop()` answers busy core-seconds, the share of all cores busy, and the share stolen by the host.
 */
export function machineCpu(): { stop(): { busySeconds: number; busyShare: number; stealShare: number } } {
  const a = machineTicks();
  return {
    stop() {
      const b = machineTicks();
      const busy = b.busy - a.busy;
      const total = busy + (b.idle - a.idle) + (b.steal - a.steal);
      return {
        busySeconds: busy / 100,
        busyShare: total ? busy / total : 0,
        stealShare: total ? (b.steal - a.steal) / total : 0,
      };
    },
  };
}
