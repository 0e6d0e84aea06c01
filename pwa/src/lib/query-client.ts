import { QueryCache, QueryClient } from '@tanstack/react-query';
import { errorMessage } from './api-client';
import { i18n, translateMessage } from './i18n';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** Skip the global toast when a background refetch fails (the page shows its own state). */
      silentErrors?: boolean;
    };
  }
}

/** Global defaults of the spec (§7): fresh for 60 s, one retry, no refetch on focus or reconnect. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      // A first load shows its error in the page; a failed background refetch of data on screen gets a toast.
      onError: (error, query) => {
        if (query.state.data === undefined || query.meta?.silentErrors) return;
        const text = i18n.t('errors.refreshFailed', { message: translateMessage(errorMessage(error)) });
        // sonner loads on demand: it stays out of the first page load.
        void import('sonner').then(({ toast }) => toast.error(text));
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        gcTime: 30_000,
        retry: 1,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      },
      mutations: { retry: 0 },
    },
  });
}
