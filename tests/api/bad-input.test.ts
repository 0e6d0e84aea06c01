import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa, { type Context } from 'koa';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CALL_MESSAGES } from '../../api/contract/calls';
import { CART_MESSAGES } from '../../api/contract/cart';
import { AppError, BAD_INPUT_MESSAGE, errorMiddleware } from '../../api/src/http/errors';
import { INPUT_MESSAGES, MAX_BODY_DEPTH } from '../../api/src/http/input-guard';
import { parseBody } from '../../api/src/http/validate';
import { buildProduct } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { apiEndpoints, clientAs, isErrorShape, rawRequest, roleUsers } from './attack-support';

/** Each of these once answered 500: now a 400 with a message that says what is wrong. */
let api: TestApi;
let customer: ApiClient;
let seller: ApiClient;
let productId: number;
beforeAll(async () => {
  api = await startTestApi();
  const users = await roleUsers(api);
  customer = await clientAs(api, 'customer', users);
  seller = await clientAs(api, 'seller', users);
  productId = (await buildProduct(api.db.knex, users.seller.id, { stockQuantity: 5 })).id;
});
afterAll(async () => api?.close());

const NUL = 'Kavya\u0000Iyer';
const BIG = 2 ** 31;

describe('NUL characters in any string', () => {
  it('are refused in bodies, keys, query strings and paths before anything is stored', async () => {
    const cases: [ApiClient, string, unknown][] = [
      [
        api.client(),
        '/_api/auth/register_with_password',
        { email: 'n@example.test', password: 'longenough', displayName: NUL },
      ],
      [api.client(), '/_api/auth/login_with_password', { email: 'n@example.test', password: NUL }],
      [customer, '/_api/user/profile/update', { address: NUL }],
      [customer, '/_api/user/profile/update', { ['address\u0000']: 'x' }],
      [seller, '/_api/seller/profile/update', { shopName: NUL }],
      [customer, '/_api/checkout/create', { customerName: NUL }],
      [customer, '/_api/orders/rate', { orderId: 1, productId, stars: 5, review: NUL }],
      [customer, '/_api/call/quality', { callId: 1, nested: [{ deeper: NUL }] }],
    ];
    for (const [client, path, body] of cases) {
      const res = await client.post(path, body);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual({ error: INPUT_MESSAGES.nul, code: 'invalid_characters' });
    }
    for (const path of [
      '/_api/products/list?query=ring%00',
      '/_api/search/suggestions?query=a%00b',
      '/media/a%00b',
    ]) {
      const res = await api.client().get(path);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual({ error: INPUT_MESSAGES.nul, code: 'invalid_characters' });
    }
    expect(await api.db.knex('users').where({ email: 'n@example.test' }).first()).toBeUndefined();
  });
});

describe('ids above 2^31 − 1', () => {
  it('are refused by the calls and cart validators with their own messages', async () => {
    const cases: [string, unknown, string][] = [
      ['/_api/cart/add', { productId: BIG, quantity: 1 }, CART_MESSAGES.productIdInvalid],
      ['/_api/cart/update', { cartItemId: BIG, quantity: 1 }, CART_MESSAGES.cartItemIdInvalid],
      ['/_api/cart/remove', { cartItemId: BIG }, CART_MESSAGES.cartItemIdInvalid],
      ['/_api/call/initiate', { sellerId: BIG }, CALL_MESSAGES.invalidSellerId],
      ['/_api/call/end', { callId: BIG }, CALL_MESSAGES.invalidCallId],
      ['/_api/call/signal', { callId: BIG, kind: 'offer', payload: {} }, CALL_MESSAGES.invalidCallId],
    ];
    for (const [path, body, message] of cases) {
      const res = await customer.post(path, body);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ error: message });
    }
    const respond = await seller.post('/_api/call/respond', { callId: BIG, response: 'accept' });
    expect(respond.body).toMatchObject({ error: CALL_MESSAGES.invalidCallId });
    for (const path of [
      `/_api/call/status?callId=${BIG}`,
      `/_api/call/signals?callId=${BIG}`,
      `/_api/call/signals?callId=1&after=${BIG}`,
    ]) {
      const res = await customer.get(path);
      expect(res.status, path).toBe(400);
    }
  });
});

describe('push expirationTime of the wrong type', () => {
  it('is a 400 naming the field', async () => {
    const keys = { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) };
    for (const expirationTime of ['soon', 1.5, -1, 1e300, true, { at: 1 }]) {
      const res = await seller.post('/_api/push/subscribe', {
        endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
        expirationTime,
        keys,
      });
      expect(res.status, JSON.stringify(expirationTime)).toBe(400);
      expect(res.body).toMatchObject({ error: 'expirationTime must be a time in milliseconds or null.' });
    }
  });
});

