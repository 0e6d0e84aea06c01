import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import { requestLogLevel, SLOW_REQUEST_MS } from '../../api/src/http/logging';
import { buildSeller, buildUser } from '../factories';
import { ApiClient } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { newSession } from './attack-support';

/** Request log lines: every request logged, fast successful polls at debug, errors and slow ones at info. */

interface Line {
  level: number;
  msg: string;
  path?: string;
  status?: number;
  method?: string;
  userId?: number;
}

let db: TestDatabase;
let server: http.Server;
let url = '';
let stopBackground: () => Promise<void>;
const lines: Line[] = [];
let seller: ApiClient;
let customer: ApiClient;

beforeAll(async () => {
  db = await createTestDatabase();
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Line);
      cb();
    },
  });
  const handle = createApp({
    db: db.knex,
    dbKind: db.kind,
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'debug' }),
    logger: pino({ level: 'debug' }, sink),
  });
  stopBackground = () => handle.background.stop();
  server = http.createServer(handle.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const s = await buildSeller(db.knex);
  const c = await buildUser(db.knex, { role: 'customer' });
  seller = new ApiClient(url);
  seller.cookies.set('nagai_session', await newSession({ db }, s.id));
  customer = new ApiClient(url);
  customer.cookies.set('nagai_session', await newSession({ db }, c.id));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await stopBackground();
  await db.close();
});

beforeEach(() => {
  lines.length = 0;
});

const requestLines = (path: string) => lines.filter((l) => l.msg === 'request' && l.path === path);
const DEBUG = 20;
const INFO = 30;

describe('request log lines', () => {
  it('logs a successful incoming-call poll at debug, with its user', async () => {
    const res = await seller.request('GET', '/_api/call/incoming');
    expect(res.status).toBe(200);
    const [line] = requestLines('/_api/call/incoming');
    expect(line).toMatchObject({ level: DEBUG, method: 'GET', status: 200 });
    expect(line.userId).toEqual(expect.any(Number));
  });

  it('logs a refused poll at info', async () => {
    const res = await customer.request('GET', '/_api/call/incoming');
    expect(res.status).toBe(403);
    expect(requestLines('/_api/call/incoming')[0]).toMatchObject({ level: INFO, status: 403 });
    const anonymous = await new ApiClient(url).request('GET', '/_api/call/status?callId=1');
    expect(anonymous.status).toBe(401);
    expect(requestLines('/_api/call/status')[0]).toMatchObject({ level: INFO, status: 401 });
  });

  it('logs every other request at info, GETs and POSTs alike', async () => {
    expect((await customer.request('GET', '/_api/cart/list')).status).toBe(200);
    expect(requestLines('/_api/cart/list')[0]).toMatchObject({ level: INFO, status: 200 });
    await customer.request('POST', '/_api/cart/add', { body: { productId: 999999, quantity: 1 } });
    expect(requestLines('/_api/cart/add')[0]).toMatchObject({ level: INFO, method: 'POST' });
  });

  it('keeps slow polls, errors and non-GET polls at info', () => {
    expect(requestLogLevel('GET', '/_api/call/incoming', 200, 3)).toBe('debug');
    expect(requestLogLevel('GET', '/_api/call/signals', 200, 3)).toBe('debug');
    expect(requestLogLevel('GET', '/_api/call/incoming', 200, SLOW_REQUEST_MS)).toBe('info');
    expect(requestLogLevel('GET', '/_api/call/incoming', 500, 3)).toBe('info');
    expect(requestLogLevel('GET', '/_api/call/incoming', 503, 3)).toBe('info');
    expect(requestLogLevel('POST', '/_api/call/incoming', 200, 3)).toBe('info');
    expect(requestLogLevel('GET', '/_api/products/list', 200, 3)).toBe('info');
  });
});
