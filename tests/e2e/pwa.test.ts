import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { isTryOnCode, TRYON_CODE_CHUNKS } from '../../api/contract/face-model';
import { isTwilioSdk, PRECACHE_BUDGET_BYTES, readPrecache, twilioAssets } from '../bench/pwa-precache';
import {
  baseUrl,
  CHROMIUM_PATH,
  expectAccessible,
  expectStill,
  launchBrowser,
  newContext,
} from './support/browser';

const DIST = path.resolve(import.meta.dirname, '../../dist');

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser([], { serviceWorkers: 'allow' });
});
afterAll(async () => browser?.close());

/** Opens a page and waits until the service worker is active and controls it (first visit, then a reload). */
async function controlledPage(context: BrowserContext, url = '/marketplace'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return page;
}

describe('service worker', () => {
  it('installs, precaches the shell and controls the page after a reload', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/marketplace');
    // Registered after load, in production builds only.
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(new URL(scope).pathname).toBe('/');
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const script = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
    expect(new URL(script ?? '').pathname).toBe('/sw.js');
    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      const precache = names.find((n) => n.includes('precache'));
      const keys = precache ? await (await caches.open(precache)).keys() : [];
      return keys.map((r) => new URL(r.url).pathname);
    });
    expect(cached).toContain('/index.html');
    expect(cached.some((p) => /twilio-video/.test(p))).toBe(false);
    await context.close();
  });

  it('keeps the precache under 1.6 MB and never precaches the Twilio SDK', () => {
    const entries = readPrecache(DIST);
    const total = entries.reduce((sum, e) => sum + e.bytes, 0);
    expect(entries.some((e) => e.url === 'index.html')).toBe(true);
    expect(total).toBeLessThan(PRECACHE_BUDGET_BYTES);
    expect(entries.filter((e) => isTwilioSdk(DIST, e.url)).map((e) => e.url)).toEqual([]);
    // The SDK is built (for Twilio calls) — just not precached.
    const sdk = twilioAssets(DIST);
    if (sdk.length) expect(entries.map((e) => e.url)).not.toContain(sdk[0]);
  });

  it("keeps the try-on's own code out of the precache, and everything else its dialog imports in it", () => {
    // Issue #51: the try-on works offline after its first use. Its own chunks are kept from that use on
    // (TRYON_CODE_CACHE, sw/sw.ts); every other chunk it imports must be in the precache.
    const precached = new Set(readPrecache(DIST).map((e) => e.url));
    const dialog = fs.readdirSync(path.join(DIST, 'assets')).filter((f) => /^try-on-dialog-.*\.js$/.test(f));
    expect(dialog).toHaveLength(1);
    const code = fs.readFileSync(path.join(DIST, 'assets', dialog[0]!), 'utf8');
    const imports = [...code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)].map((m) => `assets/${m[1]}`);
    const own = [`assets/${dialog[0]}`, ...imports].filter((u) => isTryOnCode(`/${u}`));
    expect(own.map((u) => u.replace(/-[\w-]{8}\.js$/, '')).sort()).toEqual(
      TRYON_CODE_CHUNKS.map((n) => `assets/${n}`).sort(),
    );
    for (const u of own) expect(precached.has(u), u).toBe(false);
    for (const u of imports.filter((i) => !isTryOnCode(`/${i}`))) expect(precached.has(u), u).toBe(true);
  });

  it('does not load the Twilio SDK while browsing', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const loaded: string[] = [];
    page.on('request', (r) => loaded.push(new URL(r.url()).pathname));
    await page.goto('/marketplace');
    await page.waitForLoadState('networkidle');
    expect(loaded.filter((p) => /twilio/i.test(p))).toEqual([]);
    await context.close();
  });
});

