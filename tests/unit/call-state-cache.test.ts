import { describe, expect, it } from 'vitest';
import { CALL_STATE_CACHE_MS, CallStateCache } from '../../api/src/features/schedule/call-state-cache';

describe("a shop's call state served from memory (issue #50)", () => {
  it('is read once per shop within the window, by every asker at once, and again after it', async () => {
    const cache = new CallStateCache<string>();
    let reads = 0;
    const load = () => Promise.resolve(`read ${++reads}`);
    const asked = await Promise.all([
      cache.get(1, 1000, load),
      cache.get(1, 1000, load),
      cache.get(1, 1500, load),
    ]);
    expect(asked).toEqual(['read 1', 'read 1', 'read 1']);
    expect(await cache.get(2, 1500, load)).toBe('read 2');
    expect(await cache.get(1, 1000 + CALL_STATE_CACHE_MS - 1, load)).toBe('read 1');
    expect(await cache.get(1, 1000 + CALL_STATE_CACHE_MS, load)).toBe('read 3');
  });

  it("reads afresh after a write that changed the shop's state, and keeps no failed read", async () => {
    const cache = new CallStateCache<string>();
    let reads = 0;
    const load = () => Promise.resolve(`read ${++reads}`);
    expect(await cache.get(1, 0, load)).toBe('read 1');
    cache.forget(1);
    expect(await cache.get(1, 10, load)).toBe('read 2');
    // A read in flight when the write commits is not kept for the next asker.
    const inFlight = cache.get(1, CALL_STATE_CACHE_MS + 20, load);
    cache.forget(1);
    expect(await inFlight).toBe('read 3');
    expect(await cache.get(1, CALL_STATE_CACHE_MS + 30, load)).toBe('read 4');
    await expect(cache.get(3, 0, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    await Promise.resolve();
    expect(await cache.get(3, 1, load)).toBe('read 5');
  });
});
