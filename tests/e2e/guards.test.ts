import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, loginThroughForm, signInViaApi, type DemoRole } from './support/accounts';
import { expectAccessible, launchBrowser, newContext } from './support/browser';

/** Every guarded page: the allowed role opens it, visitors are sent to /login, a wrong role is denied. */
const GUARDED: { path: string; allowed: DemoRole; denied: DemoRole }[] = [
  { path: '/orders', allowed: 'customer', denied: 'seller' },
  { path: '/call-history', allowed: 'customer', denied: 'seller' },
  { path: '/seller/products', allowed: 'seller', denied: 'customer' },
  { path: '/seller/history', allowed: 'seller', denied: 'customer' },
  { path: '/admin/dashboard', allowed: 'admin', denied: 'seller' },
  { path: '/admin/sellers', allowed: 'admin', denied: 'customer' },
  { path: '/seller/orders', allowed: 'seller', denied: 'customer' },
  { path: '/seller/profile', allowed: 'seller', denied: 'customer' },
];

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

async function isNotFound(page: Page) {
  // Pages may keep live status regions (empty states, notices), so wait for the page to settle instead.
  await page.locator('main h1, main h2').first().waitFor();
  await page.waitForLoadState('networkidle');
  return (await page.getByRole('heading', { name: 'Not Found', level: 1 }).count()) > 0;
}

describe('access guards', () => {
  // The login page and the Access Denied page are the same pages whichever path sent the visitor there: axe
  // checks each once (the login page from the first path, Access Denied once for each role that meets it).
  const checked = new Set<string>();
  const onceAccessible = async (page: Page, key: string, label: string) => {
    if (checked.has(key)) return;
    checked.add(key);
    await expectAccessible(page, label);
  };
  for (const g of GUARDED) {
    it(`${g.path}: visitors go to /login and come back; ${g.denied} sees Access Denied`, async () => {
      const probe = await newContext(browser);
      await signInViaApi(probe, DEMO_ACCOUNTS[g.allowed]);
      const probePage = await probe.newPage();
      await probePage.goto(g.path);
      expect(await isNotFound(probePage), `${g.path} is routed`).toBe(false);
      await probe.close();

      const visitor = await newContext(browser);
      const page = await visitor.newPage();
      await page.goto(`${g.path}?page=1#top`);
      await page.waitForURL((u) => u.pathname === '/login');
      expect(new URL(page.url()).searchParams.get('redirect')).toBe(`${g.path}?page=1#top`);
      await onceAccessible(page, 'login', `/login from ${g.path}`);
      await loginThroughForm(page, DEMO_ACCOUNTS[g.allowed]);
      await page.waitForURL((u) => u.pathname === g.path);
      await visitor.close();

      const wrong = await newContext(browser);
      await signInViaApi(wrong, DEMO_ACCOUNTS[g.denied]);
      const denied = await wrong.newPage();
      await denied.goto(g.path);
      await denied.getByRole('heading', { name: 'Access Denied' }).waitFor();
      await denied.getByText(`Access denied. Your role (${g.denied}) lacks required permissions.`).waitFor();
      await onceAccessible(denied, `denied:${g.denied}`, `${g.path} as ${g.denied}`);
      await wrong.close();
    });
  }

  it('a signed-in user opening a login page is sent to the redirect or their home', async () => {
    const context = await newContext(browser);
    await signInViaApi(context, DEMO_ACCOUNTS.seller);
    const page = await context.newPage();
    await page.goto('/seller/login');
    await page.waitForURL((u) => u.pathname === '/seller/dashboard');
    await page.goto('/login?redirect=%2Fseller%2Forders');
    await page.waitForURL((u) => u.pathname === '/seller/orders');
    // Only same-site paths are followed.
    await page.goto('/login?redirect=%2F%2Fevil.example');
    await page.waitForURL((u) => u.pathname === '/seller/dashboard');
    await context.close();
  });
});
