import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import compress from 'koa-compress';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from './config';
import { BackgroundTasks } from './background';
import { API_ROUTES, pathsWhere, routeAt } from '../contract/routes';
import type { AppCustomContext, AppDeps, AppRouter, AppState, Clock, Feature } from './http/context';
import { rawEndpoint } from './http/endpoint';
import { AppError, errorMiddleware } from './http/errors';
import { inputGuard } from './http/input-guard';
import { requestLogger } from './http/logging';
import { bearerMatches, metrics, routeLabel } from './http/metrics';
import { csrfGuard, securityHeaders } from './http/security';
import { invalidatingWrites, ResponseCache, setJsonBody } from './http/response-cache';
import { sessionMiddleware } from './http/session';
import { faceMeshAssets } from './http/face-mesh';
import { staticSite } from './http/static';
import { accountsFeature } from './features/accounts/routes';
import { mediaFeature } from './features/media/routes';
import { catalogFeature } from './features/catalog/routes';
import { sellersFeature } from './features/sellers/routes';
import { adminFeature } from './features/admin/routes';
import { cartFeature } from './features/cart/routes';
import { checkoutFeature } from './features/checkout/routes';
import { ordersFeature } from './features/orders/routes';
import { createCallsFeature } from './features/calls/routes';
import { callQualityFeature } from './features/calls/quality-routes';
import { callFamilyFeature } from './features/calls/family-routes';
import { videoFeature } from './features/video/routes';
import { pushFeature } from './features/push/routes';
import { eventsFeature } from './features/events/routes';
import { sellingFeature } from './features/selling/routes';
import { invoicesFeature } from './features/invoices/routes';
import { scheduleFeature } from './features/schedule/routes';
import { EventHub } from './features/events/hub';
import { paymentsFeature } from './features/payments/routes';
import { createGateway, type PaymentGateway } from './features/payments/gateway';
import { createSmsProvider, type SmsProvider } from './features/notices/provider';
import { mobileFeature } from './features/accounts/mobile-routes';
import { noticesFeature } from './features/notices/routes';

/** Paths whose bodies may carry uploaded images (data URIs): the route table's `bodyLimit: 'large'`. */
export const LARGE_BODY_PATHS: ReadonlySet<string> = pathsWhere((r) => r.bodyLimit === 'large');
export const SMALL_BODY_LIMIT = '100kb';
export const LARGE_BODY_LIMIT = '25mb';

/** The methods @koa/bodyparser parses; for any other it only calls next(), so it is not entered at all. */
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Serialises a JSON body once, and compresses it in one call when the client accepts it (setJsonBody). Koa's
 * length getter (which compress reads for its threshold) stringifies an object body to measure it, and Koa
 * stringifies it again to send it: every JSON answer was serialised twice.
 */
async function serializeJsonOnce(ctx: Koa.Context, next: Koa.Next) {
  await next();
  const body: unknown = ctx.body;
  if (body !== null && typeof body === 'object' && !ctx.response.get('Content-Encoding')) {
    const proto = Object.getPrototypeOf(body) as unknown;
    if (Array.isArray(body) || proto === Object.prototype || proto === null) {
      setJsonBody(ctx, JSON.stringify(body));
    }
  }
}

/** Calls announce each new ring through deps.hooks (web push listens), without waiting on listeners. */
const callsFeature: Feature = (router, ctx) =>
  createCallsFeature({
    onIncomingCall: (call, callerName, product) => {
      for (const listener of ctx.deps.hooks.incomingCall) {
        listener({
          callId: call.id,
          sellerId: call.sellerId,
          callerId: call.callerId,
          callerName,
          productName: product?.name ?? null,
        });
      }
    },
  })(router, ctx);

