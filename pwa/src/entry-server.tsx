/**
 * Server rendering of the public catalogue pages for visitors (built by `vite build --ssr` into dist-ssr/ and
 * used by api/src/http/ssr.ts). The page arrives as HTML with its data, so a phone paints the products before
 * the JavaScript has loaded; the browser then hydrates the same tree with the same data (src/main.tsx).
 *
 * The page's queries are the ones its components ask for: a first render collects them, they are fetched from
 * the API (the same requests the browser would make), and the page renders again with the answers.
 */
import { dehydrate, type Query, type QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToStringAsync } from 'preact-render-to-string';
import { createMemoryRouter } from 'react-router-dom';
import { App } from './app/app';
import { appRoutes } from './app/router';
import { preloadPage, routeFor } from './app/routes';
import { setApiOrigin } from './lib/api-client';
import { applyLanguage, initI18n, type Language } from './lib/i18n';
import { createQueryClient } from './lib/query-client';

/**
 * Routes rendered on the server: the public pages a visitor usually lands on (the landing, the marketplace,
 * the directory, and products and storefronts, whose links are shared).
 */
const SSR_ROUTES: ReadonlySet<string> = new Set([
  '/',
  '/marketplace',
  '/sellers',
  '/product/:productRef',
  '/sellers/:sellerId',
  '/:sellerSlug',
]);

/** Whether the page at `pathname` is rendered on the server for visitors. */
export function rendersOnServer(pathname: string): boolean {
  const route = routeFor(pathname);
  return route !== undefined && SSR_ROUTES.has(route.path);
}

/** What the browser needs to hydrate: the language rendered and the queries' answers. */
export interface SsrState {
  lang: Language;
  queries: ReturnType<typeof dehydrate>;
}

export interface RenderResult {
  /** The markup inside `<div id="root">`. */
  html: string;
  state: SsrState;
}

/** Fetch passes: a query may depend on another's answer; more than this and the page renders as it stands. */
const MAX_PASSES = 3;

/**
 * The page as HTML, once every lazy part and string area it waits on has loaded (Preact's renderer awaits
 * them); rejects when `signal` aborts first.
 */
function toHtml(element: React.ReactElement, signal: AbortSignal): Promise<string> {
  signal.throwIfAborted();
  return new Promise<string>((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    Promise.resolve(renderToStringAsync(element as Parameters<typeof renderToStringAsync>[0]))
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', abort));
  });
}

function tree(url: string, client: QueryClient) {
  const router = createMemoryRouter(appRoutes, { initialEntries: [url] });
  return (
    <StrictMode>
      <App router={router} queryClient={client} />
    </StrictMode>
  );
}

function wanted(query: Query): boolean {
  if (query.state.status !== 'pending') return false;
  const enabled = (query.options as { enabled?: unknown }).enabled;
  return typeof enabled === 'function' ? enabled(query) !== false : enabled !== false;
}

/** A query of the page failed; `status` is the API's answer (0: no answer), e.g. 404 for an unknown shop. */
export class PageDataError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'PageDataError';
  }
}

// One i18next instance serves every render (lib/i18n.ts): renders in one language run side by side; one in
// the other language waits until they are done, and renders arriving behind it wait their turn too.
let shownLanguage: Language | undefined;
let rendering = 0;
const waiting: (() => void)[] = [];

async function inLanguage<T>(lang: Language, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  while (rendering > 0 && (shownLanguage !== lang || waiting.length > 0)) {
    await new Promise<void>((resolve) => {
      waiting.push(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    signal.throwIfAborted();
  }
  shownLanguage = lang;
  rendering++;
  try {
    await initI18n(lang);
    await applyLanguage(lang);
    return await work();
  } finally {
    rendering--;
    if (rendering === 0) waiting.splice(0).forEach((wake) => wake());
  }
}

/**
 * Renders `url` (path and query) in `lang` for a visitor, fetching its data from `apiOrigin`. Rejects when
 * the page cannot be rendered within `timeoutMs` of the call; the caller then serves the plain app shell.
 */
export function renderPage(
  url: string,
  opts: { lang: Language; apiOrigin: string; timeoutMs?: number },
): Promise<RenderResult> {
  const signal = AbortSignal.timeout(opts.timeoutMs ?? 3000);
  setApiOrigin(opts.apiOrigin);
  return inLanguage(opts.lang, signal, async () => {
    const client = createQueryClient();
    await preloadPage(new URL(url, 'http://localhost').pathname);
    let html = await toHtml(tree(url, client), signal);
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const pending = client.getQueryCache().getAll().filter(wanted);
      if (pending.length === 0) break;
      await Promise.all(pending.map((q) => q.fetch().catch(() => undefined)));
      signal.throwIfAborted();
      // A failed request is the browser's to retry and show: the page is served as the plain shell.
      const failed = pending.find((q) => q.state.status === 'error');
      if (failed) {
        const error = failed.state.error as { status?: number } | null;
        throw new PageDataError(
          `${JSON.stringify(failed.queryKey)}: ${String(failed.state.error)}`,
          error?.status ?? 0,
        );
      }
      html = await toHtml(tree(url, client), signal);
    }
    const queries = dehydrate(client, { shouldDehydrateQuery: (q) => q.state.status === 'success' });
    client.clear();
    return { html, state: { lang: opts.lang, queries } };
  });
}
