import { QueryClient, dehydrate } from '@tanstack/react-query';
import type { PersistedClient } from '@tanstack/react-query-persist-client';
import { describe, expect, it } from 'vitest';
import {
  createPersistOptions,
  PERSIST_KEY,
  PERSIST_MAX_AGE_MS,
  serializeWithinBudget,
  shouldPersistQuery,
} from '../../pwa/src/lib/query-persist';

class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
}

function clientWith(entries: [unknown[], unknown][]): QueryClient {
  const qc = new QueryClient();
  for (const [key, data] of entries) qc.setQueryData(key, data);
  return qc;
}

describe('persisted query cache', () => {
  it('keeps only public catalogue queries (key starting with "catalog")', () => {
    const qc = clientWith([
      [['catalog', 'products', 'list', { page: 1 }], { products: [] }],
      [['catalog', 'sellers', 'store', 'lakshmi-jewellers', 1], { sellerProfile: {} }],
      [['accounts', 'session'], { user: { id: 1 } }],
      [['cart', 'list'], { items: [] }],
      [['orders', 'customer'], { orders: [] }],
      [['calls', 'history'], []],
    ]);
    const kept = dehydrate(qc, { shouldDehydrateQuery: shouldPersistQuery }).queries.map(
      (q) => q.queryKey[0],
    );
    expect(kept).toEqual(['catalog', 'catalog']);
  });

  it('does not persist catalogue queries that failed or are still loading', () => {
    const qc = new QueryClient();
    qc.getQueryCache().build(qc, { queryKey: ['catalog', 'pending'] });
    expect(dehydrate(qc, { shouldDehydrateQuery: shouldPersistQuery }).queries).toEqual([]);
  });

  it('stays under the size budget by dropping the least recently updated queries first', () => {
    const big = 'x'.repeat(400_000);
    const qc = new QueryClient();
    for (const n of [1, 2, 3, 4, 5]) qc.setQueryData(['catalog', n], big, { updatedAt: n * 1000 });
    const client: PersistedClient = { timestamp: Date.now(), buster: 'v1', clientState: dehydrate(qc) };
    const text = serializeWithinBudget(client, 1_500_000);
    expect(text.length).toBeLessThanOrEqual(1_500_000);
    const restored = JSON.parse(text) as PersistedClient;
    // The three newest fit; the two oldest are dropped.
    expect(restored.clientState.queries.map((q) => q.queryKey[1])).toEqual([5, 4, 3]);
    expect(restored.buster).toBe('v1');
    // Small caches are written as they are.
    const small = { ...client, clientState: { ...client.clientState, queries: [] } };
    expect(serializeWithinBudget(small)).toBe(JSON.stringify(small));
  });

  it('is versioned, lasts 24 hours and writes to the nagai-query-cache key', async () => {
    const storage = new MemoryStorage();
    const options = createPersistOptions(storage);
    expect(options.maxAge).toBe(PERSIST_MAX_AGE_MS);
    expect(PERSIST_MAX_AGE_MS).toBe(24 * 3600 * 1000);
    expect(typeof options.buster).toBe('string');
    await options.persister.persistClient({
      timestamp: Date.now(),
      buster: options.buster ?? '',
      clientState: { mutations: [], queries: [] },
    });
    await new Promise((r) => setTimeout(r, 1100)); // throttled write
    expect(storage.getItem(PERSIST_KEY)).toContain('"clientState"');
    await options.persister.removeClient();
    expect(storage.getItem(PERSIST_KEY)).toBeNull();
  });
});
