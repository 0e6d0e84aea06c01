import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../api/src/http/response-cache';

function cacheAt(opts: { ttlMs?: number; maxBytes?: number } = {}) {
  let t = 1_000;
  const cache = new ResponseCache({
    ttlMs: opts.ttlMs ?? 5_000,
    maxBytes: opts.maxBytes ?? 1 << 20,
    now: () => t,
  });
  return { cache, advance: (ms: number) => (t += ms) };
}

describe('ResponseCache', () => {
  it('serves a fresh answer from memory and computes again once it expires', async () => {
    const { cache, advance } = cacheAt({ ttlMs: 5_000 });
    let calls = 0;
    const compute = async () => ({ n: ++calls });
    expect((await cache.get('k', compute)).hit).toBe(false);
    advance(4_999);
    const again = await cache.get('k', compute);
    expect(again).toMatchObject({ hit: true });
    expect(JSON.parse(again.entry.json)).toEqual({ n: 1 });
    advance(1);
    const expired = await cache.get('k', compute);
    expect(expired.hit).toBe(false);
    expect(JSON.parse(expired.entry.json)).toEqual({ n: 2 });
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 2, entries: 1 });
  });

  it('runs one computation for concurrent misses of one key', async () => {
    const { cache } = cacheAt();
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const compute = async () => {
      calls++;
      await gate;
      return { calls };
    };
    const all = Promise.all([cache.get('k', compute), cache.get('k', compute), cache.get('k', compute)]);
    release();
    const results = await all;
    expect(calls).toBe(1);
    expect(results.map((r) => r.hit)).toEqual([false, true, true]);
  });

  it('does not keep an answer computed across an invalidation, and forgets kept ones', async () => {
    const { cache } = cacheAt();
    await cache.get('old', async () => ({ v: 'old' }));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const pending = cache.get('k', async () => {
      await gate;
      return { v: 'before the write' };
    });
    cache.invalidate();
    release();
    expect(JSON.parse((await pending).entry.json)).toEqual({ v: 'before the write' });
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
    const after = await cache.get('k', async () => ({ v: 'after the write' }));
    expect(after.hit).toBe(false);
    expect(JSON.parse(after.entry.json)).toEqual({ v: 'after the write' });
  });

  it('drops only the answers showing a product, and keeps none computed across its change', async () => {
    const { cache } = cacheAt();
    const ids = (body: unknown) => (body as { products: number[] }).products;
    await cache.get('a', async () => ({ products: [1, 2] }), ids);
    await cache.get('b', async () => ({ products: [3] }), ids);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const pending = cache.get(
      'c',
      async () => {
        await gate;
        return { products: [2, 4] };
      },
      ids,
    );
    cache.invalidateProducts([2]);
    release();
    await pending;
    expect((await cache.get('a', async () => ({ products: [1, 2] }), ids)).hit).toBe(false);
    expect((await cache.get('b', async () => ({ products: [3] }), ids)).hit).toBe(true);
    expect((await cache.get('c', async () => ({ products: [2, 4] }), ids)).hit).toBe(false);
    // Computed after the change: kept.
    expect((await cache.get('c', async () => ({ products: [2, 4] }), ids)).hit).toBe(true);
  });

  it('does not cache a failure', async () => {
    const { cache } = cacheAt();
    await expect(cache.get('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const ok = await cache.get('k', async () => ({ ok: true }));
    expect(ok.hit).toBe(false);
  });

  it('keeps within its byte bound by dropping the least recently used answers', async () => {
    const { cache } = cacheAt({ maxBytes: 100 });
    const body = (c: string) => async () => ({ s: c.repeat(30) }); // 38 bytes of JSON each
    await cache.get('a', body('a'));
    await cache.get('b', body('b'));
    expect((await cache.get('a', body('a'))).hit).toBe(true); // a is now the most recent
    await cache.get('c', body('c')); // 114 bytes > 100: b goes
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 76 });
    expect((await cache.get('a', body('a'))).hit).toBe(true);
    expect((await cache.get('b', body('b'))).hit).toBe(false);
  });

  it('compresses once per encoding, and the bytes decode to the same JSON', async () => {
    const { cache } = cacheAt();
    const { entry } = await cache.get('k', async () => ({ items: Array.from({ length: 200 }, (_, i) => i) }));
    const br = cache.encoded(entry, 'br') as Buffer;
    const gz = cache.encoded(entry, 'gzip') as Buffer;
    expect(cache.encoded(entry, 'br')).toBe(br);
    expect(zlib.brotliDecompressSync(br).toString()).toBe(entry.json);
    expect(zlib.gunzipSync(gz).toString()).toBe(entry.json);
    expect(cache.encoded(entry, 'identity')).toBe(entry.json);
    expect(cache.stats().bytes).toBe(entry.json.length + br.length + gz.length);
  });

  it('is off with a TTL of 0: nothing is kept', async () => {
    const { cache } = cacheAt({ ttlMs: 0 });
    expect(cache.enabled).toBe(false);
    await cache.get('k', async () => ({}));
    expect(cache.stats().entries).toBe(0);
  });
});
