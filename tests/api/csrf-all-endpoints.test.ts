import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api';
import { apiEndpoints, newSession, rawRequest, roleUsers, type Endpoint } from './attack-support';

/**
 * CSRF on every state-changing endpoint the router serves (read from the live router, so a new POST is
 * covered the day it lands): a cross-origin request, a form-encoded one and one with no origin at all are
 * refused before anything runs, with a signed-in user's cookie attached — and nothing in the database changes.
 */

let api: TestApi;
let posts: Endpoint[];
const cookies: string[] = [];

beforeAll(async () => {
  api = await startTestApi();
  posts = apiEndpoints(api).filter((e) => e.method === 'POST');
  const users = await roleUsers(api);
  for (const u of [users.customer, users.seller, users.admin])
    cookies.push(`nagai_session=${await newSession(api, u.id)}`);
});
afterAll(async () => api?.close());

const CROSS_ORIGIN = { error: 'Cross-origin requests are not allowed.', code: 'cross_origin_refused' };
const NOT_JSON = { error: 'Requests must be sent as JSON.', code: 'unsupported_media_type' };

/** Row counts of every table of the test database: the refused requests must leave them all as they were. */
async function tableCounts(): Promise<Record<string, number>> {
  const tables = (
    (await api.db.knex.raw(
      `select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`,
    )) as { rows: { name: string }[] }
  ).rows.map((r) => r.name);
  const out: Record<string, number> = {};
  for (const t of tables) {
    const [row] = (await api.db.knex(t).count({ n: '*' })) as { n: unknown }[];
    out[t] = Number(row.n);
  }
  return out;
}

/** A body that would be valid-looking for most endpoints, so a missing guard would let real work happen. */
const BODY = JSON.stringify({ displayName: 'Owned', productId: 1, quantity: 1, callId: 1, sellerId: 1 });

describe('CSRF: every state-changing endpoint', () => {
  it('has POST endpoints to check', () => {
    expect(posts.length).toBeGreaterThan(20);
    expect(posts).toContainEqual({ method: 'POST', path: '/_api/checkout/create' });
  });

  it('refuses cross-origin, cross-site, null-origin, form-encoded and origin-less requests, changing nothing', async () => {
    const before = await tableCounts();
    const failures: string[] = [];
    const check = (ep: Endpoint, label: string, got: { status: number; json: unknown }, want: unknown[]) => {
      if (!want.some((w) => JSON.stringify(w) === JSON.stringify({ status: got.status, body: got.json })))
        failures.push(`${ep.path} ${label}: ${got.status} ${JSON.stringify(got.json)}`);
    };
    const refusedCross = [{ status: 403, body: CROSS_ORIGIN }];
    const refusedForm = [{ status: 415, body: NOT_JSON }, ...refusedCross];
    const other = `http://127.0.0.1:${Number(new URL(api.url).port) + 1}`;

    for (const ep of posts) {
      for (const cookie of cookies) {
        const json = { 'Content-Type': 'application/json', Cookie: cookie };
        for (const origin of ['https://evil.example', 'null', other, api.url.replace('http:', 'https:')]) {
          const r = await rawRequest(api.url, 'POST', ep.path, { ...json, Origin: origin }, BODY);
          check(ep, `Origin ${origin}`, r, refusedCross);
        }
        for (const site of ['cross-site', 'same-site']) {
          const noOrigin = await rawRequest(
            api.url,
            'POST',
            ep.path,
            { ...json, 'Sec-Fetch-Site': site },
            BODY,
          );
          check(ep, `Sec-Fetch-Site ${site}`, noOrigin, refusedCross);
          const withOrigin = await rawRequest(
            api.url,
            'POST',
            ep.path,
            { ...json, Origin: api.url, 'Sec-Fetch-Site': site },
            BODY,
          );
          check(ep, `Origin self + Sec-Fetch-Site ${site}`, withOrigin, refusedCross);
        }
        const bare = await rawRequest(api.url, 'POST', ep.path, json, BODY);
        check(ep, 'no Origin, no Sec-Fetch-Site', bare, refusedCross);

        for (const type of [
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'text/plain',
          'text/plain; charset=utf-8',
        ]) {
          const form = await rawRequest(
            api.url,
            'POST',
            ep.path,
            { Origin: api.url, 'Content-Type': type, Cookie: cookie },
            type.startsWith('multipart')
              ? '--x\r\nContent-Disposition: form-data; name="displayName"\r\n\r\nOwned\r\n--x--\r\n'
              : type.startsWith('text')
                ? BODY
                : 'displayName=Owned&productId=1&quantity=1',
          );
          check(ep, `same-origin ${type}`, form, refusedForm);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await tableCounts()).toEqual(before);
  }, 240_000);

  it('lets a same-origin JSON request through to the endpoint (the guard is not refusing everything)', async () => {
    const through: string[] = [];
    for (const ep of posts) {
      const r = await rawRequest(
        api.url,
        'POST',
        ep.path,
        { Origin: api.url, 'Content-Type': 'application/json', Cookie: cookies[0] },
        '{}',
      );
      const code = (r.json as { code?: string } | undefined)?.code;
      if (code !== 'cross_origin_refused' && code !== 'unsupported_media_type') through.push(ep.path);
    }
    expect(through).toEqual(posts.map((e) => e.path));
  });
});
