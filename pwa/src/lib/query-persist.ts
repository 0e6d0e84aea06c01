import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import type { Query, QueryClient } from '@tanstack/react-query';
import {
  persistQueryClientRestore,
  type PersistedClient,
  type PersistQueryClientOptions,
} from '@tanstack/react-query-persist-client';

/** localStorage key of the persisted catalogue queries. */
export const PERSIST_KEY = 'nagai-query-cache';
/** Persisted queries older than this are dropped on restore. */
export const PERSIST_MAX_AGE_MS = 24 * 3600 * 1000;
/** Upper bound of the serialised cache; the oldest queries are dropped to stay under it. */
export const PERSIST_MAX_CHARS = 1_500_000;
/** The service worker's catalogue response cache (sw/sw.ts), cleared with the persisted queries. */
export const CATALOG_CACHE = 'nagai-catalog-v1';

/** This build's version (vite.config define); a new version busts the persisted cache. */
export const APP_VERSION: string = (import.meta.env.VITE_APP_VERSION as string | undefined) ?? 'dev';

/**
 * Only the public catalogue is kept across reloads (keys starting with 'catalog', a convention of the
 * catalog area): never the session, cart, orders or calls.
 */
export function shouldPersistQuery(query: Pick<Query, 'queryKey' | 'state'>): boolean {
  return query.queryKey[0] === 'catalog' && query.state.status === 'success';
}

/**
 * Serialises the client within `max` characters: when too large, the least recently updated queries go
 * first, so a long browsing session keeps what was seen last.
 */
export function serializeWithinBudget(client: PersistedClient, max = PERSIST_MAX_CHARS): string {
  const text = JSON.stringify(client);
  if (text.length <= max) return text;
  const queries = [...client.clientState.queries].sort(
    (a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt,
  );
  const shell = JSON.stringify({ ...client, clientState: { ...client.clientState, queries: [] } });
  let size = shell.length;
  const kept: typeof queries = [];
  for (const q of queries) {
    const len = JSON.stringify(q).length + 1;
    if (size + len > max) continue;
    kept.push(q);
    size += len;
  }
  return JSON.stringify({ ...client, clientState: { ...client.clientState, queries: kept } });
}

function browserStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined; // storage disabled: nothing is persisted
  }
}

/** Options for persisting the query client: catalogue queries in localStorage, bounded and versioned. */
export function createPersistOptions(
  storage = browserStorage(),
): Omit<PersistQueryClientOptions, 'queryClient'> {
  const persister = createSyncStoragePersister({
    storage,
    key: PERSIST_KEY,
    throttleTime: 1000,
    serialize: (client) => serializeWithinBudget(client),
    // Quota exceeded: give up on persisting this snapshot rather than evicting others' storage.
    retry: () => undefined,
  });
  return {
    persister,
    maxAge: PERSIST_MAX_AGE_MS,
    buster: APP_VERSION,
    dehydrateOptions: { shouldDehydrateQuery: shouldPersistQuery },
  };
}

/**
 * Puts the persisted catalogue back into `queryClient` (before the app's first render, src/main.tsx): what
 * is older than a day or from another app version is dropped. Never throws: a broken copy is discarded.
 */
export async function restorePersistedQueries(queryClient: QueryClient): Promise<void> {
  await persistQueryClientRestore({
    queryClient: asPersistClient(queryClient),
    ...createPersistOptions(),
  }).catch(() => undefined);
}

/**
 * The persister packages are a release behind react-query and type its client with their own copy of
 * query-core; they use only its public methods, so the same client is handed to them.
 */
export function asPersistClient(queryClient: QueryClient): PersistQueryClientOptions['queryClient'] {
  return queryClient as unknown as PersistQueryClientOptions['queryClient'];
}

/**
 * Forgets the persisted catalogue (on logout and before switching to a new app version): the localStorage
 * copy and the service worker's catalogue response cache.
 */
export async function clearPersistedQueries(): Promise<void> {
  try {
    browserStorage()?.removeItem(PERSIST_KEY);
  } catch {
    /* storage disabled */
  }
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const controller = navigator.serviceWorker.controller;
  if (controller) controller.postMessage({ type: 'CLEAR_CATALOG_CACHE' });
  else if (typeof caches !== 'undefined') await caches.delete(CATALOG_CACHE).catch(() => false);
}
