import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ta from '../../locales/ta.json';
import { DEMO_ACCOUNTS, registerViaApi, signInViaApi } from './support/accounts';
import { expectAccessible, launchBrowser, newContext, phoneIn } from './support/browser';

const STORE = 'lakshmi-jewellers';
const OFFLINE = 'You are offline. Showing what you viewed before.';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser([], { serviceWorkers: 'allow' });
});
afterAll(async () => browser?.close());

const firstCardName = async (page: Page) => {
  const heading = page.locator('main article h3').first();
  await heading.waitFor();
  return (await heading.textContent())!.trim();
};

describe('offline browsing', () => {
  it('after one online visit, the marketplace, a storefront and a product dialog open offline', async () => {
    const context = await newContext(browser);
    await signInViaApi(context, DEMO_ACCOUNTS.customer);
    const page = await context.newPage();

    // One online visit, with the service worker in control (it registers on the first load).
    await page.goto('/marketplace');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const marketName = await firstCardName(page);

    const store = (await (await page.request.get(`/_api/seller/store?slug=${STORE}`)).json()) as {
      sellerProfile: { shopName: string };
      productsData: { products: { id: number; name: string; stockQuantity: number | null }[] };
    };
    const shopName = store.sellerProfile.shopName;
    // A piece with stock to spare: the browser tests share one database, and others buy and hold this shop's
    // pieces (a sold-out piece's button says "Out of stock", not "Add to Cart").
    const product = store.productsData.products.find((p) => p.stockQuantity === null || p.stockQuantity > 5)!;
    expect(product).toBeDefined();
    await page.goto(`/${STORE}`);
    await page.getByRole('heading', { level: 1, name: shopName }).waitFor();
    await page.goto(`/${STORE}?product=${product.id}`);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: product.name }).waitFor();
    await page.waitForLoadState('networkidle');

    // Offline: the banner says so, and adding to cart says clearly why it cannot.
    await context.setOffline(true);
    // (The open dialog hides the rest of the page from the accessibility tree, so look for the text.)
    const banner = page.getByText(OFFLINE);
    await banner.waitFor();
    await dialog.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByText('You are offline. Connect to the internet and try again.').first().waitFor();
    await expectAccessible(page, 'offline product dialog');

    // Reloads come from the service worker and the persisted catalogue (a reloaded product is a page of its own).
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/product/[a-z0-9-]*${product.id}$`));
    const res = await page.reload();
    expect(res?.fromServiceWorker()).toBe(true);
    await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
    await banner.waitFor();

    await page.goto(`/${STORE}`);
    await page.getByRole('heading', { level: 1, name: shopName }).waitFor();
    await page.getByText(product.name).first().waitFor();

    await page.goto('/marketplace');
    expect(await firstCardName(page)).toBe(marketName);
    await page.getByRole('status').filter({ hasText: OFFLINE }).waitFor();
    const persisted = await page.evaluate(() => localStorage.getItem('nagai-query-cache') ?? '');
    expect(persisted).toContain('"catalog"');
    // Personal data is never persisted.
    expect(persisted).not.toContain('"accounts"');
    expect(persisted).not.toContain('"cart"');

    // Back online: a short confirmation, then the banner goes away.
    await context.setOffline(false);
    await page.getByRole('status').filter({ hasText: 'You are back online.' }).waitFor();
    // The confirmation shows for 3 s (BACK_ONLINE_MS in offline-banner.tsx): gone within that plus 3 s.
    await page.getByText('You are back online.').waitFor({ state: 'detached', timeout: 3000 + 3000 });
    expect(await page.getByText(OFFLINE).count()).toBe(0);
    await context.close();
  });

  it('shows the offline banner in Tamil, on a phone', async () => {
    const context = await newContext(browser, { mobile: true });
    await context.addInitScript(() => localStorage.setItem('nagai.language', 'ta'));
    const page = await context.newPage();
    await page.goto('/marketplace');
    await page.waitForFunction(() => document.documentElement.lang === 'ta');
    // The server rendered English (no language cookie yet): the app renders the page again in Tamil.
    await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');
    await context.setOffline(true);
    await page.getByText('இணைய இணைப்பு இல்லை. நீங்கள் முன்பு பார்த்தவை காட்டப்படுகின்றன.').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await expectAccessible(page, 'offline banner (ta, 360 px)');
    await context.setOffline(false);
    await context.close();
  });

  it('logging out forgets the persisted catalogue', async () => {
    const context = await newContext(browser);
    await signInViaApi(context, DEMO_ACCOUNTS.customer);
    const page = await context.newPage();
    await page.goto('/marketplace');
    await firstCardName(page);
    // What the signed-in customer browsed: the marketplace's product list pages.
    const browsed = '"catalog","products","list"';
    await page.waitForFunction(
      (key) => (localStorage.getItem('nagai-query-cache') ?? '').includes(key),
      browsed,
    );
    await page.goto('/orders');
    expect(await page.evaluate(() => localStorage.getItem('nagai-query-cache') ?? '')).toContain(browsed);
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    // Logging out goes home, where the visitor's landing page loads (and may persist) its own public data.
    await page.waitForURL((u) => u.pathname === '/');
    await page.waitForTimeout(1200); // past the persister's throttle
    const persisted = await page.evaluate(() => localStorage.getItem('nagai-query-cache') ?? '');
    expect(persisted).not.toContain(browsed);
    await context.close();
  });

  for (const language of ['en', 'ta'] as const) {
    const L = language === 'en' ? en : ta;
    it(`keeps the customer signed in through an offline reload; a video call says it needs a connection (${language}, 360 px)`, async () => {
      // The shop's app is open, so its call button shows (a shop nobody can answer has none).
      const shop = await newContext(browser);
      await signInViaApi(shop, DEMO_ACCOUNTS.seller);
      const shopPage = await shop.newPage();
      await shopPage.goto('/seller/history');

      const context = await phoneIn(browser, language);
      const name = `Meena ${Math.random().toString(36).slice(2, 6)}`;
      await registerViaApi(context, { displayName: name });
      const page = await context.newPage();
      await page.goto(`/${STORE}`);
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await page.reload();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');
      const menu = page.getByRole('button', { name: L.header.userMenu.replace('{name}', name) });
      await menu.waitFor();
      const callButton = page.getByRole('button', { name: L.calls.button.videoCall, exact: true }).first();
      await callButton.waitFor();
      await page.waitForLoadState('networkidle');

      // Offline, reloaded: still signed in, no "Login".
      await context.setOffline(true);
      const res = await page.reload();
      expect(res?.fromServiceWorker()).toBe(true);
      await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');
      await page.getByText(L.offline.banner).first().waitFor();
      await menu.waitFor();
      expect(await page.getByRole('link', { name: L.header.login, exact: true }).count()).toBe(0);

      // A video call offline: told why, no login form.
      await callButton.click();
      const toast = page.locator('[data-sonner-toast]').filter({ hasText: L.offline.callNeedsNetwork });
      await toast.waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      // The toasts are labelled in the page's language and never cover the header.
      const region = page
        .locator('section[aria-label]')
        .filter({ has: page.locator('[data-sonner-toaster]') });
      expect(await region.getAttribute('aria-label')).toBe(L.common.notifications);
      expect(await toast.locator('[data-close-button]').getAttribute('aria-label')).toBe(
        L.common.closeNotification,
      );
      const header = (await page.locator('header').first().boundingBox())!;
      // Once it has slid in (sonner's entrance moves it down from above), it sits below the header.
      await expect
        .poll(async () => (await toast.boundingBox())!.y, { timeout: 3000 })
        .toBeGreaterThanOrEqual(header.y + header.height);
      await expectAccessible(page, `offline store, signed in (${language}, 360 px)`);

      // Back online, the server is asked again: still the same person.
      await context.setOffline(false);
      await menu.waitFor();
      await context.close();
      await shop.close();
    });
  }
});
