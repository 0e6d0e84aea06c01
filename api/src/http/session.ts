import crypto from 'node:crypto';
import type { Next } from 'koa';
import type { Knex } from 'knex';
import { hotQuery } from '../../../db/connection';
import { pathsWhere } from '../../contract/routes';
import type { AppContext, AppDeps, SessionUser } from './context';

export const SESSION_COOKIE = 'nagai_session';

/** The stored session id for a cookie token (only a hash is kept in the database). */
export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('base64url');

/** The users columns a session user is made from (toSessionUser), for every query that loads one. */
export const USER_COLUMNS = [
  'id',
  'email',
  'display_name',
  'full_name',
  'role',
  'avatar_url',
  'phone',
  'address',
  'created_at',
  'failed_logins',
  'failed_login_at',
] as const;

interface UserRow {
  id: number;
  email: string;
  display_name: string;
  full_name: string | null;
  role: SessionUser['role'];
  avatar_url: string | null;
  phone: string | null;
  address: string | null;
  created_at: Date;
  failed_logins: number;
  failed_login_at: Date | string | null;
}

/** Maps a users row to the session user. */
export function toSessionUser(row: UserRow): SessionUser {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    fullName: row.full_name,
    role: row.role,
    avatarUrl: row.avatar_url,
    phone: row.phone,
    address: row.address,
    createdAt: row.created_at,
    failedLogins:
      row.failed_logins > 0 && row.failed_login_at
        ? { count: row.failed_logins, lastAt: new Date(row.failed_login_at) }
        : null,
  };
}

function cookieOptions(ctx: AppContext, expires?: Date) {
  const { config } = ctx.deps;
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: ctx.secure || config.env === 'production',
    path: '/',
    overwrite: true,
    expires,
  };
}

type CookieOptions = ReturnType<typeof cookieOptions> & { maxAge?: number };

/**
 * Sets the session cookie. In production TLS usually ends at a proxy, so the hop to us is plain http;
 * the cookie must still be Secure, and the cookies library refuses that unless told the link is secure.
 */
function setSessionCookie(ctx: AppContext, value: string, opts: CookieOptions): void {
  if (opts.secure) ctx.cookies.secure = true;
  ctx.cookies.set(SESSION_COOKIE, value, opts);
}

/** Starts a new session (a fresh random id every login) and sets its cookie. */
export async function startSession(ctx: AppContext, db: Knex, userId: number): Promise<void> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = ctx.deps.clock.now();
  const expiresAt = new Date(now.getTime() + ctx.deps.config.sessionTtlDays * 86_400_000);
  // A session presented before login is never reused: drop it so the old id cannot be fixed on the user.
  if (ctx.state.sessionId) await db('sessions').where({ id: ctx.state.sessionId }).delete();
  await db('sessions').insert({
    id: hashToken(token),
    user_id: userId,
    created_at: now,
    last_seen_at: now,
    expires_at: expiresAt,
    user_agent: ctx.get('User-Agent').slice(0, 300) || null,
    ip: ctx.ip,
  });
  setSessionCookie(ctx, token, cookieOptions(ctx, expiresAt));
}

/** Revokes the current session on the server and clears the cookie. */
export async function endSession(ctx: AppContext, db: Knex): Promise<void> {
  if (ctx.state.sessionId) await db('sessions').where({ id: ctx.state.sessionId }).delete();
  setSessionCookie(ctx, '', { ...cookieOptions(ctx, new Date(0)), maxAge: 0 });
  ctx.state.user = undefined;
  ctx.state.sessionId = undefined;
}

/** Revokes every session of a user except, optionally, one to keep. */
export async function revokeUserSessions(db: Knex, userId: number, keepSessionId?: string): Promise<void> {
  const q = db('sessions').where({ user_id: userId });
  if (keepSessionId) q.whereNot({ id: keepSessionId });
  await q.delete();
}

/** Touch a session's last_seen_at at most this often: keeps the hot path free of writes. */
const TOUCH_INTERVAL_MS = 3_600_000;

/**
 * One statement per API request, by the sessions primary key and the users primary key. Written as SQL
 * rather than built with knex: it runs on every request (1,250 a second from polling sellers), and the
 * builder's compile was a visible share of each one; on PostgreSQL it is a prepared statement, planned once
 * per connection. Timestamps go in as ISO strings (pg's Date serialiser is slow) and the "needs a touch"
 * test is answered by the database, not by parsing a date.
 *
 * `SESSION_USER_CTE` is the same lookup as a CTE named `me`, for a route that reads the session and its own
 * rows in one round trip (see SESSION_IN_ROUTE): bindings `sessionBindings(...)` first.
 */