const features: Feature[] = [
  accountsFeature,
  mobileFeature,
  noticesFeature,
  mediaFeature,
  catalogFeature,
  sellersFeature,
  adminFeature,
  cartFeature,
  checkoutFeature,
  ordersFeature,
  callsFeature,
  callQualityFeature,
  callFamilyFeature,
  sellingFeature,
  scheduleFeature,
  invoicesFeature,
  paymentsFeature,
  videoFeature,
  pushFeature,
  eventsFeature,
];

export interface CreateAppOptions {
  db: Knex;
  dbKind: 'pglite' | 'pg';
  config: Config;
  logger: Logger;
  clock?: Clock;
  /** Serve the built PWA from config.staticDir (production and browser tests). */
  serveStatic?: boolean;
  pushAgent?: import('node:https').Agent;
  /** The payment gateway; by default from the configuration (the test double without keys, outside production). */
  payments?: PaymentGateway | null;
  /** The SMS provider; by default from the configuration (the Twilio double without settings, outside production). */
  sms?: SmsProvider | null;
}

export interface AppHandle {
  app: Koa<AppState, AppCustomContext>;
  deps: AppDeps;
  background: BackgroundTasks;
  /** Removes this app's gauges (open streams, pool) from the process's metrics. */
  unwatchMetrics: () => void;
}

/** Builds the Koa app from its dependencies. Does not listen. */
export function createApp(opts: CreateAppOptions): AppHandle {
  // CLOCK_OFFSET_MS (tests only, refused in production) runs the clock ahead: scheduled work comes due.
  const clock = opts.clock ?? { now: () => new Date(Date.now() + opts.config.clockOffsetMs) };
  const deps: AppDeps = {
    db: opts.db,
    dbKind: opts.dbKind,
    config: opts.config,
    clock,
    logger: opts.logger,
    hooks: { incomingCall: [], callbackRequested: [], orderPaid: [] },
    catalogCache: new ResponseCache(opts.config.catalogCache),
    events: new EventHub(opts.db, opts.logger),
    pushAgent: opts.pushAgent,
    payments: opts.payments === null ? undefined : (opts.payments ?? createGateway(opts.config, opts.logger)),
    lifecycle: { draining: false },
    sms: opts.sms === null ? undefined : (opts.sms ?? createSmsProvider(opts.config, opts.logger, clock)),
  };
  const app = new Koa<AppState, AppCustomContext>();
  app.proxy = opts.config.trustProxy;
  // Koa keeps only the last maxIpsCount entries of X-Forwarded-For and takes the first of those: the address
  // our own proxies saw, never an entry the client wrote itself (which sits further left).
  app.maxIpsCount = opts.config.trustedProxyHops;
  app.context.deps = deps;
  app.silent = true;

  const background = new BackgroundTasks(opts.logger);
  const router: AppRouter = new Router<AppState, AppCustomContext>();

  // The readiness check: a stopping process fails it first, so the balancer takes it out of its pool while
  // it still answers everything it is sent (docs/operations.md "Graceful shutdown and deploys").
  rawEndpoint(router, API_ROUTES.health, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    if (deps.lifecycle.draining) throw new AppError(503, 'draining', 'This server is stopping.');
    await deps.db.raw('select 1');
    ctx.body = { status: 'ok', database: deps.dbKind };
  });

  // Metrics for a scraper that holds METRICS_TOKEN; without a token configured the path does not exist here
  // (a separate METRICS_PORT listener serves them instead, see server.ts).
  rawEndpoint(router, API_ROUTES.metrics, async (ctx) => {
    const token = deps.config.metrics.token;
    if (!token) throw new AppError(404, 'not_found', 'Not found.');
    if (!bearerMatches(ctx.get('Authorization') || undefined, token)) {
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new AppError(401, 'unauthenticated', 'The metrics token is missing or wrong.');
    }
    const { body, contentType } = await metrics.scrape();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = body;
  });

  for (const feature of features) feature(router, { deps, background });

  const smallBody = bodyParser({ enableTypes: ['json'], jsonLimit: SMALL_BODY_LIMIT, encoding: 'utf-8' });
  const largeBody = bodyParser({ enableTypes: ['json'], jsonLimit: LARGE_BODY_LIMIT, encoding: 'utf-8' });

  app.use(requestMetrics);
  app.use(requestLogger(opts.logger));
  app.use(errorMiddleware(opts.logger));
  app.use(
    securityHeaders({
      https: opts.config.env === 'production' && !!opts.config.publicOrigin?.startsWith('https:'),
      // Razorpay Checkout (or the test double's stand-in) is loaded, framed and talked to from its origins.
      paymentSources: () => deps.payments?.cspSources() ?? [],
    }),
  );
  app.use(compress({ threshold: 1024 }));
  app.use(serializeJsonOnce);
  app.use(async (ctx, next) => {
    if (ctx.path.startsWith('/_api/')) ctx.set('Cache-Control', 'no-store');
    return next();
  });
  app.use(csrfGuard({ publicOrigin: opts.config.publicOrigin }));
  app.use((ctx, next) =>
    !BODY_METHODS.has(ctx.method)
      ? next()
      : decodedBody(routeAt(ctx.method, ctx.path)?.bodyLimit === 'large' ? largeBody : smallBody)(ctx, next),
  );
  app.use(inputGuard());
  app.use(sessionMiddleware());
  app.use(invalidatingWrites(deps.catalogCache));
  app.use(router.routes());
  app.use(router.allowedMethods());
  if (opts.serveStatic) {
    const { staticDir, ssrDir, ssrMaxRenders } = opts.config;
    // The try-on's face-landmark model and its detector page (issue #36).
    app.use(faceMeshAssets());
    app.use(
      staticSite(staticDir, ssrDir === undefined ? undefined : { dir: ssrDir, maxRenders: ssrMaxRenders }),
    );
  }

  const pool = metrics.watchPool(opts.db);
  const unwatch = metrics.watch({ openStreams: () => deps.events.size(), pool });
  return { app, deps, background, unwatchMetrics: unwatch };
}

