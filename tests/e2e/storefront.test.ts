import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

describe('storefront', () => {
  it('shows the shop, its details and 12 products a page, and the /sellers/{id} fallback', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/lakshmi-jewellers');
    await page.getByRole('heading', { level: 1, name: 'Lakshmi Jewellers' }).waitFor();
    const header = page.locator('main header');
    // Shoppers are not shown the shop's internal id (issue #40).
    expect(await header.getByText(/Seller ID/).count()).toBe(0);
    // The shop's one call state (issue #22): open all week; available or offline as its jeweller's app is
    // open or not (other tests sign the demo seller in).
    const callState = header.getByTestId('call-state');
    await callState.waitFor();
    const shown = { available: 'Available now', offline: 'Offline' } as Record<string, string>;
    const state = (await callState.getAttribute('data-state'))!;
    expect(Object.keys(shown)).toContain(state);
    expect(await callState.textContent()).toBe(shown[state]);
    await header.getByText(/\d+ years? in business/).waitFor();
    await header.getByText(/^Since \d{4}$/).waitFor();
    expect(await header.textContent()).toMatch(/\d{6}/);
    const cards = page.locator('main ul article');
    await cards.first().waitFor();
    expect(await cards.count()).toBeLessThanOrEqual(12);
    await expectAccessible(page, '/lakshmi-jewellers');

    // A product card's name opens the product, like its photo.
    const first = cards.first();
    const name = (await first.getByRole('heading').textContent())!;
    await first.getByRole('link', { name, exact: true }).click();
    await page
      .getByRole('heading', { level: 1, name })
      .or(page.getByRole('dialog').getByRole('heading', { name }))
      .first()
      .waitFor();
    // Opened from the grid, the product has its own page title.
    await expect.poll(() => page.title()).toContain(name);
    const store = (await (await page.request.get('/_api/seller/store?slug=lakshmi-jewellers')).json()) as {
      sellerProfile: { sellerId: number };
    };
    const sellerId = String(store.sellerProfile.sellerId);
    await page.goto(`/sellers/${sellerId}`);
    await page.getByRole('heading', { level: 1, name: 'Lakshmi Jewellers' }).waitFor();
    await context.close();
  });

  it('offers a visitor who wants to call the shop a way to create an account (#40)', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/lakshmi-jewellers');
    const dialog = page.getByRole('dialog', { name: 'Login to Start Video Call' });
    // Once the app has asked who is signed in (a tap before that goes to the call page instead).
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Video call Lakshmi Jewellers' }).first().click();
    await dialog.waitFor({ timeout: 20_000 });
    await dialog.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/customer\/login\?tab=register$/);
    await page.getByRole('tab', { name: 'Create Account', selected: true }).waitFor();
    await context.close();
  });

  it('says Store Not Found for an unknown slug', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/no-such-shop-anywhere');
    await page.getByRole('heading', { level: 1, name: 'Store Not Found' }).waitFor();
    await page
      .getByText("We couldn't find a store with that name. Please check the URL and try again.")
      .waitFor();
    await expectAccessible(page, 'store not found');
    await context.close();
  });
});
