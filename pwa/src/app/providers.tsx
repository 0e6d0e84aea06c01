import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { i18n } from '../lib/i18n';
import { createQueryClient } from '../lib/query-client';
import { EXTENSIONS } from './extension-registry';
import { ExtensionsContext } from './extensions';
import { HeaderSlotsProvider } from './header-slots';

/**
 * App-wide providers. Feature providers that must live on every page (e.g. the call provider for signed-in
 * users) go here, inside QueryClientProvider.
 */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
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
