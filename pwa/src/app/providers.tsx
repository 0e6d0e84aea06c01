import type { QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../lib/i18n';
import { createQueryClient } from '../lib/query-client';
import { createPersistOptions } from '../lib/query-persist';
import { EXTENSIONS } from './extension-registry';
import { ExtensionsContext } from './extensions';
import { HeaderSlotsProvider } from './header-slots';

/**
 * App-wide providers. Feature providers that must live on every page (e.g. the call provider for signed-in
 * users) go here, inside PersistQueryClientProvider.
 */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  // The public catalogue survives reloads (offline browsing); see lib/query-persist.ts.
  const [persistOptions] = useState(createPersistOptions);
  return (
    <I18nextProvider i18n={i18n}>
      <PersistQueryClientProvider client={client} persistOptions={persistOptions}>
        <ExtensionsContext.Provider value={EXTENSIONS}>
          <HeaderSlotsProvider>{children}</HeaderSlotsProvider>
        </ExtensionsContext.Provider>
      </PersistQueryClientProvider>
    </I18nextProvider>
  );
}
