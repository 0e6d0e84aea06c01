import fs from 'node:fs';
import path from 'node:path';
import type { Next } from 'koa';
import send from 'koa-send';
import type { AppContext } from './context';
import { pageRenderer } from './ssr';

/**
 * Serves the built PWA: hashed assets cached for a year, the service worker and HTML never cached,
 * and index.html for any other GET that asks for a page (client-side routes), with the catalogue pages
 * rendered into it for visitors when `ssr.dir` holds the server build (http/ssr.ts).
 */
export function staticSite(dir: string, ssr?: { dir: string; maxRenders: number }) {
  const root = path.resolve(dir);
  const indexPath = path.join(root, 'index.html');
  const renderer = ssr ? pageRenderer(ssr.dir, ssr.maxRenders) : undefined;
  return async function site(ctx: AppContext, next: Next) {
    if (
      (ctx.method !== 'GET' && ctx.method !== 'HEAD') ||
      ctx.path.startsWith('/_api/') ||
      ctx.path.startsWith('/media/')
    ) {
      return next();
    }
    if (!fs.existsSync(indexPath)) return next();
    const file = path.join(root, path.normalize(ctx.path));
    if (file.startsWith(root) && ctx.path !== '/' && fs.existsSync(file) && fs.statSync(file).isFile()) {
      const immutable = ctx.path.startsWith('/assets/');
      await send(ctx, ctx.path, {
        root,
        immutable,
        maxage: immutable ? 31_536_000_000 : 0,
        gzip: false,
        brotli: false,
        setHeaders(res) {
          if (!immutable) res.setHeader('Cache-Control', 'no-cache');
          if (ctx.path.endsWith('.webmanifest')) res.setHeader('Content-Type', 'application/manifest+json');
        },
      });
      return;
    }
    // Unknown file-like paths are real 404s; page routes get the app shell.
    if (path.extname(ctx.path) && !ctx.path.endsWith('.html')) return next();
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-cache');
    const rendered =
      renderer && ctx.method === 'GET'
        ? await renderer.render(ctx, await fs.promises.readFile(indexPath, 'utf8'))
        : undefined;
    ctx.body = rendered ?? fs.createReadStream(indexPath);
  };
}
