import crypto from 'node:crypto';
import http from 'node:http';
import type { Knex } from 'knex';
import client from 'prom-client';

/**
 * The process's metrics in Prometheus's text format (docs/operations.md "Metrics and alerts"). One registry per
 * process, as prom-client's own default registry is: a counter counts what this process did, and Prometheus
 * sums the processes. Nothing here is served unless METRICS_PORT (a separate listener) or METRICS_TOKEN (GET
 * /metrics on the main port with `Authorization: Bearer <token>`) is set.
 */

/** Request durations in seconds: from a cached catalogue answer (a few ms) to a slow checkout. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Ring delivery: the stream should ring within a second; polling within about 4 s. */
const RING_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16];
/** Waits for a pooled connection: none at all is normal; seconds mean the pool is exhausted. */
const POOL_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 3, 10];

/** What a gauge reads at scrape time from the parts of a running app (its streams, its pool). */
interface Source {
  openStreams(): number;
  pool(): { used: number; free: number; pending: number } | null;
}

export class Metrics {
  readonly registry = new client.Registry();
  private readonly sources = new Set<Source>();

  readonly requestDuration = new client.Histogram({
    name: 'nagai_http_request_duration_seconds',
    help: 'Time to answer a request, by route descriptor (its path pattern), method and status class.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });

  readonly ringDelivery = new client.Histogram({
    name: 'nagai_ring_delivery_seconds',
    help: "Time from a call being placed to its ring being written to the rung user's event stream.",
    buckets: RING_BUCKETS,
    registers: [this.registry],
  });

  readonly callsEnded = new client.Counter({
    name: 'nagai_calls_ended_total',
    help: 'Calls that ended in this process, by end reason (hangup, declined, timeout, abandoned, ...).',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly callPaths = new client.Counter({
    name: 'nagai_call_media_paths_total',
    help: "Participants' quality reports of connected calls, by media path (direct or relayed through TURN).",
    labelNames: ['path'] as const,
    registers: [this.registry],
  });

  readonly paymentOutcomes = new client.Counter({
    name: 'nagai_payment_outcomes_total',
    help: 'Online payments the gateway reported, by outcome (paid, failed, refund_due).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly jobQueueLag = new client.Gauge({
    name: 'nagai_job_queue_lag_seconds',
    help: 'How long the oldest due job had waited when this process last polled the job table (0: none due).',
    registers: [this.registry],
  });

  readonly poolWait = new client.Histogram({
    name: 'nagai_db_pool_wait_seconds',
    help: 'Time a query waited for a pooled database connection.',
    buckets: POOL_BUCKETS,
    registers: [this.registry],
  });

  readonly poolTimeouts = new client.Counter({
    name: 'nagai_db_pool_acquire_failures_total',
    help: 'Requests for a pooled connection that failed (timed out or could not connect).',
    registers: [this.registry],
  });

  constructor() {
    client.collectDefaultMetrics({ register: this.registry, prefix: 'nagai_' });
    const sources = this.sources;
    new client.Gauge({
      name: 'nagai_event_streams_open',
      help: 'Event streams (GET /_api/events) open in this process.',
      registers: [this.registry],
      collect() {
        let n = 0;
        for (const s of sources) n += s.openStreams();
        this.set(n);
      },
    });
    new client.Gauge({
      name: 'nagai_db_pool_connections',
      help: 'Pooled database connections by state (used, free) and requests waiting for one (pending).',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const sum = { used: 0, free: 0, pending: 0 };
        for (const s of sources) {
          const p = s.pool();
          if (!p) continue;
          sum.used += p.used;
          sum.free += p.free;
          sum.pending += p.pending;
        }
        for (const [state, n] of Object.entries(sum)) this.set({ state }, n);
      },
    });
  }

  /** A running app's gauges join the registry; the returned function leaves it. */
  watch(source: Source): () => void {
    this.sources.add(source);
    return () => this.sources.delete(source);
  }

  /** Times waits for the database pool (tarn's acquire events, which knex's pg and PGlite clients share). */
  watchPool(db: Knex): Source['pool'] {
    const pool = (db.client as { pool?: TarnPool }).pool;
    if (!pool || typeof pool.on !== 'function') return () => null;
    const started = new Map<number, bigint>();
    pool.on('acquireRequest', (id) => started.set(id, process.hrtime.bigint()));
    pool.on('acquireSuccess', (id) => {
      const t = started.get(id);
      started.delete(id);
      if (t !== undefined) this.poolWait.observe(Number(process.hrtime.bigint() - t) / 1e9);
    });
    pool.on('acquireFail', (id) => {
      started.delete(id);
      this.poolTimeouts.inc();
    });
    return () => ({ used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires() });
  }

  /** The text Prometheus scrapes, and its content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}

interface TarnPool {
  on(event: 'acquireRequest' | 'acquireSuccess' | 'acquireFail', listener: (id: number) => void): void;
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** The process's metrics: every app in this process records here. */
export const metrics = new Metrics();

/** The route label of a request: its descriptor's path pattern, or a fixed name for what has none. */
export function routeLabel(matched: string | undefined, path: string): string {
  if (matched) return matched;
  if (path.startsWith('/assets/')) return '/assets/*';
  if (path.startsWith('/_api/')) return 'unmatched';
  // The app's pages (server-rendered or the shell), the worker, the manifest, icons.
  return 'page';
}

/** Whether `Authorization: Bearer <token>` carries the metrics token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer (.+)$/.exec(header ?? '');
  if (!m) return false;
  const a = crypto.createHash('sha256').update(m[1]).digest();
  const b = crypto.createHash('sha256').update(token).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * The separate metrics listener (METRICS_PORT, on METRICS_HOST: loopback unless set): GET /metrics only, for
 * a scraper on the machine or the private network; the public port never answers it without the token.
 */
export function startMetricsServer(port: number, host: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.scrape().then(
      ({ body, contentType }) => res.writeHead(200, { 'Content-Type': contentType }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
