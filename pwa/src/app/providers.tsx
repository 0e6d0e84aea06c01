import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { persistQueryClientSubscribe } from '@tanstack/react-query-persist-client';
import { useEffect, useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../lib/i18n';
import { createQueryClient } from '../lib/query-client';
import { asPersistClient, createPersistOptions } from '../lib/query-persist';
import { EXTENSIONS } from './extension-registry';
import { ExtensionsContext } from './extensions';
import { HeaderSlotsProvider } from './header-slots';

/**
 * App-wide providers. Feature providers that must live on every page (e.g. the call provider for signed-in
 * users) go here, inside the QueryClientProvider.
 *
 * The public catalogue survives reloads (offline browsing; lib/query-persist.ts): src/main.tsx restores it
 * into the client before the first render, so the first render (and a hydration) already sees it, and from
 * here on every change is saved.
 */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  useEffect(
    () => persistQueryClientSubscribe({ queryClient: asPersistClient(client), ...createPersistOptions() }),
    [client],
  );
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <ExtensionsContext.Provider value={EXTENSIONS}>
          <HeaderSlotsProvider>{children}</HeaderSlotsProvider>
        </ExtensionsContext.Provider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