describe('installable', () => {
  it('serves a manifest that passes Chromium’s installability checks', async () => {
    // A persistent profile: Chromium never offers installation in incognito, which every new context is.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-install-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
      baseURL: baseUrl(),
      viewport: { width: 1280, height: 860 },
    });
    onTestFinished(() => fs.rmSync(profile, { recursive: true, force: true }));
    const page = await controlledPage(context, '/');
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
    const { url, errors } = (await cdp.send('Page.getAppManifest')) as {
      url: string;
      errors: { message: string; critical: number }[];
    };
    expect(new URL(url).pathname).toBe('/manifest.webmanifest');
    expect(errors).toEqual([]);

    const res = await page.request.get('/manifest.webmanifest');
    expect(res.headers()['content-type']).toContain('application/manifest+json');
    const manifest = (await res.json()) as Record<string, unknown> & {
      icons: { src: string; sizes: string; purpose?: string }[];
      shortcuts: { name: string; url: string; icons: { src: string }[] }[];
    };
    expect(manifest).toMatchObject({
      name: 'Nagai — Indian jewellery, live from the shop',
      short_name: 'Nagai',
      display: 'standalone',
      start_url: '/',
      scope: '/',
      id: '/',
      theme_color: '#7a1f2b',
      background_color: '#fffdf8',
    });
    expect(manifest.categories).toContain('shopping');
    const sizes = manifest.icons.map((i) => `${i.sizes}:${i.purpose ?? 'any'}`);
    expect(sizes).toEqual(expect.arrayContaining(['192x192:any', '512x512:any', '512x512:maskable']));
    expect(manifest.shortcuts.map((s) => s.url)).toEqual(['/marketplace', '/seller/dashboard']);
    for (const src of [
      ...manifest.icons.map((i) => i.src),
      ...manifest.shortcuts.flatMap((s) => s.icons.map((i) => i.src)),
      '/icons/badge-96.png',
    ]) {
      const icon = await page.request.get(src);
      expect(icon.status(), src).toBe(200);
      expect(icon.headers()['content-type'], src).toBe('image/png');
    }
    await context.close();
  });

  it('shows Install app only after the browser offers it, and prompts on click', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/marketplace');
    const install = page.getByRole('button', { name: 'Install app' });
    await page.getByRole('banner').waitFor();
    expect(await install.count()).toBe(0);
    // Headless Chromium does not fire beforeinstallprompt on its own: fire one as the browser would.
    await page.evaluate(() => {
      const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
        prompt: () => Promise<void>;
        userChoice: Promise<{ outcome: string }>;
      };
      const w = window as unknown as { prompted: number };
      w.prompted = 0;
      event.prompt = async () => {
        w.prompted += 1;
      };
      event.userChoice = Promise.resolve({ outcome: 'accepted' });
      window.dispatchEvent(event);
    });
    await install.waitFor();
    await expectAccessible(page, 'install button');
    await install.click();
    await page.waitForFunction(() => (window as unknown as { prompted: number }).prompted === 1);
    await install.waitFor({ state: 'detached' });
    await context.close();
  });

  it('guides iPhone Safari users to Share, then Add to Home Screen', async () => {
    const context = await browser.newContext({
      baseURL: baseUrl(),
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    });
    const page = await context.newPage();
    await page.goto('/marketplace');
    const button = page.getByRole('button', { name: 'Install app' });
    await button.click();
    await expect
      .poll(() => page.getByText('To install, tap Share, then Add to Home Screen').isVisible())
      .toBe(true);
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await expectAccessible(page, 'iOS install guidance');
    await page.keyboard.press('Escape');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await context.close();
  });
});

/**
 * A reverse proxy in front of the test server that can serve a changed /sw.js, as a new deploy would.
 * (Playwright's routing does not see the browser's own service worker update checks.)
 */
