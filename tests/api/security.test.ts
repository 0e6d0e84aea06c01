import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../api/src/http/session';
import { startTestApi, type TestApi } from '../support/api';
import { buildUser, login } from '../factories';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());
beforeEach(async () => {
  await api.db.knex('rate_limits').delete();
});

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { error?: string; code?: string; [k: string]: unknown };
}

/** A POST with exactly these headers and nothing added (fetch may add its own; node:http does not). */
function rawPost(path: string, headers: Record<string, string>, body: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      api.url + path,
      { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let parsed: RawResponse['body'];
          try {
            parsed = text ? (JSON.parse(text) as RawResponse['body']) : {};
          } catch {
            parsed = { raw: text };
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const CROSS_ORIGIN = { error: 'Cross-origin requests are not allowed.', code: 'cross_origin_refused' };
const NOT_JSON = { error: 'Requests must be sent as JSON.', code: 'unsupported_media_type' };

async function signedIn(displayName = 'Before') {
  const user = await buildUser(api.db.knex, { displayName });
  const client = api.client();
  await login(client, user);
  return { user, cookie: `${SESSION_COOKIE}=${client.cookies.get(SESSION_COOKIE)}`, client };
}

const displayNameOf = async (id: number) =>
  ((await api.db.knex('users').where({ id }).first('display_name')) as { display_name: string }).display_name;

describe('cross-origin and non-JSON POSTs are refused', () => {
  it('login from another origin: 403 and no session', async () => {
    const user = await buildUser(api.db.knex);
    const res = await rawPost(
      '/_api/auth/login_with_password',
      { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
      JSON.stringify({ email: user.email, password: user.password }),
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual(CROSS_ORIGIN);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('profile update from another origin with the victim’s cookie: 403 and nothing changes', async () => {
    const { user, cookie } = await signedIn();
    const res = await rawPost(
      '/_api/user/profile/update',
      { Origin: 'https://evil.example', 'Content-Type': 'application/json', Cookie: cookie },
      JSON.stringify({ displayName: 'Owned' }),
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual(CROSS_ORIGIN);
    expect(await displayNameOf(user.id)).toBe('Before');
  });

  it('refuses a POST that carries neither Origin nor Sec-Fetch-Site', async () => {
    const { user, cookie } = await signedIn();
    const login = await rawPost(
      '/_api/auth/login_with_password',
      { 'Content-Type': 'application/json' },
      JSON.stringify({ email: user.email, password: user.password }),
    );
    expect(login.status).toBe(403);
    expect(login.body).toEqual(CROSS_ORIGIN);
    const update = await rawPost(
      '/_api/user/profile/update',
      { 'Content-Type': 'application/json', Cookie: cookie },
      JSON.stringify({ displayName: 'Owned' }),
    );
    expect(update.status).toBe(403);
    expect(update.body).toEqual(CROSS_ORIGIN);
    expect(await displayNameOf(user.id)).toBe('Before');
  });

  it('refuses Sec-Fetch-Site cross-site or same-site even when Origin is missing', async () => {
    const { user, cookie } = await signedIn();
    for (const site of ['cross-site', 'same-site']) {
      const res = await rawPost(
        '/_api/user/profile/update',
        { 'Content-Type': 'application/json', 'Sec-Fetch-Site': site, Cookie: cookie },
        JSON.stringify({ displayName: 'Owned' }),
      );
      expect(res.status, site).toBe(403);
      expect(res.body).toEqual(CROSS_ORIGIN);
    }
    expect(await displayNameOf(user.id)).toBe('Before');
  });

  it('accepts Sec-Fetch-Site same-origin without Origin (a browser that omits Origin)', async () => {
    const { user, cookie } = await signedIn();
    const res = await rawPost(
      '/_api/user/profile/update',
      { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin', Cookie: cookie },
      JSON.stringify({ displayName: 'After' }),
    );
    expect(res.status).toBe(200);
    expect(await displayNameOf(user.id)).toBe('After');
  });

  it('refuses a form post (urlencoded, text/plain) with 415 even from the same origin', async () => {
    const { user, cookie } = await signedIn();
    for (const type of [
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
    ]) {
      const loginRes = await rawPost(
        '/_api/auth/login_with_password',
        { Origin: api.url, 'Content-Type': type },
        `email=${encodeURIComponent(user.email)}&password=${encodeURIComponent(user.password)}`,
      );
      expect(loginRes.status, type).toBe(415);
      expect(loginRes.body).toEqual(NOT_JSON);
      expect(loginRes.headers['set-cookie']).toBeUndefined();

      const update = await rawPost(
        '/_api/user/profile/update',
        { Origin: api.url, 'Content-Type': type, Cookie: cookie },
        'displayName=Owned',
      );
      expect(update.status, type).toBe(415);
      expect(update.body).toEqual(NOT_JSON);
    }
    expect(await displayNameOf(user.id)).toBe('Before');
  });

  it('refuses logout from another origin, so a hostile page cannot sign the user out', async () => {
    const { client, cookie } = await signedIn();
    const res = await rawPost(
      '/_api/auth/logout',
      { Origin: 'https://evil.example', 'Content-Type': 'application/json', Cookie: cookie },
      '{}',
    );
    expect(res.status).toBe(403);
    expect((await client.get<{ user: unknown }>('/_api/auth/session')).body.user).not.toBeNull();
  });
});

describe('session cookie flags', () => {
  const sessionCookieOf = (setCookie: string[]) => setCookie.find((c) => c.startsWith(`${SESSION_COOKIE}=`));

  it('is HttpOnly, SameSite=Lax, Path=/ with an expiry, and not Secure on plain http in development/test', async () => {
    const user = await buildUser(api.db.knex);
    const res = await api
      .client()
      .post('/_api/auth/login_with_password', { email: user.email, password: user.password });
    const cookie = sessionCookieOf(res.headers.getSetCookie());
    expect(cookie).toBeDefined();
    const attrs = cookie!.toLowerCase();
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=lax');
    expect(attrs).toContain('path=/;');
    expect(attrs).toMatch(/expires=/);
    expect(attrs).not.toContain('secure');
  });

  it('is Secure in production, for login, registration and logout alike', async () => {
    const prod = await startTestApi({ config: { env: 'production' } });
    try {
      const user = await buildUser(prod.db.knex);
      const client = prod.client();
      const loginRes = await client.post('/_api/auth/login_with_password', {
        email: user.email,
        password: user.password,
      });
      expect(loginRes.status).toBe(200);
      const loginCookie = sessionCookieOf(loginRes.headers.getSetCookie())!.toLowerCase();
      expect(loginCookie).toContain('secure');
      expect(loginCookie).toContain('httponly');
      expect(loginCookie).toContain('samesite=lax');

      const reg = await prod.client().post('/_api/auth/register_with_password', {
        email: `prod-${Date.now()}@example.test`,
        password: 'longenough',
        displayName: 'Prod',
      });
      expect(reg.status).toBe(201);
      expect(sessionCookieOf(reg.headers.getSetCookie())!.toLowerCase()).toContain('secure');

      const out = await client.post('/_api/auth/logout', {});
      expect(out.status).toBe(200);
      expect(sessionCookieOf(out.headers.getSetCookie())!.toLowerCase()).toContain('secure');
    } finally {
      await prod.close();
    }
  });

  it('is Secure when the request arrived over https through a trusted proxy', async () => {
    const proxied = await startTestApi({ config: { trustProxy: true } });
    try {
      const user = await buildUser(proxied.db.knex);
      const res = await proxied
        .client()
        .post(
          '/_api/auth/login_with_password',
          { email: user.email, password: user.password },
          { 'X-Forwarded-Proto': 'https', Origin: proxied.url.replace('http:', 'https:') },
        );
      expect(res.status).toBe(200);
      expect(sessionCookieOf(res.headers.getSetCookie())!.toLowerCase()).toContain('secure');
    } finally {
      await proxied.close();
    }
  });
});

describe('error responses leak no SQL or stack', () => {
  const LEAKS =
    /select |insert into|update "|duplicate key|constraint|relation "|\bat .+\(.+:\d+:\d+\)|node_modules|\.ts:\d+/i;

  it('a unique-email clash is a clean 409', async () => {
    const user = await buildUser(api.db.knex);
    const res = await api.client().post('/_api/auth/register_with_password', {
      email: user.email,
      password: 'longenough',
      displayName: 'Again',
    });
    expect(res.status).toBe(409);
    expect(JSON.stringify(res.body)).not.toMatch(LEAKS);
  });

  it('malformed JSON is a clean 400', async () => {
    const res = await api.client().request('POST', '/_api/auth/login_with_password', {
      rawBody: '{"email": "a@example.test", "password": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'The request body is not valid JSON.', code: 'invalid_json' });
  });

  it('a database failure inside a request is a generic 500 without SQL, stack or table names', async () => {
    const broken = await startTestApi();
    try {
      const user = await buildUser(broken.db.knex);
      const client = broken.client();
      await login(client, user);
      // A real fault in the real database: the table the handler writes to is gone.
      await broken.db.knex.raw('alter table rate_limits rename to rate_limits_moved');
      const res = await client.post('/_api/auth/login_with_password', {
        email: user.email,
        password: user.password,
      });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        error: 'Something went wrong on our side. Please try again.',
        code: 'internal_error',
      });
      expect(JSON.stringify(res.body)).not.toMatch(LEAKS);
      expect(JSON.stringify(res.body)).not.toContain('rate_limits');
    } finally {
      await broken.close();
    }
  });
});
