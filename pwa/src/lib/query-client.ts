import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { errorMessage } from './api-client';
import { i18n, translateMessage } from './i18n';
import { assertOnline, isOnline } from './online';
import { PERSIST_MAX_AGE_MS } from './query-persist';
import { followSession } from './session';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** Skip the global toast when a background refetch fails (the page shows its own state). */
      silentErrors?: boolean;
    };
    mutationMeta: {
      /** The mutation does useful local work offline (e.g. logout), so the offline guard lets it run. */
      offlineAllowed?: boolean;
    };
  }
}

/** Global defaults of the product rules (docs/product-rules.md §7): fresh for 60 s, one retry, no refetch on focus; on reconnect only failed queries. */
export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    queryCache: new QueryCache({
      // A first load shows its error in the page; a failed background refetch of data on screen gets a toast.
      onError: (error, query) => {
        // Offline, the banner already says why nothing refreshes.
        if (query.state.data === undefined || query.meta?.silentErrors || !isOnline()) return;
        const text = i18n.t('errors.refreshFailed', { message: translateMessage(errorMessage(error)) });
        // sonner loads on demand: it stays out of the first page load.
        void import('sonner').then(({ toast }) => toast.error(text));
      },
    }),
    // Offline, a mutation fails at once with 'You are offline…' (never pauses silently); the form keeps its input.
    mutationCache: new MutationCache({
      onMutate: (_variables, mutation) => {
        if (!mutation.meta?.offlineAllowed) assertOnline();
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        gcTime: 30_000,
        // One retry online; offline the first failure is final (the service worker already tried its cache).
        retry: (failureCount) => failureCount < 1 && isOnline(),
        refetchOnWindowFocus: false,
        // Back online, only what failed loads again (an error shown offline clears by itself); data on screen
        // waits for its normal refresh.
        refetchOnReconnect: (query) => query.state.status === 'error',
        // Fetch even when the browser says offline: the service worker answers catalogue reads from its cache.
        networkMode: 'offlineFirst',
      },
      mutations: { retry: 0, networkMode: 'always' },
    },
  });
  // Catalogue queries live as long as their persisted copy, so what was browsed survives a reload offline.
  client.setQueryDefaults(['catalog'], { gcTime: PERSIST_MAX_AGE_MS });
  // The person signed in stays signed in on the device through an offline reload (docs/product-rules.md §20.6).
  followSession(client);
  return client;
}
