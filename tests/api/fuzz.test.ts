import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProduct } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import {
  apiEndpoints,
  clientAs,
  isErrorShape,
  LEAKS,
  rawRequest,
  roleUsers,
  ROLES,
  type Endpoint,
  type Role,
} from './attack-support';

/**
 * Property-based fuzzing of every /_api endpoint the router serves, as every role, with arbitrary JSON
 * bodies and query strings: the answer is never a 500, never leaks a stack, path or SQL, and every
 * refusal has the { error, code } shape. Bounded: FUZZ_RUNS cases per endpoint per role.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 15);

let api: TestApi;
let users: Awaited<ReturnType<typeof roleUsers>>;
let endpoints: Endpoint[];

beforeAll(async () => {
  api = await startTestApi();
  users = await roleUsers(api);
  // Real rows behind small ids, so fuzzed ids sometimes hit something that exists.
  for (let i = 0; i < 3; i++) await buildProduct(api.db.knex, users.seller.id, { stockQuantity: 3 });
  endpoints = apiEndpoints(api);
});
afterAll(async () => api?.close());

// Field names the contracts use, so fuzzed objects reach past "unknown field" into the real validators.
const FIELDS = [
  'id',
  'productId',
  'sellerId',
  'callId',
  'quantity',
  'email',
  'password',
  'currentPassword',
  'newPassword',
  'displayName',
  'fullName',
  'role',
  'adminCode',
  'name',
  'description',
  'price',
  'category',
  'material',
  'images',
  'stockQuantity',
  'response',
  'kind',
  'payload',
  'status',
  'orderId',
  'rating',
  'subscription',
  'endpoint',
  'keys',
  'shopName',
  'urlSlug',
  'phone',
  'address',
  'pinCode',
  'paymentMethod',
  'approved',
  'json',
  'meta',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
];
const QUERY_KEYS = [
  'id',
  'productId',
  'sellerId',
  'callId',
  'after',
  'limit',
  'page',
  'pageSize',
  'q',
  'query',
  'search',
  'category',
  'material',
  'sort',
  'minPrice',
  'maxPrice',
  'slug',
  'city',
  'status',
  'offset',
  'cursor',
  '__proto__',
  'constructor',
  'id[]',
  'id[__proto__]',
  'sellerId[toString]',
];

const nastyScalar = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    1,
    2,
    3,
    2147483647,
    2147483648,
    -2147483649,
    9007199254740992,
    1e308,
    -1e308,
    1.5,
    1e-9,
    '',
    ' ',
    '0',
    '-1',
    '1e400',
    'NaN',
    'Infinity',
    '99999999999999999999999',
    '1; drop table users; --',
    "' or 1=1 --",
    '\u0000',
    '%00',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    '𝒩𝒶𝑔𝒶𝒾',
    'null',
    'true',
    'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
    'http://127.0.0.1:1/x.png',
    'accept',
    'decline',
    'offer',
    true,
    false,
    null,
  ),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 40 }),
  fc.nat({ max: 5000 }).map((n) => 'x'.repeat(n * 10)),
);

const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    nastyScalar,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), tie('v'), {
      maxKeys: 5,
    }),
  ),
})).v;

const fieldObject = fc.dictionary(fc.constantFrom(...FIELDS), value, { minKeys: 1, maxKeys: 6 });

/** A raw JSON text: arbitrary JSON, objects with contract fields, deep nesting and pollution attempts. */
const jsonBody: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fieldObject.map((v) => JSON.stringify(v)),
  value.map((v) => JSON.stringify(v) ?? 'null'),
  fc.integer({ min: 1, max: 20_000 }).map((d) => '['.repeat(d) + ']'.repeat(d)),
  fc.integer({ min: 1, max: 5_000 }).map((d) => '{"a":'.repeat(d) + '1' + '}'.repeat(d)),
  fc
    .tuple(fc.constantFrom(...FIELDS), value)
    .map(
      ([k, v]) =>
        `{"__proto__":{"role":"admin","isAdmin":true,"polluted":1},"constructor":{"prototype":{"polluted":1}},"${k}":${JSON.stringify(v) ?? 'null'}}`,
    ),
  fc.constantFrom(
    '{"a":',
    '{"a":1}}',
    'nul',
    '"\\ud800"',
    '{"a":"\\u0000"}',
    '1e99999',
    '[' + '1,'.repeat(5000) + '1]',
  ),
);

// Query values stay under Node's 16 KB header limit; a longer URL is refused by Node's parser with 431
// before the app runs (tests/resilience covers that answer's shape on the real server).
const queryScalar = fc.oneof(
  nastyScalar.filter((v) => typeof v !== 'string' || v.length <= 1500),
  fc.nat({ max: 150 }).map((n) => 'x'.repeat(n * 10)),
);

/** A raw query string: contract keys and noise, repeated keys, broken percent-encoding, bracket syntax. */
const queryString: fc.Arbitrary<string> = fc.oneof(
  fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 6 })), queryScalar), {
      maxLength: 5,
    })
    .map((pairs) => new URLSearchParams(pairs.map(([k, v]) => [k, String(v)])).toString()),
  fc.constantFrom(
    '',
    'id=%',
    'id=%ZZ',
    'q=%E0%A4',
    'id=1&id=2',
    'id[]=1',
    'id[a]=1',
    '__proto__[role]=admin',
    '&&&==',
  ),
);

