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
import { prerenderToNodeStream } from 'react-dom/static';
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
 * The page as HTML, once every lazy part and string area it waits on has loaded: React DOM's static prerender
 * waits for every Suspense boundary, so the markup is whole (the parts' boundary markers included, which
 * `hydrateRoot` reads in the browser). Rejects when `signal` aborts first.
 *
 * Not streamed to the reader: a page is rendered again after its queries are fetched (renderPage), and the
 * finished page is what the page cache keeps (api/src/http/ssr.ts), so there is nothing to send before it.
 */
async function toHtml(element: React.ReactElement, signal: AbortSignal): Promise<string> {
  signal.throwIfAborted();
  // React would leave a part that throws for the browser to render; a page with a failed part is served as the
  // plain shell instead, as any failed render is (the caller logs the error).
  let failure: unknown;
  const { prelude } = await prerenderToNodeStream(element, {
    signal,
    // Every part inline, in order: React would otherwise send a large part after the page, to be moved in by an
    // inline script, which the CSP does not allow (and which a page sent whole does not need).
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    onError: (error) => {
      failure ??= error;
    },
  });
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  signal.throwIfAborted();
  if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure));
  return Buffer.concat(chunks).toString('utf8');
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

// Renders take turns, one at a time, first come first served. One i18next instance serves every render
// (lib/i18n.ts), so renders in different languages could not overlap anyway; and React's renderer interleaves
// renders running side by side, so eight pages asked for at once would all finish late, each near the 3 s abort,
// where one after another the first is served at once and the eighth after seven short renders.
let turns: Promise<unknown> = Promise.resolve();

function inTurn<T>(lang: Language, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  const turn = turns.then(async () => {
    signal.throwIfAborted();
    await initI18n(lang);
    await applyLanguage(lang);
    return work();
  });
  turns = turn.catch(() => undefined);
  // A render still waiting for its turn when its time is up is given up at once (its turn then passes).
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    turn.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
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
  return inTurn(opts.lang, signal, async () => {
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
