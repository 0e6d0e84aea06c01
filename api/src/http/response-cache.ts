import zlib from 'node:zlib';
import type { Context } from 'koa';
import { routeAt } from '../../contract/routes';

/** One cached answer: its JSON text and, made on first demand, its compressed forms. */
export interface CachedResponse {
  json: string;
  gzip?: Buffer;
  br?: Buffer;
  expires: number;
  bytes: number;
  /** Whether the cache still holds it (only held entries count towards maxBytes). */
  held: boolean;
  /** The products the answer shows (with their stock), so a sale can drop just the answers showing them. */
  products: number[];
}

export interface ResponseCacheOptions {
  /** How long an answer is served from memory; 0 turns the cache off. */
  ttlMs: number;
  /** Upper bound on the memory the cached texts and their compressed forms take. */
  maxBytes: number;
  now?: () => number;
}

export interface ResponseCacheStats {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

/**
 * Public catalogue answers (product lists, suggestions, the directory, storefronts) kept in memory for a few
 * seconds, by the parsed query. The same few pages are asked for again and again (page 1 of a category, the
 * prefixes people type), and each costs several milliseconds of database time; from memory it costs a string
 * write. A change made through this process shows at once: product, shop and approval writes clear the cache
 * (invalidatingWrites); sales, status changes and ratings drop the answers showing their products
 * (invalidateProducts). Changes made by another process show within ttlMs. Stock and prices are checked again on the server when a cart or a
 * checkout uses them, so a listing a few seconds old never sells what is gone.
 *
 * Answers are stored serialised, with gzip and brotli forms made once on first demand, so a hit costs no
 * JSON.stringify and no compression. Concurrent misses for one key share one computation, and an answer
 * computed across an invalidation is handed to its callers but not kept.
 */
export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private readonly pending = new Map<string, Promise<CachedResponse>>();
  private generation = 0;
  /** Keys of the held answers showing each product. */
  private readonly byProduct = new Map<number, Set<string>>();
  /** When each product was last invalidated (a counter), so an answer computed across that is not kept. */
  private productEpoch = 0;
  private readonly productChanged = new Map<number, number>();
  private readonly pendingEpochs = new Map<string, number>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;
  private readonly now: () => number;

  constructor(private readonly opts: ResponseCacheOptions) {
    this.now = opts.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.opts.ttlMs > 0;
  }

  /**
   * The cached answer for key, computing and keeping it when missing or expired. `productsOf` names the
   * products the computed answer shows (see invalidateProducts).
   */
  async get(
    key: string,
    compute: () => Promise<unknown>,
    productsOf?: (body: unknown) => number[],
  ): Promise<{ entry: CachedResponse; hit: boolean }> {
    const found = this.entries.get(key);
    if (found && found.expires > this.now()) {
      // Map order is recency order: re-inserting marks the entry as recently used.
      this.entries.delete(key);
      this.entries.set(key, found);
      this.hits++;
      return { entry: found, hit: true };
    }
    if (found) this.drop(key, found);
    const inflight = this.pending.get(key);
    if (inflight) {
      this.hits++;
      return { entry: await inflight, hit: true };
    }
    this.misses++;
    const generation = this.generation;
    const epoch = this.productEpoch;
    const promise = (async () => {
      const body = await compute();
      const json = JSON.stringify(body);
      const entry: CachedResponse = {
        json,
        expires: this.now() + this.opts.ttlMs,
        bytes: Buffer.byteLength(json),
        held: false,
        products: productsOf?.(body) ?? [],
      };
      return entry;
    })();
    this.pending.set(key, promise);
    this.pendingEpochs.set(key, epoch);
    try {
      const entry = await promise;
      const changedSince = entry.products.some((id) => (this.productChanged.get(id) ?? -1) >= epoch);
      if (generation === this.generation && !changedSince && this.enabled) this.keep(key, entry);
      return { entry, hit: false };
    } finally {
      if (this.pending.get(key) === promise) {
        this.pending.delete(key);
        this.pendingEpochs.delete(key);
      }
    }
  }

  /** Forgets every answer (and any being computed): the catalogue changed. */
  invalidate(): void {
    this.generation++;
    for (const entry of this.entries.values()) entry.held = false;
    this.entries.clear();
    this.byProduct.clear();
    this.productChanged.clear();
    this.pending.clear();
    this.pendingEpochs.clear();
    this.bytes = 0;
  }

  /**
   * Forgets the answers that show these products (their stock or rating changed: a sale, a cancellation, a
   * rating), and keeps none being computed that shows them. Other answers stay: a busy shop's sales would
   * otherwise empty the cache every few seconds.
   */
  invalidateProducts(ids: Iterable<number>): void {
    const epoch = this.productEpoch++;
    for (const id of ids) {
      this.productChanged.set(id, epoch);
      for (const key of this.byProduct.get(id) ?? []) {
        const entry = this.entries.get(key);
        if (entry) this.drop(key, entry);
      }
    }
    // A mark matters only to answers being computed since before it: drop the older ones.
    const oldest = Math.min(...this.pendingEpochs.values());
    for (const [id, at] of this.productChanged) if (at < oldest) this.productChanged.delete(id);
  }

