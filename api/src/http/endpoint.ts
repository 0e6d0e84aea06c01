import type { Knex } from 'knex';
import type { z } from 'zod';
import type { RouteAuth, RouteDescriptor } from '../../contract/routes';
import type { UserRole } from '../../contract/constants';
import type { AppContext, AppDeps, AppRouter, SessionUser } from './context';
import { forbidden, unauthorized } from './errors';
import { sendCached } from './response-cache';
import { adoptSession, endSession, loadSession, sessionIdOf, startSession, type SessionRow } from './session';
import { parseBody, parseQuery } from './validate';

/**
 * How a route becomes code: `endpoint(router, API_ROUTES.x, { input, handle })` mounts the descriptor's path
 * and method, checks its auth, parses its input with its schema, calls the handler and sends what it returns
 * (with the descriptor's status). A handler has the shape `(deps, user, input, exchange) → result`: it never
 * sees Koa's context, and a service it calls sees only what the handler passes on.
 */

/** The access text for a signed-in user whose role is not admitted (docs/product-rules.md, roles). */
export const accessDeniedMessage = (role: string) =>
  `Access denied. Your role (${role}) lacks required permissions.`;

/** The user a handler receives: possibly nobody on a public route, a signed-in user on any other. */
export type UserOf<A extends RouteAuth> = A extends 'public' ? SessionUser | undefined : SessionUser;

/** What a handler may know and do about the HTTP exchange beyond its parsed input. */
export interface Exchange {
  /** The client's address (behind a trusted proxy, the forwarded one). */
  readonly ip: string;
  /** The request's session (its stored, hashed id), while it has one. */
  readonly sessionId: string | undefined;
  /** A request header ('' when absent). */
  header(name: string): string;
  /** Starts a fresh session for the user (its row through `db`, which may be a transaction) and sets its cookie. */
  startSession(db: Knex, userId: number): Promise<void>;
  /** Revokes the request's session and clears its cookie. */
  endSession(): Promise<void>;
}

function exchangeOf(ctx: AppContext): Exchange {
  return {
    ip: ctx.ip,
    get sessionId() {
      return ctx.state.sessionId;
    },
    header: (name) => ctx.get(name),
    startSession: (db, userId) => startSession(ctx, db, userId),
    endSession: () => endSession(ctx, ctx.deps.db),
  };
}

/**
 * A public catalogue answer served from the response cache by key (see ResponseCache): `compute` runs on a
 * miss; `productsOf` names the products an answer shows, so a sale drops just the answers showing them.
 */
export class CachedAnswer<R> {
  constructor(
    readonly key: string,
    readonly compute: () => Promise<R>,
    readonly productsOf?: (body: unknown) => number[],
  ) {}
}

/** An answer whose status the handler decides (a replayed checkout answers as it first did). */
export class WithStatus<R> {
  constructor(
    readonly status: number,
    readonly body: R,
  ) {}
}

type Schema<D> = D extends RouteDescriptor<infer S, unknown> ? S : never;
type Response<D> = D extends RouteDescriptor<z.ZodType | undefined, infer R> ? R : never;
type Auth<D> = D extends RouteDescriptor<z.ZodType | undefined, unknown, infer A> ? A : never;
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

interface Guarding {
  /** The 403 text for a signed-in user of a role the route does not admit (default: accessDeniedMessage). */
  roleMessage?: (role: UserRole) => string;
  /** The 401 text for a visitor (default: the generic one). */
  visitorMessage?: string;
}

interface Parsing<D, P> {
  /** The route's schema: exactly the one its descriptor names. */
  input: Schema<D>;
  /** Reads and checks what the input needs beyond the schema (a header), before the schema is applied. */
  prepare?: (exchange: Exchange) => P;
}

type InputOf<D, P> = [P] extends [undefined] ? Parsed<Schema<D>> : Parsed<Schema<D>> & P;

export type EndpointSpec<D, P = undefined> = Guarding &
  (Schema<D> extends z.ZodType
    ? Parsing<D, P>
    : { input?: undefined; prepare?: (exchange: Exchange) => P }) & {
    handle: (
      deps: AppDeps,
      user: UserOf<Auth<D>>,
      input: InputOf<D, P>,
      exchange: Exchange,
    ) => Answer<Response<D>> | Promise<Answer<Response<D>>>;
  };

/** What a handler returns: the answer itself, one served from the catalogue cache, or one with its own status. */
export type Answer<R> = R | CachedAnswer<R> | WithStatus<R>;

/** Checks the descriptor's auth against the request's user; throws 401/403. */
function guard(d: RouteDescriptor, user: SessionUser | undefined, spec: Guarding): void {
  if (d.auth === 'public') return;
  if (!user) throw unauthorized(spec.visitorMessage);
  if (d.auth !== 'signed-in' && !d.auth.includes(user.role)) {
    throw forbidden((spec.roleMessage ?? accessDeniedMessage)(user.role));
  }
}

