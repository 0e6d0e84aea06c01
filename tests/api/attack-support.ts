import crypto from 'node:crypto';
import http from 'node:http';
import { buildSeller, buildUser } from '../factories';
import { ApiClient, type TestApi } from '../support/api';

/** One endpoint the live router serves. */
export interface Endpoint {
  method: 'GET' | 'POST';
  path: string;
}

/**
 * Every /_api endpoint the running app's router serves, read from its middleware stack, so a new endpoint
 * is attacked by these tests the moment it is registered.
 */
export function apiEndpoints(api: TestApi): Endpoint[] {
  const found = new Map<string, Endpoint>();
  for (const mw of api.handle.app.middleware) {
    const router = (mw as { router?: { stack: { path: string; methods: string[] }[] } }).router;
    if (!router) continue;
    for (const layer of router.stack) {
      if (!layer.path.startsWith('/_api/')) continue;
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        if (method !== 'GET' && method !== 'POST')
          throw new Error(`unexpected method ${method} ${layer.path}`);
        found.set(`${method} ${layer.path}`, { method, path: layer.path });
      }
    }
  }
  return [...found.values()].sort((a, b) => `${a.method} ${a.path}`.localeCompare(`${b.method} ${b.path}`));
}

export type Role = 'visitor' | 'customer' | 'seller' | 'admin';
export const ROLES: Role[] = ['visitor', 'customer', 'seller', 'admin'];

/** A user of each role (the seller with an approved shop profile). */
export async function roleUsers(api: TestApi): Promise<Record<Exclude<Role, 'visitor'>, { id: number }>> {
  return {
    customer: await buildUser(api.db.knex, { role: 'customer' }),
    seller: await buildSeller(api.db.knex),
    admin: await buildUser(api.db.knex, { role: 'admin' }),
  };
}

/** A fresh session cookie value for a user, made the way the server makes one. */
export async function newSession(api: Pick<TestApi, 'db'>, userId: number): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await api.db.knex('sessions').insert({
    id: crypto.createHash('sha256').update(token).digest('base64url'),
    user_id: userId,
    expires_at: new Date(Date.now() + 86_400_000),
  });
  return token;
}

/** A client signed in as the given role (a visitor has no cookie). */
export async function clientAs(
  api: TestApi,
  role: Role,
  users: Record<Exclude<Role, 'visitor'>, { id: number }>,
): Promise<ApiClient> {
  const client = new ApiClient(api.url);
  if (role !== 'visitor') client.cookies.set('nagai_session', await newSession(api, users[role].id));
  return client;
}

/** Things no answer may ever contain: stack frames, source paths, SQL or database internals. */
export const LEAKS =
  /\bat [\w.<>]+ \(|\bat .+:\d+:\d+|node_modules|\/work\/|\.ts:\d+|\.js:\d+|select .+ from |insert into |update .+ set |delete from |duplicate key|violates .+ constraint|relation "|syntax error at|knex|pg_|PGlite|Error: /i;

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
}

/** A request with exactly these headers and bytes (node:http adds nothing of its own but Host). */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
  timeoutMs = 20_000,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      baseUrl + path,
      {
        method,
        agent: false,
        timeout: timeoutMs,
        headers:
          body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        // An event stream (GET /_api/events) stays open by design: its status and headers are the answer.
        if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '', json: undefined });
          req.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout: ${method} ${path}`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** True when a body has the error shape every failure must have: { error: <text>, code: <text>, issues? }. */
export function isErrorShape(json: unknown): boolean {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return false;
  const b = json as Record<string, unknown>;
  return typeof b.error === 'string' && b.error.length > 0 && typeof b.code === 'string' && b.code.length > 0;
}
