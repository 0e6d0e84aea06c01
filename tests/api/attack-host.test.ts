import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkServerConfig, loadConfig } from '../../api/src/config';
import { buildProduct, buildSeller } from '../factories';
import { startTestApi, type TestApi } from '../support/api';

/** The site names itself by PUBLIC_ORIGIN or its own address, never by the request's Host header (#34). */

let api: TestApi;
let productId: number;
// The app's page shell, as the PWA build's index.html starts its <head> (the description and title that a
// product's or a shop's own tags replace): this file needs no build to serve pages.
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-host-'));
fs.writeFileSync(
  path.join(staticDir, 'index.html'),
  '<!doctype html><html><head><meta name="description" content="Nagai" />\n<title>Nagai</title></head><body><div id="root"></div></body></html>',
);
beforeAll(async () => {
  api = await startTestApi({ serveStatic: true, config: { ssrDir: undefined, staticDir } });
  const shop = await buildSeller(api.db.knex, { urlSlug: 'host-test-gold' });
  productId = (await buildProduct(api.db.knex, shop.id, { name: 'Host Test Ring' })).id;
});
afterAll(async () => {
  await api?.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

/** A GET with a Host header of the caller's choosing (fetch() would not send one). */
function getWithHost(path: string, host: string, base = api.url): Promise<{ status: number; text: string }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.get(
      { hostname: url.hostname, port: url.port, path: url.pathname, headers: { host } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
  });
}

describe('the site’s own address', () => {
  it('never takes a forged Host header into robots.txt or sitemap.xml (both cacheable for an hour)', async () => {
    for (const path of ['/robots.txt', '/sitemap.xml']) {
      const res = await getWithHost(path, 'evil.example');
      expect(res.status, path).toBe(200);
      expect(res.text, path).not.toContain('evil.example');
      expect(res.text, path).toContain(api.url);
    }
  });

  it('never takes a forged Host header into a shop’s or a product’s page (canonical link, og:url)', async () => {
    const shopPage = await getWithHost('/host-test-gold', 'evil.example');
    expect(shopPage.status).toBe(200);
    expect(shopPage.text).toContain(`<link rel="canonical" href="${api.url}/host-test-gold" />`);
    expect(shopPage.text).toContain(`<meta property="og:url" content="${api.url}/host-test-gold" />`);
    expect(shopPage.text).not.toContain('evil.example');
    const productPage = await getWithHost(`/product/host-test-ring-${productId}`, 'evil.example');
    expect(productPage.status).toBe(200);
    expect(productPage.text).toContain(
      `<link rel="canonical" href="${api.url}/product/host-test-ring-${productId}" />`,
    );
    expect(productPage.text).toContain('Host Test Ring');
    expect(productPage.text).not.toContain('evil.example');
  });

  it('uses PUBLIC_ORIGIN when it is set, whatever the Host', async () => {
    const pinned = await startTestApi({
      serveStatic: true,
      config: { ssrDir: undefined, publicOrigin: 'https://nagai.example' },
    });
    try {
      const { text } = await getWithHost('/robots.txt', 'evil.example', pinned.url);
      expect(text).toContain('Sitemap: https://nagai.example/sitemap.xml');
      expect(text).not.toContain('evil.example');
    } finally {
      await pinned.close();
    }
  });

  it('is required in production: the server does not start without PUBLIC_ORIGIN', () => {
    const key = 'c'.repeat(64);
    expect(() => checkServerConfig(loadConfig({ NODE_ENV: 'production', PAN_ENCRYPTION_KEY: key }))).toThrow(
      /PUBLIC_ORIGIN: required in production/,
    );
    expect(() =>
      checkServerConfig(
        loadConfig({
          NODE_ENV: 'production',
          PAN_ENCRYPTION_KEY: key,
          PUBLIC_ORIGIN: 'https://nagai.example',
        }),
      ),
    ).not.toThrow();
    expect(() => checkServerConfig(loadConfig({ NODE_ENV: 'development' }))).not.toThrow();
  });
});