function parseInput(
  ctx: AppContext,
  d: RouteDescriptor,
  spec: { input?: z.ZodType; prepare?: (exchange: Exchange) => unknown },
  exchange: Exchange,
): unknown {
  const extra = spec.prepare?.(exchange);
  const parsed = !spec.input
    ? undefined
    : d.method === 'GET'
      ? parseQuery(ctx, spec.input)
      : parseBody(ctx, spec.input);
  return extra === undefined ? parsed : { ...(parsed as object), ...(extra as object) };
}

async function respond(ctx: AppContext, d: RouteDescriptor, result: unknown): Promise<void> {
  if (result instanceof CachedAnswer) {
    await sendCached(ctx, ctx.deps.catalogCache, result.key, result.compute, result.productsOf);
    return;
  }
  if (result instanceof WithStatus) {
    ctx.status = result.status;
    ctx.body = result.body;
    return;
  }
  if (d.status !== 200) ctx.status = d.status;
  if (result !== undefined) ctx.body = result;
}

function mount(router: AppRouter, d: RouteDescriptor, handler: (ctx: AppContext) => Promise<void>): void {
  if (d.method === 'GET') router.get(d.path, handler);
  else router.post(d.path, handler);
}

/** Mounts a route whose session the middleware has looked up (`session: 'middleware'`). */
export function endpoint<D extends RouteDescriptor, P = undefined>(
  router: AppRouter,
  d: D,
  spec: EndpointSpec<D, P>,
): void {
  if (d.session !== 'middleware') throw new Error(`${d.path}: use endpointWithSession`);
  const s = spec as unknown as EndpointSpec<RouteDescriptor, unknown> & {
    input?: z.ZodType;
    prepare?: (e: Exchange) => unknown;
  };
  mount(router, d, async (ctx) => {
    guard(d, ctx.state.user, s);
    const exchange = exchangeOf(ctx);
    const input = parseInput(ctx, d, s, exchange);
    await respond(ctx, d, await s.handle(ctx.deps, ctx.state.user as SessionUser, input as never, exchange));
  });
}

/** What a route that reads the session itself gives back: the session's row, and its answer for that user. */
export interface SessionRead<R> {
  session: SessionRow | undefined;
  answer: (user: SessionUser) => Answer<R> | Promise<Answer<R>>;
}

export type SessionEndpointSpec<D, P = undefined> = Guarding &
  (Schema<D> extends z.ZodType
    ? Parsing<D, P>
    : { input?: undefined; prepare?: (exchange: Exchange) => P }) & {
    /** Runs the route's statement together with the session lookup (queryWithSession). */
    read: (
      deps: AppDeps,
      sessionId: string,
      input: InputOf<D, P>,
      exchange: Exchange,
    ) => Promise<SessionRead<Response<D>>>;
  };

/**
 * Mounts a route that reads the session in its own statement (`session: 'in-route'`): one round trip instead
 * of two. A request refused anyway (no session cookie, bad input) is answered as a middleware-session route
 * would be: 401/403 before a bad input.
 */
export function endpointWithSession<D extends RouteDescriptor, P = undefined>(
  router: AppRouter,
  d: D,
  spec: SessionEndpointSpec<D, P>,
): void {
  if (d.session !== 'in-route') throw new Error(`${d.path}: use endpoint`);
  const s = spec as unknown as SessionEndpointSpec<RouteDescriptor, unknown> & {
    input?: z.ZodType;
    prepare?: (e: Exchange) => unknown;
  };
  mount(router, d, async (ctx) => {
    const id = sessionIdOf(ctx);
    const exchange = exchangeOf(ctx);
    let input: unknown;
    let invalid: unknown;
    try {
      input = parseInput(ctx, d, s, exchange);
    } catch (err) {
      invalid = err;
    }
    if (!id || invalid) {
      await loadSession(ctx);
      guard(d, ctx.state.user, s);
      throw invalid ?? unauthorized(s.visitorMessage);
    }
    const read = await s.read(ctx.deps, id, input as never, exchange);
    await adoptSession(ctx, id, read.session);
    guard(d, ctx.state.user, s);
    await respond(ctx, d, await read.answer(ctx.state.user!));
  });
}

/**
 * Mounts a route that is not one JSON answer (media bytes, the health check, the event stream): its handler sees
 * the context and writes the response itself, after the entry's auth is checked.
 */
export function rawEndpoint(
  router: AppRouter,
  d: RouteDescriptor,
  handler: (ctx: AppContext & { params: Record<string, string> }) => Promise<void>,
): void {
  if (d.session === 'in-route') throw new Error(`${d.path}: use endpointWithSession`);
  mount(router, d, async (ctx) => {
    guard(d, ctx.state.user, {});
    await handler(ctx as AppContext & { params: Record<string, string> });
  });
}