  stats(): ResponseCacheStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size, bytes: this.bytes };
  }

  /** The entry's body in the best encoding the client accepts, compressing (once) on first demand. */
  encoded(entry: CachedResponse, accepts: 'br' | 'gzip' | 'identity'): Buffer | string {
    if (accepts === 'identity') return entry.json;
    let body = entry[accepts];
    if (!body) {
      body = entry[accepts] = compressJson(entry.json, accepts);
      this.account(entry, body.length);
    }
    return body;
  }

  private account(entry: CachedResponse, added: number) {
    entry.bytes += added;
    if (entry.held) {
      this.bytes += added;
      this.evict();
    }
  }

  private keep(key: string, entry: CachedResponse) {
    const old = this.entries.get(key);
    if (old) this.drop(key, old);
    if (entry.bytes > this.opts.maxBytes) return;
    this.entries.set(key, entry);
    entry.held = true;
    for (const id of entry.products) {
      let keys = this.byProduct.get(id);
      if (!keys) this.byProduct.set(id, (keys = new Set()));
      keys.add(key);
    }
    this.bytes += entry.bytes;
    this.evict();
  }

  private drop(key: string, entry: CachedResponse) {
    this.entries.delete(key);
    entry.held = false;
    for (const id of entry.products) {
      const keys = this.byProduct.get(id);
      keys?.delete(key);
      if (keys?.size === 0) this.byProduct.delete(id);
    }
    this.bytes -= entry.bytes;
  }

  private evict() {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.opts.maxBytes) break;
      this.drop(key, entry);
    }
  }
}

/** Chooses br, gzip or identity from the request's Accept-Encoding. */
export function acceptedEncoding(ctx: Context): 'br' | 'gzip' | 'identity' {
  const chosen = ctx.acceptsEncodings('br', 'gzip', 'identity');
  return chosen === 'br' || chosen === 'gzip' ? chosen : 'identity';
}

/** Smaller than this, an answer is sent as it is (koa-compress's threshold, which applies to the rest). */
const COMPRESS_THRESHOLD = 1024;
/** Larger JSON than this is left to koa-compress's streams rather than compressed in one blocking call. */
const SYNC_COMPRESS_MAX = 256 * 1024;

/** Compresses JSON text in one call, with koa-compress's default settings (brotli quality 4, gzip level 6). */
export function compressJson(json: string, encoding: 'br' | 'gzip'): Buffer {
  return encoding === 'br'
    ? zlib.brotliCompressSync(json, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(json),
        },
      })
    : zlib.gzipSync(json);
}

/**
 * Sets a JSON answer's body, compressed in one call when the client accepts it. koa-compress pipes every
 * answer through a zlib stream, whose setup and thread-pool hops cost ~3 ms per catalogue page here against
 * ~0.3 ms for the same compression done at once; it still handles whatever this leaves (static files, large
 * bodies), and skips a body that already has a Content-Encoding.
 */
export function setJsonBody(ctx: Context, json: string): void {
  ctx.type = 'application/json';
  const size = json.length;
  const encoding =
    size >= COMPRESS_THRESHOLD && size <= SYNC_COMPRESS_MAX ? acceptedEncoding(ctx) : 'identity';
  if (encoding === 'identity') {
    ctx.body = json;
    return;
  }
  ctx.set('Content-Encoding', encoding);
  ctx.body = compressJson(json, encoding);
}

/**
 * Answers a GET from the cache: the JSON computed by compute for this key, served from memory when it is
 * fresh. `X-Cache: hit|miss` says which (the benchmarks report the hit rate from it).
 */
export async function sendCached(
  ctx: Context,
  cache: ResponseCache,
  key: string,
  compute: () => Promise<unknown>,
  productsOf?: (body: unknown) => number[],
): Promise<void> {
  if (!cache.enabled) {
    setJsonBody(ctx, JSON.stringify(await compute()));
    return;
  }
  const { entry, hit } = await cache.get(key, compute, productsOf);
  ctx.set('X-Cache', hit ? 'hit' : 'miss');
  ctx.type = 'application/json';
  const encoding = entry.bytes >= COMPRESS_THRESHOLD ? acceptedEncoding(ctx) : 'identity';
  if (encoding !== 'identity') ctx.set('Content-Encoding', encoding);
  ctx.body = cache.encoded(entry, encoding);
}

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Clears the cache after every successful write that may change a product, a shop or its approval: every
 * write but those the route table marks `catalogue-neutral` (sign-in, calls, carts, push; sales, status changes
 * and ratings drop only the answers showing their products, with invalidateProducts). A write to a path the
 * table does not know clears too, so an endpoint added later is safe by default.
 */
export function invalidatingWrites(cache: ResponseCache) {
  return async function invalidateOnWrite(ctx: Context, next: () => Promise<unknown>) {
    if (!WRITE_METHODS.has(ctx.method) || routeAt(ctx.method, ctx.path)?.cache === 'catalogue-neutral') {
      return next();
    }
    try {
      await next();
    } finally {
      // A failed write may still have committed part of its work elsewhere (e.g. a timeout after COMMIT):
      // clearing costs little, so clear whatever the outcome.
      cache.invalidate();
    }
  };
}
