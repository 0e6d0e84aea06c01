import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { GlobalFeatures } from '../global-features';
import { PageSpinner } from '../../components/ui/spinner';
import { useHashScroll } from './hash-scroll';
import { Header } from './header';
import { useLanguageSync } from './language';

// The toaster is not needed for the first paint: it loads when the browser is idle (or on first toast from a
// page, whose chunk brings sonner along anyway).
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const ric = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 200));
    const cancel = window.cancelIdleCallback ?? window.clearTimeout;
    const id = ric(() => setIdle(true), { timeout: 1500 });
    return () => cancel(id);
  }, []);
  return idle;
}

/** Every page: skip link, header, the page in <main>, toasts; language and hash scrolling follow the URL. */
export function RootLayout() {
  const { t } = useTranslation();
  useLanguageSync();
  useHashScroll();
  const idle = useIdle();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 text-brand-800 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t('common.skipToContent')}
      </a>
      <Header />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Suspense fallback={<PageSpinner label={t('common.loading')} />}>
          <Outlet />
        </Suspense>
      </main>
      {idle && (
        <Suspense fallback={null}>
          <Toaster position="top-center" closeButton />
        </Suspense>
      )}
      <GlobalFeatures />
      <ScrollRestoration getKey={(location) => location.pathname} />
    </div>
  );
}
