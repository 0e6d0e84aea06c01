import type { Context, Next } from 'koa';
import helmet from 'koa-helmet';
import { AppError } from './errors';

type HelmetOptions = Parameters<typeof helmet>[0];

interface HeaderOptions {
  https: boolean;
  extraConnectSrc?: string[];
  /** Origins of the payment gateway's Checkout: allowed to run scripts, be connected to and framed. */
  extraPaymentSrc?: string[];
}

function helmetOptions(opts: HeaderOptions): HelmetOptions {
  const payment = opts.extraPaymentSrc ?? [];
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...payment],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'https:', 'wss:', ...(opts.extraConnectSrc ?? []), ...payment],
        frameSrc: ["'self'", ...payment],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        ...(opts.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: opts.https ? { maxAge: 15552000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
  };
}

/** The headers helmet writes for these options, captured once (every directive is static: no nonces). */
export function staticSecurityHeaders(opts: HeaderOptions): {
  set: [string, string][];
  remove: string[];
} {
  const set: [string, string][] = [];
  const remove: string[] = [];
  const res = {
    setHeader(name: string, value: unknown) {
      set.push([name, String(value)]);
    },
    removeHeader(name: string) {
      remove.push(name);
    },
  };
  // helmet's middleware writes its headers synchronously; the promise koa-helmet wraps it in is not needed.
  void helmet(helmetOptions(opts))({ req: {}, res } as unknown as Context, () => Promise.resolve());
  if (!set.some(([name]) => name === 'Content-Security-Policy')) {
    throw new Error('helmet did not write its headers synchronously; security headers cannot be precomputed');
  }
  return { set, remove };
}

/**
 * Security headers: a CSP with no inline script, nosniff, frame-ancestors none, a strict referrer policy.
 * Computed by helmet once at start-up and replayed on every response: helmet's per-request work (a
 * promise and a chain of thirteen middleware calls) was a visible share of a 1,250 req/s poll.
 */
export function securityHeaders(opts: {
  https: boolean;
  extraConnectSrc?: string[];
  /** The payment gateway's origins, read per response (the test double's port is known once it listens). */
  paymentSources?: () => string[];
}) {
  let key = '';
  let { set, remove } = staticSecurityHeaders(opts);
  return function securityHeaders(ctx: Context, next: Next) {
    const sources = opts.paymentSources?.() ?? [];
    const now = sources.join(' ');
    if (now !== key) {
      key = now;
      ({ set, remove } = staticSecurityHeaders({ ...opts, extraPaymentSrc: sources }));
    }
    const res = ctx.res;
    for (let i = 0; i < set.length; i++) res.setHeader(set[i][0], set[i][1]);
    for (let i = 0; i < remove.length; i++) res.removeHeader(remove[i]);
    return next();
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin this request was addressed to, as a browser on the same site would send it in Origin. */
export function selfOrigin(ctx: Context, publicOrigin?: string): string {
  if (publicOrigin) return publicOrigin.replace(/\/$/, '');
  return `${ctx.protocol}://${ctx.host}`;
}

/**
 * The origin the site names itself by in canonical links, og:url, sitemap.xml and robots.txt (all cacheable):
 * PUBLIC_ORIGIN, required in production. Without it (development, tests), the address this server's socket is
 * bound to, never the request's Host header, which any client writes as it likes.
 */
export function siteOrigin(ctx: Context, publicOrigin?: string): string {
  if (publicOrigin) return publicOrigin.replace(/\/$/, '');
  const socket = ctx.req.socket;
  const address = (socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${socket.localPort ?? ''}`;
}

/**
 * State-changing API requests must be JSON and same-origin. Cross-site forms cannot send JSON without a
 * preflight, and the Origin (or Sec-Fetch-Site) check refuses what a hostile page could still send.
 */
export function csrfGuard(opts: { publicOrigin?: string }) {
  return async function csrf(ctx: Context, next: Next) {
    if (SAFE_METHODS.has(ctx.method) || !ctx.path.startsWith('/_api/')) return next();
    const origin = ctx.get('Origin');
    const fetchSite = ctx.get('Sec-Fetch-Site');
    const sameOrigin = origin ? origin === selfOrigin(ctx, opts.publicOrigin) : fetchSite === 'same-origin';
    if (!sameOrigin || (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none')) {
      throw new AppError(403, 'cross_origin_refused', 'Cross-origin requests are not allowed.');
    }
    if (ctx.request.length !== 0 && !ctx.is('application/json')) {
      throw new AppError(415, 'unsupported_media_type', 'Requests must be sent as JSON.');
    }
    return next();
  };
}
