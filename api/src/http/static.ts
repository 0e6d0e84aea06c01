import fs from 'node:fs';
import path from 'node:path';
import type { Next } from 'koa';
import send from 'koa-send';
import { pageHead, headHtml, robotsTxt, sitemapXml } from '../features/catalog/seo';
import type { AppContext } from './context';
import { siteOrigin } from './security';
import { callScreenChunks, withLiveCall } from './live-call-page';
import { SESSION_COOKIE } from './session';
import { pageRenderer } from './ssr';

/** The shell's own title and description, replaced by a product's or a shop's tags (features/catalog/seo.ts). */
const SHELL_HEAD = /<meta\s+name="description"[^>]*>\s*<title>[^<]*<\/title>/;

/**
 * Serves the built PWA: hashed assets cached for a year, the service worker and HTML never cached,
 * and index.html for any other GET that asks for a page (client-side routes), with the catalogue pages
 * rendered into it for visitors when `ssr.dir` holds the server build (http/ssr.ts).
 */
export function staticSite(dir: string, ssr?: { dir: string; maxRenders: number }) {
  const root = path.resolve(dir);
  const indexPath = path.join(root, 'index.html');
  const renderer = ssr ? pageRenderer(ssr.dir, ssr.maxRenders) : undefined;
  let callChunks: string[] | undefined;
  return async function site(ctx: AppContext, next: Next) {
    if (
      (ctx.method !== 'GET' && ctx.method !== 'HEAD') ||
      ctx.path.startsWith('/_api/') ||
      ctx.path.startsWith('/media/')
    ) {
      return next();
    }
    const origin = siteOrigin(ctx, ctx.deps.config.publicOrigin);
    if (ctx.path === '/robots.txt') {
      ctx.type = 'text/plain';
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.body = robotsTxt(origin);
      return;
    }
    const sitemap = /^\/sitemap(?:-(\d{1,6}))?\.xml$/.exec(ctx.path);
    if (sitemap) {
      const xml = await sitemapXml(ctx.deps.db, origin, sitemap[1] ? Number(sitemap[1]) : undefined);
      if (xml === undefined) return next();
      ctx.type = 'application/xml';
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.body = xml;
      return;
    }
    if (!fs.existsSync(indexPath)) return next();
    const file = path.join(root, path.normalize(ctx.path));
    if (file.startsWith(root) && ctx.path !== '/' && fs.existsSync(file) && fs.statSync(file).isFile()) {
      const immutable = ctx.path.startsWith('/assets/');
      await send(ctx, ctx.path, {
        root,
        // The build writes each script and style sheet compressed beside itself (pwa/vite.config.ts): sent as
        // they are, with no compressing per request.
        gzip: immutable,
        brotli: immutable,
        setHeaders(res) {
          // The same caching as /media/ (docs/operations.md): a CDN may keep a hashed file for a year.
          res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
          if (ctx.path.endsWith('.webmanifest')) res.setHeader('Content-Type', 'application/manifest+json');
        },
      });
      return;
    }
    // Unknown file-like paths are real 404s; page routes get the app shell.
    if (path.extname(ctx.path) && !ctx.path.endsWith('.html')) return next();
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-cache');
    // A product's or a shop's page names itself in <head> for every reader (a shared link's preview), rendered
    // or not.
    const head = ctx.method === 'GET' ? await pageHead(ctx.deps, ctx.path, origin) : undefined;
    // A signed-in reader's page names their live call (http/live-call-page.ts).
    const signedIn = ctx.method === 'GET' && !!ctx.cookies.get(SESSION_COOKIE);
    if (!renderer && !head && !signedIn) {
      ctx.body = fs.createReadStream(indexPath);
      return;
    }
    let template = await fs.promises.readFile(indexPath, 'utf8');
    if (head) template = template.replace(SHELL_HEAD, () => headHtml(head));
    const rendered = renderer && ctx.method === 'GET' ? await renderer.render(ctx, template) : undefined;
    if (rendered === undefined && signedIn)
      template = await withLiveCall(ctx, template, (callChunks ??= callScreenChunks(root)));
    ctx.body = rendered ?? template;
  };
}
