import { hydrate } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import type { createRoot as CreateRoot, hydrateRoot as HydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { createAppRouter, pageAreas } from './app/router';
import { preloadProductActions } from './app/extension-registry';
import { preloadPage } from './app/routes';
import type { SsrState } from './entry-server';
import { preloadCallScreen } from './features/calls/components/call-globals';
import { loadAreas } from './lib/i18n';
import { resumeLiveCall } from './lib/live-call';
import { createQueryClient } from './lib/query-client';
import { restorePersistedQueries } from './lib/query-persist';

/** The page the server rendered for a visitor (api/src/http/ssr.ts), with the data it rendered. */
function serverState(): SsrState | undefined {
  const el = document.getElementById('nagai-ssr');
  if (!el?.textContent) return undefined;
  try {
    return JSON.parse(el.textContent) as SsrState;
  } catch {
    return undefined;
  }
}

/**
 * Called as soon as this module has loaded (src/main.tsx), while React and the route tree still load: a
 * reader whose page names a live call (the page reloaded during it) asks for the call's resume and fetches
 * the call screen now (issue #50).
 */
export function startLiveCall(): void {
  if (resumeLiveCall() !== null) preloadCallScreen();
}

/**
 * The app's first render (src/main.tsx loads this module after React): the persisted catalogue is restored
 * first, so the first render already shows it; a page the server rendered in this language is hydrated.
 */
export async function boot(
  dom: { createRoot: typeof CreateRoot; hydrateRoot: typeof HydrateRoot },
  language: string,
): Promise<void> {
  const queryClient = createQueryClient();
  await restorePersistedQueries(queryClient);
  const root = document.getElementById('root') as HTMLElement;
  const ssr = serverState();
  if (ssr && ssr.lang === language && root.firstElementChild) {
    // Same data, same language: the app adopts the server's markup. The page's module and strings are
    // loaded first, so hydration never waits on them. React's first pass adopts the page up to the parts
    // wrapped in HydrateLater, which it hydrates afterwards in slices, the one a reader uses first at once
    // (lib/hydrate-later.tsx).
    hydrate(queryClient, ssr.queries);
    const { pathname } = window.location;
    // A product page's actions row (the call, try-on and appointment buttons) hydrates with its code loaded
    // too: a part still waiting for its chunk when the first update comes is rendered again (issue #49).
    const actions = pathname.startsWith('/product/') ? preloadProductActions() : undefined;
    await Promise.all([preloadPage(pathname), loadAreas(pageAreas(pathname)), actions]).catch(
      () => undefined,
    );
    // The router (its route tree and the first match) in a task of its own, then the first pass of hydration.
    const router = createAppRouter();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // As a transition, the first pass yields to the browser every few milliseconds like the parts' passes
    // after it, instead of adopting the page up to its parts in one task (React renders an update outside a
    // transition, hydration's first pass included, without yielding). Input still comes first: a part the
    // reader uses is hydrated at once.
    startTransition(() => {
      dom.hydrateRoot(
        root,
        <StrictMode>
          <App router={router} queryClient={queryClient} />
        </StrictMode>,
      );
    });
    return;
  }
  // No server page, or one in another language than this reader chose: render from scratch.
  root.replaceChildren();
  dom.createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  );
}