export const SESSION_USER_CTE = `me as (
  select ${USER_COLUMNS.map((c) => `u.${c}`).join(', ')}, s.last_seen_at < ?::timestamptz as stale
    from sessions s join users u on u.id = s.user_id
   where s.id = ? and s.expires_at > ?::timestamptz)`;
const SESSION_SQL = `with ${SESSION_USER_CTE} select * from me`;

export type SessionRow = UserRow & { stale: boolean };

/** The bindings of SESSION_USER_CTE for a session id at a moment. */
export function sessionBindings(id: string, now: Date): string[] {
  return [new Date(now.getTime() - TOUCH_INTERVAL_MS).toISOString(), id, now.toISOString()];
}

/** The hashed session id of the request's cookie, when it has one. */
export function sessionIdOf(ctx: AppContext): string | undefined {
  const token = ctx.cookies.get(SESSION_COOKIE);
  return token ? hashToken(token) : undefined;
}

/** Puts the user of a looked-up session row on the request, touching the session if it is stale. */
export async function adoptSession(ctx: AppContext, id: string, row: SessionRow | undefined): Promise<void> {
  if (!row) return;
  ctx.state.user = toSessionUser(row);
  ctx.state.sessionId = id;
  if (row.stale) await ctx.deps.db('sessions').where({ id }).update({ last_seen_at: ctx.deps.clock.now() });
}

/**
 * Paths whose route looks the session up itself, in the same statement as its own query (the incoming-call
 * poll: 1,250 requests a second, one round trip each instead of two): the route table's `session: 'in-route'`
 * entries, mounted with endpointWithSession (api/src/http/endpoint.ts).
 */
export const SESSION_IN_ROUTE: ReadonlySet<string> = pathsWhere((r) => r.session === 'in-route');

/** Looks the cookie's session up on its own and puts its user on the request (what the middleware does). */
export async function loadSession(ctx: AppContext): Promise<void> {
  const id = sessionIdOf(ctx);
  if (!id) return;
  const [row] = await hotQuery<SessionRow>(
    ctx.deps.db,
    'session_user',
    SESSION_SQL,
    sessionBindings(id, ctx.deps.clock.now()),
  );
  await adoptSession(ctx, id, row);
}

const ME_COLUMNS = [...USER_COLUMNS, 'stale'] as const;
const ME_SELECT = ME_COLUMNS.map((c) => `me.${c} as me__${c}`).join(', ');

/**
 * A route's statement run together with the session lookup, in one round trip (for a path in
 * SESSION_IN_ROUTE). `ctes` (optional) are more WITH entries after `me`; `select` is a query that may refer to
 * `me` (the session's user: no row without a valid session) and gives the route's rows; it is joined
 * laterally to `me`, and the rows come back ordered by `orderBy` (columns of the route's rows, as `r.x`).
 * Whatever the route writes must be guarded on `me` (its role), since the session is only checked afterwards:
 * endpointWithSession puts it on the request with adoptSession, then checks the role.
 */
export async function queryWithSession<T>(
  deps: AppDeps,
  sessionId: string,
  name: string,
  stmt: { ctes?: string; select: string; orderBy?: string },
  bindings: unknown[],
): Promise<{ session: SessionRow | undefined; rows: T[] }> {
  const sql = `with ${SESSION_USER_CTE}${stmt.ctes ? `, ${stmt.ctes}` : ''}
    select ${ME_SELECT}, r.* from me left join lateral (${stmt.select}) r on true
    ${stmt.orderBy ? `order by ${stmt.orderBy}` : ''}`;
  const raw = await hotQuery<Record<string, unknown>>(deps.db, name, sql, [
    ...sessionBindings(sessionId, deps.clock.now()),
    ...bindings,
  ]);
  if (raw.length === 0) return { session: undefined, rows: [] };
  const session = Object.fromEntries(ME_COLUMNS.map((c) => [c, raw[0][`me__${c}`]])) as unknown as SessionRow;
  // A session with no route rows still answers one row (the left join), with the route's columns null.
  const first = Object.keys(raw[0]).find((k) => !k.startsWith('me__'));
  const rows = first === undefined || (raw.length === 1 && raw[0][first] === null) ? [] : raw;
  return { session, rows: rows as T[] };
}

/** Loads the user for the session cookie, if any, into ctx.state. */
export function sessionMiddleware() {
  return async function session(ctx: AppContext, next: Next) {
    if (ctx.path.startsWith('/_api/') && !SESSION_IN_ROUTE.has(ctx.path)) await loadSession(ctx);
    return next();
  };
}
