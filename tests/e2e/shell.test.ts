import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

describe('one port serves the app and the API', () => {
  it('serves the PWA shell for page routes and the API beside it', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const res = await page.goto('/marketplace');
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toContain('text/html');
    const health = await (await fetch(`${baseUrl()}/healthz`)).json();
    expect(health).toMatchObject({ status: 'ok', database: 'pglite' });
    const sw = await fetch(`${baseUrl()}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    await context.close();
  });
});
