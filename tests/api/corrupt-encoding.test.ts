import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../api/contract/routes';
import { createApp } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import { createTestDatabase, type TestDatabase } from '../support/db';

/**
 * Issue #46, item 7: a request body whose Content-Encoding does not match its bytes (gzip, deflate or br that
 * is not) is the client's mistake: 400 with the usual { error, code }, and nothing logged at error level. It used
 * to surface as the decompressor's error: 500 "internal_error" and an "unhandled error" line.
 */

interface Line {
  level: number;
  msg: string;
}
const ERROR = 50;

let db: TestDatabase;
let server: http.Server;
let url = '';
let stopBackground: () => Promise<void>;
let closeDoubles: () => Promise<void>;
const lines: Line[] = [];

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
  closeDoubles = async () => {
    await handle.deps.payments?.close();
    await handle.deps.sms?.close();
  };
  server = http.createServer(handle.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await stopBackground();
  await closeDoubles();
  await db.close();
});

beforeEach(() => {
  lines.length = 0;
});

const JSON_BODY = JSON.stringify({ email: 'someone@example.test', password: 'not-the-password' });

/** Bodies that claim an encoding they are not: plain bytes, and a real stream cut in half. */
const CORRUPT: { encoding: string; what: string; body: Buffer }[] = [
  { encoding: 'gzip', what: 'plain text', body: Buffer.from('this is not gzip at all') },
  { encoding: 'gzip', what: 'a cut stream', body: zlib.gzipSync(JSON_BODY).subarray(0, 20) },
  { encoding: 'deflate', what: 'plain text', body: Buffer.from('this is not deflate either') },
  { encoding: 'br', what: 'bytes', body: Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x13, 0x37, 0xff]) },
];

const ROUTES = [
  { name: 'login', path: API_ROUTES.login.path },
  { name: 'the Razorpay webhook', path: API_ROUTES.razorpayWebhook.path },
  { name: 'registration', path: API_ROUTES.register.path },
];

async function post(path: string, encoding: string, body: Buffer) {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: {
      Origin: url,
      'Content-Type': 'application/json',
      'Content-Encoding': encoding,
      'X-Razorpay-Signature': '00',
    },
    body: new Uint8Array(body),
  });
  return { status: res.status, body: (await res.json()) as { error?: string; code?: string } };
}

describe('a corrupt compressed request body (issue #46, item 7)', () => {
  for (const route of ROUTES)
    for (const c of CORRUPT)
      it(`${route.name}: Content-Encoding ${c.encoding} with ${c.what} is a 400, logged below error`, async () => {
        const res = await post(route.path, c.encoding, c.body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: 'The request body could not be decompressed: it does not match its Content-Encoding.',
          code: 'invalid_encoding',
        });
        expect(lines.filter((l) => l.level >= ERROR)).toEqual([]);
      });

  it('a body that is what its Content-Encoding says is still read (a gzipped login reaches the login)', async () => {
    const res = await post(API_ROUTES.login.path, 'gzip', zlib.gzipSync(JSON_BODY));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_credentials');
  });
});