interface Finding {
  method: string;
  path: string;
  role: Role;
  status: number;
  text: string;
}

function problem(res: { status: number; text: string; json: unknown }): string | null {
  if (res.status >= 500) return `status ${res.status}`;
  if (LEAKS.test(res.text) && res.status >= 300) return 'leaks internals';
  if (/\bat .+:\d+:\d+|node_modules|\/work\//.test(res.text)) return 'leaks a stack or path';
  if (res.status >= 400 && !isErrorShape(res.json)) return 'refusal without { error, code }';
  return null;
}

// Values a validator accepts for many fields, so that one hostile value in a learned field reaches the handler
// (and the database) with the fields around it valid.
const plausible = fc.constantFrom<unknown>(
  1,
  2,
  3,
  'accept',
  'offer',
  'hangup',
  'confirmed',
  'cash_on_delivery',
  'Kavya Iyer',
  'kavya@example.test',
  'Temple#Bells42',
  '9876543210',
  '625001',
  'Madurai',
  '12 Temple Street, Madurai',
  'https://fcm.googleapis.com/fcm/send/fuzz',
  { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
  { sdp: 'v=0', type: 'offer' },
  null,
  true,
);
// What once gave 500s: NUL characters, ids past 2^31 − 1, wrong types, deep nesting, hidden characters.
const hostile = fc.constantFrom<unknown>(
  'a\u0000b',
  '\u0000',
  2147483648,
  -2147483649,
  2 ** 53 + 2,
  1e300,
  1.5,
  -1,
  'soon',
  '\u202Eevil',
  [],
  {},
  JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)) as unknown,
);

/**
 * The fields an endpoint's validator names when sent nothing (a 400 lists its issues' paths), learned from the
 * live router as this role sees it: no hand-kept table of routes or fields.
 */
async function learnedFields(ep: Endpoint, headers: Record<string, string>): Promise<string[]> {
  const res = await rawRequest(api.url, ep.method, ep.path, headers, ep.method === 'POST' ? '{}' : undefined);
  const issues = (res.json as { issues?: { path: string }[] } | undefined)?.issues ?? [];
  return [...new Set(issues.map((i) => i.path.split('.')[0]).filter((k) => k && k !== 'form'))];
}

/** Objects over the learned fields: mostly plausible values, one or more hostile. */
const learnedBody = (fields: string[]) =>
  fc
    .tuple(
      fc.record(
        Object.fromEntries(fields.map((f) => [f, fc.oneof({ weight: 3, arbitrary: plausible }, hostile)])),
      ),
      fc.constantFrom(...fields),
      hostile,
    )
    .map(([obj, field, bad]) => ({ ...obj, [field]: bad }));

async function fuzzOne(ep: Endpoint, role: Role, client: ApiClient): Promise<void> {
  const headers = (): Record<string, string> => ({
    Origin: api.url,
    'Content-Type': 'application/json',
    Cookie: client.cookieHeader(),
  });
  const fields = await learnedFields(ep, headers());
  const learned = fields.length > 0 ? learnedBody(fields) : null;
  const bodies = learned
    ? fc.oneof(
        jsonBody,
        learned.map((o) => JSON.stringify(o)),
      )
    : jsonBody;
  const queries = learned
    ? fc.oneof(
        queryString,
        learned.map((o) =>
          new URLSearchParams(
            Object.entries(o).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]),
          ).toString(),
        ),
      )
    : queryString;
  await fc.assert(
    fc.asyncProperty(queries, bodies, async (qs, body) => {
      const path = qs ? `${ep.path}?${qs}` : ep.path;
      const res = await rawRequest(
        api.url,
        ep.method,
        path,
        headers(),
        ep.method === 'POST' ? body : undefined,
      );
      const p = problem(res);
      if (p) {
        const f: Finding = {
          method: ep.method,
          path,
          role,
          status: res.status,
          text: res.text.slice(0, 300),
        };
        throw new Error(`${p}: ${JSON.stringify(f)} body=${body.slice(0, 200)}`);
      }
    }),
    { numRuns: RUNS, endOnFailure: true },
  );
}

describe('fuzzing every /_api endpoint as every role', () => {
  it('finds the endpoints on the live router', () => {
    expect(endpoints.length).toBeGreaterThan(30);
    expect(endpoints).toContainEqual({ method: 'POST', path: '/_api/checkout/create' });
    expect(endpoints).toContainEqual({ method: 'GET', path: '/_api/products/list' });
  });

  for (const role of ROLES) {
    it(`as ${role}: never a 500, never a leak, every refusal shaped { error, code }`, async () => {
      for (const ep of endpoints) {
        // A fresh session per endpoint: a fuzzed logout or password change must not turn the rest into visitors.
        const client = await clientAs(api, role, users);
        await fuzzOne(ep, role, client);
      }
      // Nothing a request sent leaked into the process's shared prototypes.
      const probe = {} as Record<string, unknown>;
      expect(probe.polluted).toBeUndefined();
      expect(probe.role).toBeUndefined();
      expect(probe.isAdmin).toBeUndefined();
    }, 240_000);
  }
});