async function startDeployProxy() {
  const target = new URL(baseUrl());
  let version = 0;
  const server = http.createServer((req, res) => {
    // Uncompressed, so the worker script can be changed.
    const headers = { ...req.headers };
    delete headers['accept-encoding'];
    // The server's site address (PUBLIC_ORIGIN) is its own: the page's requests arrive as from it, so its CSRF
    // check sees the origin it serves, as behind a proxy that is the site's public address.
    if (headers.origin) headers.origin = target.origin;
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (up) => {
        if (version === 0 || !req.url?.startsWith('/sw.js')) {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          const body = Buffer.concat([...chunks, Buffer.from(`\n// deploy ${version}\n`)]);
          const headers = { ...up.headers, 'content-length': String(body.length) };
          delete headers.etag;
          delete headers['last-modified'];
          res.writeHead(up.statusCode ?? 200, headers);
          res.end(body);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    deploy: () => {
      version += 1;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('updates', () => {
  let proxy: Awaited<ReturnType<typeof startDeployProxy>>;
  beforeAll(async () => {
    proxy = await startDeployProxy();
  });
  afterAll(async () => proxy?.close());

  async function proxiedContext() {
    return browser.newContext({ baseURL: proxy.url, viewport: { width: 1280, height: 860 } });
  }

  /** Deploys a changed worker and asks the browser to check for it (as it does on navigation). */
  async function deployNewVersion(page: Page) {
    proxy.deploy();
    await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      await reg?.update();
    });
  }

  it('asks before reloading, and never reloads during a call', async () => {
    const context = await proxiedContext();
    await context.grantPermissions(['camera', 'microphone']);
    const page = await controlledPage(context, '/lakshmi-jewellers');
    // A customer of this browser (signed up through the page, so through the same origin).
    const registered = await page.evaluate(async () => {
      const res = await fetch('/_api/auth/register_with_password', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          email: `update-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.test`,
          password: 'Secret#2026',
          displayName: 'Meena Raman',
        }),
      });
      return res.status;
    });
    expect(registered).toBe(201);
    await page.reload();
    await page.evaluate(() => localStorage.setItem('nagai-query-cache', '{"stale":true}'));
    await deployNewVersion(page);

    const prompt = page.getByRole('region', { name: 'App update' });
    await prompt.getByText('A new version is available.').waitFor({ timeout: 30_000 });
    await expectAccessible(page, 'update prompt');

    // A call is under way: the customer rings the shop.
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = 'same page';
    });
    await page.getByRole('button', { name: 'Video Call', exact: true }).click();
    await page.getByText('Loading video call...').waitFor();
    // The call's screen is a modal dialog that covers the page and hides the rest from assistive technology
    // (a pointer click on the prompt would land outside the dialog): the prompt's Reload is pressed as its
    // own element, and the prompt is found by its label.
    const covered = page.locator('[aria-label="App update"]');
    await page.evaluate(() => {
      const region = document.querySelector('[aria-label="App update"]');
      const button = [...(region?.querySelectorAll('button') ?? [])].find((b) => b.textContent === 'Reload');
      button?.click();
    });
    await covered.getByText('The new version will load when your call ends.').waitFor();
    await expectStill(
      () => page.evaluate(() => (window as unknown as { marker?: string }).marker),
      'same page',
      1500,
      'no reload during the call',
    );

    // The call ends: the new version takes over and the page reloads once.
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await page.evaluate(async () => {
      const { calls } = (await (await fetch('/_api/calls/history')).json()) as {
        calls: { callId: number }[];
      };
      await fetch('/_api/call/end', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ callId: calls[0].callId }),
      });
    });
    await reloaded;
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBeUndefined();
    const state = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      return { waiting: !!reg?.waiting, cache: localStorage.getItem('nagai-query-cache') };
    });
    expect(state.waiting).toBe(false); // the new version is the active one
    expect(state.cache).not.toBe('{"stale":true}'); // the old version's persisted queries are gone
    expect(await page.getByRole('region', { name: 'App update' }).count()).toBe(0);
    await context.close();
  }, 240_000);

  it('Later hides the prompt without reloading', async () => {
    const context = await proxiedContext();
    const page = await controlledPage(context);
    await deployNewVersion(page);
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = 'same page';
    });
    const prompt = page.getByRole('region', { name: 'App update' });
    await prompt.getByRole('button', { name: 'Later' }).click({ timeout: 30_000 });
    await prompt.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('same page');
    await context.close();
  });
});
