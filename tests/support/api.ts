import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp, type AppHandle } from '../../api/src/app';
import { loadConfig, type Config } from '../../api/src/config';
import type { Clock } from '../../api/src/http/context';
import { createTestDatabase, type TestDatabase } from './db';

/** A test clock that starts at real time and only moves when told. */
export class TestClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface TestApi {
  url: string;
  db: TestDatabase;
  handle: AppHandle;
  config: Config;
  clock: TestClock;
  /** A new client with its own cookie jar, like a separate browser. */
  client(): ApiClient;
  close(): Promise<void>;
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** A fetch wrapper that keeps cookies and sends a same-origin Origin header, as a browser on the site would. */
export class ApiClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    opts: { body?: unknown; headers?: Record<string, string>; rawBody?: string } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { Origin: this.baseUrl, ...opts.headers };
    const cookie = this.cookieHeader();
    if (cookie) headers.Cookie = cookie;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      if (!value || /max-age=0|expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = Record<string, unknown>>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, { headers });
  }

  post<T = Record<string, unknown>>(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request<T>('POST', path, { body, headers });
  }
}

/** Starts the real app on a free loopback port against a fresh test database. */
export async function startTestApi(
  opts: {
    config?: Partial<Config>;
    env?: NodeJS.ProcessEnv;
    db?: TestDatabase;
    pushAgent?: import('node:https').Agent;
    /** Serve the built PWA too (pages, with server rendering when dist-ssr/ is built). */
    serveStatic?: boolean;
  } = {},
): Promise<TestApi> {
  const db = opts.db ?? (await createTestDatabase());
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...opts.env }, opts.config);
  const clock = new TestClock();
  const handle = createApp({
    db: db.knex,
    dbKind: db.kind,
    config,
    clock,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    pushAgent: opts.pushAgent,
    serveStatic: opts.serveStatic,
  });
  const server = http.createServer(handle.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The Razorpay test double (no keys in tests) sends its signed webhooks to this app.
  (await handle.deps.payments?.double())?.setWebhookUrl(`${url}/webhooks/razorpay`);
  // The Twilio test double (no TWILIO_* settings in tests) sends inbound messages ("STOP") to this app.
  (await handle.deps.sms?.double())?.setInboundUrl(`${url}/webhooks/twilio/sms`);
  return {
    url,
    db,
    handle,
    config,
    clock,
    client: () => new ApiClient(url),
    async close() {
      await handle.deps.events.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handle.background.stop();
      await handle.deps.payments?.close();
      await handle.deps.sms?.close();
      await db.close();
    },
  };
}
