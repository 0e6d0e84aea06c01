import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { loadConfig, type Config } from '../../api/src/config';
import { FACE_MESH_BASE } from '../../api/src/http/face-mesh';
import { SESSION_COOKIE } from '../../api/src/http/session';
import { buildSeller, buildUser } from '../factories';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { newSession, rawRequest, type RawResponse } from './attack-support';

/**
 * Security headers and cookie flags on real responses of the three kinds the server sends: the page shell
 * (static PWA), an API answer and a stored image under /media.
 */

interface Running {
  url: string;
  db: TestDatabase;
  close(): Promise<void>;
}

async function start(config: Partial<Config>, db?: TestDatabase): Promise<Running> {
  const database = db ?? (await createTestDatabase());
  const handle = createApp({
    db: database.knex,
    dbKind: database.kind,
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }, config),
    logger: pino({ level: 'silent' }),
    serveStatic: true,
  });
  const server = http.createServer(handle.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    db: database,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handle.background.stop();
      if (!db) await database.close();
    },
  };
}

let dev: Running;
let prod: Running;
let mediaPath = '';

beforeAll(async () => {
  dev = await start({});
  // Production behind TLS (the origin is https): HSTS and Secure cookies.
  prod = await start({ env: 'production', publicOrigin: 'https://nagai.example' }, dev.db);
  const seller = await buildSeller(dev.db.knex);
  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#d4af37' } })
    .png()
    .toBuffer();
  const created = await rawRequest(
    dev.url,
    'POST',
    '/_api/products/create',
    {
      Origin: dev.url,
      'Content-Type': 'application/json',
      Cookie: `${SESSION_COOKIE}=${await newSession(dev, seller.id)}`,
    },
    JSON.stringify({
      name: 'Header Test Ring',
      description: 'A plain band used to check the headers of media.',
      price: '999',
      category: 'rings',
      material: 'gold',
      images: [`data:image/png;base64,${png.toString('base64')}`],
    }),
  );
  if (created.status !== 201) throw new Error(`product create failed: ${created.status} ${created.text}`);
  const row = (await dev.db.knex('product_images').first('card_url')) as { card_url: string };
  mediaPath = row.card_url;
});
afterAll(async () => {
  await prod?.close();
  await dev?.close();
});

/** The CSP as directive → sources. */
function csp(res: RawResponse): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(header, 'Content-Security-Policy present').toBeDefined();
  const map = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), sources);
  }
  return map;
}

const get = (r: Running, path: string) => rawRequest(r.url, 'GET', path, { Accept: 'text/html,*/*' });

describe('security headers on real responses', () => {
  it('page shell and API: CSP without inline or eval script, frame-ancestors none, nosniff, referrer policy', async () => {
    for (const path of ['/', '/customer/login', '/_api/auth/session', '/_api/products/list']) {
      const res = await get(dev, path);
      expect(res.status, path).toBe(200);
      const policy = csp(res);
      const script = policy.get('script-src') ?? policy.get('default-src') ?? [];
      expect(script, path).not.toContain("'unsafe-inline'");
      expect(script, path).not.toContain("'unsafe-eval'");
      expect(script, path).not.toContain('*');
      expect(policy.get('frame-ancestors'), path).toEqual(["'none'"]);
      expect(policy.get('object-src'), path).toEqual(["'none'"]);
      expect(policy.get('base-uri'), path).toEqual(["'self'"]);
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-powered-by'], path).toBeUndefined();
      // Plain http in test: no HSTS (it would pin a developer's localhost to https).
      expect(res.headers['strict-transport-security'], path).toBeUndefined();
    }
    const api = await get(dev, '/_api/auth/session');
    expect(api.headers['cache-control']).toBe('no-store');
  });

  it('the page shell has no inline script for the CSP to need', async () => {
    const shell = await get(dev, '/');
    expect(shell.headers['content-type']).toMatch(/text\/html/);
    // A server-rendered page carries its data in a JSON block, which browsers never run.
    const inline = [...shell.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter(
      ([, attrs, body]) =>
        !/\bsrc=/.test(attrs) && !/\btype="application\/json"/.test(attrs) && body.trim() !== '',
    );
    expect(inline.map(([tag]) => tag.slice(0, 80))).toEqual([]);
    expect(shell.text).not.toMatch(/\son[a-z]+\s*=\s*["']/i);
  });

  it('/media: sandboxed, nosniff, same-origin resource policy, the stored content type', async () => {
    const res = await get(dev, mediaPath);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    const policy = csp(res);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.has('sandbox')).toBe(true);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    const missing = await get(dev, '/media/nothing-here-card.webp');
    expect(missing.status).toBe(404);
    expect(csp(missing).has('sandbox')).toBe(true);
  });

  it("the try-on's face-model page is sandboxed by its own CSP: opened directly it has no access to the app's origin", async () => {
    // Issue #46, item 8: the page allows 'unsafe-eval' (the model's glue code). The app frames it with
    // sandbox="allow-scripts"; the header makes it an opaque origin even when opened as a page of its own.
    for (const r of [dev, prod]) {
      const res = await get(r, `${FACE_MESH_BASE}frame.html`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      const policy = csp(res);
      expect(policy.get('sandbox')).toEqual(['allow-scripts']);
      expect(String(res.headers['content-security-policy'])).not.toMatch(/allow-same-origin/);
      expect(policy.get('frame-ancestors')).toEqual(["'self'"]);
      // Its one script is inline (a file of its own would not load offline), allowed by its hash alone.
      const scripts = [...String(res.text).matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(scripts).toHaveLength(1);
      expect(String(res.text)).not.toMatch(/<script[^>]*\ssrc=/);
      const hash = `'sha256-${crypto.createHash('sha256').update(scripts[0]!).digest('base64')}'`;
      expect(policy.get('script-src')).toEqual([hash, 'blob:', "'wasm-unsafe-eval'"]);
    }
  });

  it('production over https: HSTS and upgrade-insecure-requests on every kind of response', async () => {
    for (const path of ['/', '/_api/auth/session', mediaPath]) {
      const res = await get(prod, path);
      expect(res.status, path).toBe(200);
      expect(res.headers['strict-transport-security'], path).toMatch(/max-age=\d{7,}; includeSubDomains/);
    }
    expect(csp(await get(prod, '/')).has('upgrade-insecure-requests')).toBe(true);
  });
});

describe('session cookie flags', () => {
  const login = async (r: Running, origin: string) => {
    const user = await buildUser(r.db.knex);
    const res = await rawRequest(
      r.url,
      'POST',
      '/_api/auth/login_with_password',
      { Origin: origin, 'Content-Type': 'application/json' },
      JSON.stringify({ email: user.email, password: user.password }),
    );
    expect(res.status, res.text).toBe(200);
    const setCookie = (res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(setCookie).toBeDefined();
    return setCookie!.split(';').map((p) => p.trim().toLowerCase());
  };

  it('HttpOnly and SameSite=Lax always; not Secure on plain http in test', async () => {
    const attrs = await login(dev, dev.url);
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=lax');
    expect(attrs).toContain('path=/');
    expect(attrs).not.toContain('secure');
    expect(attrs[0].split('=')[1].length).toBeGreaterThanOrEqual(22); // ≥ 128 bits of base64url
  });

  it('Secure in production', async () => {
    const attrs = await login(prod, 'https://nagai.example');
    expect(attrs).toContain('secure');
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=lax');
  });
});
