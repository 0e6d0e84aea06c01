import type { Knex } from 'knex';

/**
 * How long one process answers `GET /_api/shop/call_state` for a shop from memory (issue #50): every open
 * storefront and product page asks every 5 s, so a shop with many viewers costs one read a second, not one a
 * viewer. A change this process makes to the shop's reachability (the jeweller's app opening or closing here)
 * is seen at once; any other change (hours, away, approval, another process's presence write) within this.
 */
export const CALL_STATE_CACHE_MS = 1_000;

interface Entry<T> {
  at: number;
  value: Promise<T>;
}

/**
 * A shop's call-state row, read at most once per CALL_STATE_CACHE_MS per process (concurrent askers share the
 * read); `forget` drops a shop's entry after a write that changes its state.
 */
export class CallStateCache<T> {
  private readonly entries = new Map<number, Entry<T>>();

  get(sellerId: number, nowMs: number, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(sellerId);
    if (hit && nowMs - hit.at < CALL_STATE_CACHE_MS && nowMs >= hit.at) return hit.value;
    const entry: Entry<T> = { at: nowMs, value: load() };
    this.entries.set(sellerId, entry);
    // A failed read is not kept.
    entry.value.catch(() => {
      if (this.entries.get(sellerId) === entry) this.entries.delete(sellerId);
    });
    if (this.entries.size > MAX_ENTRIES) this.prune(nowMs);
    return entry.value;
  }

  /** Drops the shop's entry, a read still in flight included (it began before the write). */
  forget(sellerId: number): void {
    this.entries.delete(sellerId);
  }

  private prune(nowMs: number) {
    for (const [id, e] of this.entries) if (nowMs - e.at >= CALL_STATE_CACHE_MS) this.entries.delete(id);
  }
}

/** Shops kept at most (a sweep of stale ones runs past it). */
const MAX_ENTRIES = 10_000;

/** One cache per database (each app, and each test's app, has its own). */
const caches = new WeakMap<Knex, CallStateCache<unknown>>();

export function callStateCache<T>(db: Knex): CallStateCache<T> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new CallStateCache<unknown>()));
  return cache as CallStateCache<T>;
}

/** A write changed the shop's reachability: its next call state is read afresh. */
export function forgetCallState(db: Knex, sellerId: number): void {
  caches.get(db)?.forget(sellerId);
}
