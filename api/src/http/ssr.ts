import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AppContext } from './context';
import { LANGUAGE_COOKIE } from '../../contract/constants';
import { SESSION_COOKIE } from './session';

type Language = 'en' | 'ta';

/** The server entry of the PWA (pwa/src/entry-server.tsx), built by `vite build --ssr`. */
interface ServerEntry {
  rendersOnServer(pathname: string): boolean;
  renderPage(
    url: string,
    opts: { lang: Language; apiOrigin: string; timeoutMs?: number },
  ): Promise<{ html: string; state: unknown }>;
}

/** A page's first HTML: the catalogue pages rendered with their data for visitors, the app shell otherwise. */
export interface PageRenderer {
  /** The page's HTML when this request gets a rendered page; undefined for the plain shell. */
  render(ctx: AppContext, template: string): Promise<string | undefined>;
}

/** Rendering gives up after this long and the shell is served instead (the browser then renders the page). */
const RENDER_TIMEOUT_MS = 3000;

/**
 * Loads the server entry from `dir` on first use. Without a build (tests of the API, `npm run dev`) every
 * page gets the shell, as does any request a render fails for (logged).
 */
export function pageRenderer(dir: string, maxRenders = 8): PageRenderer {
  const file = path.resolve(dir, 'entry-server.js');
  // Renders under way: beyond maxRenders a page is served as the shell, so pages asked for faster than the
  // process can render them (a crawler, or many addresses at once) cost a file read, not a queue of renders.
  let inFlight = 0;
  let entry: Promise<ServerEntry | undefined> | undefined;
  const load = () =>
    (entry ??= fs.existsSync(file)
      ? (import(pathToFileURL(file).href) as Promise<ServerEntry>)
      : Promise.resolve(undefined));

  return {
    async render(ctx, template) {
      // Signed-in readers get the shell: their pages depend on who they are and change as they act.
      if (ctx.cookies.get(SESSION_COOKIE)) return undefined;
      let server: ServerEntry | undefined;
      try {
        server = await load();
      } catch (err) {
        ctx.deps.logger.error({ err }, 'server rendering unavailable: its entry did not load');
        entry = Promise.resolve(undefined);
        return undefined;
      }
      if (!server?.rendersOnServer(ctx.path)) return undefined;
      const lang: Language = ctx.cookies.get(LANGUAGE_COOKIE) === 'ta' ? 'ta' : 'en';
      const address = ctx.socket.localAddress ?? '127.0.0.1';
      const host = address.includes(':') ? `[${address}]` : address;
      const render = async () => {
        if (inFlight >= maxRenders) throw new RendersBusy();
        inFlight++;
        try {
          const page = await server.renderPage(ctx.originalUrl, {
            lang,
            apiOrigin: `http://${host}:${ctx.socket.localPort}`,
            timeoutMs: RENDER_TIMEOUT_MS,
          });
          return { html: page.html, state: page.state };
        } finally {
          inFlight--;
        }
      };
      try {
        // A rendered page is kept as long as the catalogue answers it shows (http/response-cache.ts): cleared
        // by catalogue writes, dropped by a sale of a product on it, never kept across either.
        const cache = ctx.deps.catalogCache;
        const page = cache.enabled
          ? (JSON.parse(
              (await cache.get(`page:${lang}:${ctx.originalUrl}`, render, productIds)).entry.json,
            ) as {
              html: string;
              state: unknown;
            })
          : await render();
        // The state is read by the app (src/main.tsx), never run: a JSON script element, `<` escaped.
        const state = JSON.stringify(page.state).replace(/</g, '\\u003c');
        return (
          template
            .replace(/<html lang="[^"]*">/, `<html lang="${lang}">`)
            // The page shows without its JavaScript: the script loads behind the stylesheet and the images.
            .replace(/<(script type="module"|link rel="modulepreload")/g, '<$1 fetchpriority="low"')
            .replace(
              '<div id="root"></div>',
              () =>
                `<div id="root">${page.html}</div><script type="application/json" id="nagai-ssr">${state}</script>`,
            )
        );
      } catch (err) {
        // An unknown shop's address (the API's 404) is routine: the browser shows its 'Store Not Found'.
        const status = (err as { status?: number }).status ?? 0;
        if (status >= 400 && status < 500)
          ctx.deps.logger.debug({ path: ctx.path, status }, 'page not rendered');
        else ctx.deps.logger.warn({ err, path: ctx.path }, 'page served without server rendering');
        return undefined;
      }
    },
  };
}

/** As many pages as allowed are being rendered already. */
class RendersBusy extends Error {}

/** The ids of the products a rendered page shows: those in its queries' answers (lists, or one product). */
function productIds(body: unknown): number[] {
  const { state } = body as { state: { queries: { queries: { state: { data?: unknown } }[] } } };
  return state.queries.queries.flatMap(({ state: { data } }) => {
    const { products, product } = (data ?? {}) as { products?: unknown; product?: { id?: unknown } };
    if (Array.isArray(products)) return products.map((p) => (p as { id: number }).id);
    // A product's own page (/product/{slug}-{id}): its one product.
    return typeof product?.id === 'number' ? [product.id] : [];
  });
}