describe('deeply nested JSON', () => {
  it(`is refused past ${MAX_BODY_DEPTH} levels on every kind of body`, async () => {
    const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    const headers = { Origin: api.url, 'Content-Type': 'application/json', Cookie: customer.cookieHeader() };
    for (const path of ['/_api/call/signal', '/_api/cart/add', '/_api/auth/login_with_password']) {
      for (const body of [deep(MAX_BODY_DEPTH + 1), deep(5000), '['.repeat(20000) + ']'.repeat(20000)]) {
        const res = await rawRequest(api.url, 'POST', path, headers, body);
        expect(res.status, path).toBe(400);
        expect(res.json, path).toEqual({ error: INPUT_MESSAGES.tooDeep, code: 'too_deep' });
      }
    }
    // A signalling payload nested a little (as SDP and candidates are) still passes the guard.
    const ok = await rawRequest(api.url, 'POST', '/_api/call/signal', headers, deep(4));
    expect(ok.json).not.toMatchObject({ code: 'too_deep' });
  });
});

describe("keys that shadow Object.prototype's members", () => {
  const RESERVED = { error: INPUT_MESSAGES.reservedName, code: 'reserved_name' };
  const headers = () => ({
    Origin: api.url,
    'Content-Type': 'application/json',
    Cookie: seller.cookieHeader(),
  });

  it('are refused: the fuzzed body that once answered 500 (fast-check seed -1347184381)', async () => {
    // `status` had an own `length` holding an object with an own `toString`: zod's length check compared it
    // with a number, which threw a TypeError out of safeParse.
    const res = await rawRequest(
      api.url,
      'POST',
      '/_api/orders/update-status?orderId=2147483648&status=2',
      headers(),
      JSON.stringify({
        orderId: 1,
        valueOf: 990849105,
        status: { length: [6.4e-323, { toString: 2.5e-323 }] },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.json).toEqual(RESERVED);
  });

  it('are refused with a 400 at any depth of the body on every POST route', async () => {
    const posts = apiEndpoints(api).filter((e) => e.method === 'POST');
    expect(posts.length).toBeGreaterThan(20);
    for (const { path } of posts) {
      for (const name of ['toString', 'valueOf', 'constructor', 'hasOwnProperty']) {
        for (const body of [
          { [name]: 1 },
          { status: { [name]: 1, valueOf: 2 } },
          { orderId: 1, status: { length: [1, { [name]: 1 }] } },
          { callId: 1, payload: { sdp: 'v=0', nested: [{ [name]: 'x' }] } },
        ]) {
          const res = await rawRequest(api.url, 'POST', path, headers(), JSON.stringify(body));
          expect({ path, body, status: res.status, json: res.json }).toEqual({
            path,
            body,
            status: 400,
            json: RESERVED,
          });
        }
      }
      // A "__proto__" key never gets this far: the JSON parser refuses it, also with a 400.
      const proto = await rawRequest(
        api.url,
        'POST',
        path,
        headers(),
        '{"status":{"__proto__":{"toString":1}}}',
      );
      expect(proto.status, path).toBe(400);
      expect(isErrorShape(proto.json), path).toBe(true);
    }
  });

  it('in the query string are plain text, never a 500', async () => {
    // Koa parses `a[b]=1` as the key "a[b]", not as an object: query values are always strings.
    const query = 'toString=1&valueOf=2&constructor=3&hasOwnProperty=4&status[toString]=1&orderId[length]=2';
    for (const { method, path } of apiEndpoints(api)) {
      const res = await rawRequest(
        api.url,
        method,
        `${path}?${query}`,
        headers(),
        method === 'POST' ? '{}' : undefined,
      );
      expect(res.status, path).toBeLessThan(500);
      if (res.status >= 400) expect(isErrorShape(res.json), path).toBe(true);
    }
  });

  it('cannot make a validator throw past parseBody: a value it cannot read is a 400', () => {
    const schema = z.object({ status: z.string().trim().min(1) });
    const ctx = { path: '/_api/x', request: { body: { status: { length: [1, { toString: 1 }] } } } };
    let caught: unknown;
    try {
      parseBody(ctx as unknown as Context, schema);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(caught).toMatchObject({ status: 400, code: 'invalid_value', message: BAD_INPUT_MESSAGE });
  });
});

describe('the net under the validators', () => {
  it('answers a database refusal of a value with a 400, not a 500', async () => {
    const app = new Koa();
    app.use(errorMiddleware(pino({ level: 'silent' })));
    app.use(() => {
      throw Object.assign(new Error('value "99999999999" is out of range for type integer'), {
        code: '22003',
      });
    });
    const server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/_api/x`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: BAD_INPUT_MESSAGE, code: 'invalid_value' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
