import type { SsrState } from './entry-server';
import { getPreferredLanguage, initI18n, isEnglishOnlyPath, rememberLanguageCookie } from './lib/i18n';
import { restorePersistedQueries } from './lib/query-persist';
import './styles.css';

// The marketplace is the usual first page: fetch its chunk alongside the strings instead of after the first
// render (React.lazy in the routes table then finds the module already loading).
if (window.location.pathname === '/marketplace') void import('./features/catalog/pages/marketplace-page');

// Start in the language this path will show, so a Tamil reader never sees an English flash.
const initial = isEnglishOnlyPath(window.location.pathname) ? 'en' : getPreferredLanguage();
rememberLanguageCookie(getPreferredLanguage());

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

/** Lets the browser paint and handle input before the next piece of start-up work. */
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Start-up in steps, each its own task: React, then the app's modules, then the first render. One task
 * running all of it kept a phone's main thread busy for a third of a second.
 */
async function start() {
  const strings = initI18n(initial).catch(() => initI18n('en'));
  const { createRoot, hydrateRoot } = await import('react-dom/client');
  await yieldToBrowser();
  const [{ App }, { preloadPage }, { StrictMode, startTransition }, { hydrate }, { createQueryClient }] =
    await Promise.all([
      import('./app/app'),
      import('./app/routes'),
      import('react'),
      import('@tanstack/react-query'),
      import('./lib/query-client'),
      strings,
    ]);
  const queryClient = createQueryClient();
  await restorePersistedQueries(queryClient);
  await yieldToBrowser();
  const root = document.getElementById('root') as HTMLElement;
  const ssr = serverState();
  if (ssr && ssr.lang === initial && root.firstElementChild) {
    // Same data, same language: React adopts the server's markup. The page's module is loaded first, so
    // hydration never waits on it, and hydrating in a transition lets the browser handle input between
    // slices of the work.
    hydrate(queryClient, ssr.queries);
    await preloadPage(window.location.pathname).catch(() => undefined);
    startTransition(() => {
      hydrateRoot(
        root,
        <StrictMode>
          <App queryClient={queryClient} />
        </StrictMode>,
      );
    });
    return;
  }
  // No server page, or one in another language than this reader chose: render from scratch.
  root.replaceChildren();
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  );
}

void start();
