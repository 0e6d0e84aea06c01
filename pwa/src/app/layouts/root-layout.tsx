import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { GlobalFeatures } from '../global-features';
import { HeaderSlotOutlet } from '../header-slots';
import { PageSpinner } from '../../components/ui/spinner';
import { HydrateLater } from '../../lib/hydrate-later';
import { useToasterNeeded, VISIBLE_TOASTS } from '../../lib/toaster-signal';
import { useHashScroll } from './hash-scroll';
import { Header } from './header';
import { useLanguageSync } from './language';

// The toaster mounts once something loaded sonner (lib/sonner-bridge.ts): a page or action that can toast.
// Until then sonner stays out of the page's JavaScript; toasts raised before it mounts are replayed.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/** The toasts' top: the header's 64 px and its border, and a gap. */
const TOASTS_TOP = 72;

/**
 * The toaster, once something loaded sonner. A component of its own: a page that loaded sonner before it
 * hydrated (a product page's actions) differs from the server's markup here, and React re-renders the
 * component that reads the signal at once, in one task. Read in the root layout, that re-render reached the
 * layout's parts still waiting to hydrate, and React hydrated them all in that one task (issue #49: the
 * product page's longest task); here it reaches the toaster alone.
 */
function Toasts() {
  const { t } = useTranslation();
  const toasterNeeded = useToasterNeeded();
  if (!toasterNeeded) return null;
  return (
    <Suspense fallback={null}>
      <Toaster
        position="top-center"
        closeButton
        expand
        visibleToasts={VISIBLE_TOASTS}
        // Below the sticky header (h-16), so a stack of toasts never covers it (issue #49).
        offset={{ top: TOASTS_TOP }}
        mobileOffset={{ top: TOASTS_TOP }}
        // Read out in the page's language: sonner's own labels are English.
        customAriaLabel={t('common.notifications')}
        toastOptions={{ closeButtonAriaLabel: t('common.closeNotification') }}
      />
    </Suspense>
  );
}

/** Every page: skip link, header, the page in <main>, toasts; language and hash scrolling follow the URL. */
export function RootLayout() {
  const { t } = useTranslation();
  useLanguageSync();
  useHashScroll();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 text-brand-800 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t('common.skipToContent')}
      </a>
      <HydrateLater>
        <Header />
      </HydrateLater>
      {/* Notices in the page's flow, under the header: they push the page down, never cover it. */}
      <HeaderSlotOutlet name="notices" />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Suspense fallback={<PageSpinner label={t('common.loading')} />}>
          <HydrateLater>
            <Outlet />
          </HydrateLater>
        </Suspense>
      </main>
      <Toasts />
      {/* The features of every page (the offline banner, the cart's panel, the call layer): a part of their own,
          so the first pass of a hydration is the layout alone. */}
      <HydrateLater>
        <GlobalFeatures />
      </HydrateLater>
      <ScrollRestoration getKey={(location) => location.pathname} />
    </div>
  );
}