const CORRUPT_ENCODING_MESSAGE =
  'The request body could not be decompressed: it does not match its Content-Encoding.';

/**
 * The body parser, with a body whose Content-Encoding (gzip, deflate, br) does not match its bytes refused as
 * the client's mistake: 400 `invalid_encoding`. The decompressor's own error (zlib's Z_DATA_ERROR, brotli's
 * ERR__ERROR_FORMAT_*) carries no HTTP status and would otherwise be a 500 logged as an unhandled error. Only
 * errors raised while the body is read count: the parser calls the rest of the app once it has the body.
 */
function decodedBody(parser: Koa.Middleware) {
  return async (ctx: Koa.Context, next: Koa.Next) => {
    let read = false;
    try {
      await parser(ctx, () => {
        read = true;
        return next();
      });
    } catch (err) {
      const status = (err as { status?: unknown } | null)?.status;
      const encoding = ctx.get('Content-Encoding').trim().toLowerCase();
      if (!read && status === undefined && encoding !== '' && encoding !== 'identity')
        throw new AppError(400, 'invalid_encoding', CORRUPT_ENCODING_MESSAGE);
      throw err;
    }
  };
}

/**
 * Times every request by its route descriptor's path pattern (bounded: the route table, plus '/assets/*',
 * 'page' and 'unmatched'). The event stream is left out: its duration is the stream's life (the open streams
 * are a gauge).
 */
async function requestMetrics(ctx: Koa.Context, next: Koa.Next) {
  const started = process.hrtime.bigint();
  try {
    await next();
  } finally {
    const route = routeLabel((ctx as { _matchedRoute?: string })._matchedRoute, ctx.path);
    if (route !== API_ROUTES.events.path) {
      metrics.requestDuration.observe(
        { route, method: ctx.method, status: `${Math.floor(ctx.status / 100)}xx` },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    }
  }
}
