import { useEffect, useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { AppProviders } from './providers';
import { createAppRouter } from './router';

type AppRouter = ReturnType<typeof createBrowserRouter>;

/**
 * The whole app: providers around the router. The server passes a memory router and a query client holding
 * the page's data (src/entry-server.tsx); the browser hydrating that page passes the same data.
 */
export function App({ router: given, queryClient }: { router?: AppRouter; queryClient?: QueryClient }) {
  const [router] = useState(() => given ?? createAppRouter());
  // `<html data-app-ready>`: the app is running (rendered or hydrated) and handles input from here on.
  useEffect(() => {
    document.documentElement.dataset.appReady = 'true';
  }, []);
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
