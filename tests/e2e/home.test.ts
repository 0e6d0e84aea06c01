import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, registerViaApi, signInViaApi } from './support/accounts';
import { expectAccessible, launchBrowser, newContext } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

describe('signed-in home tabs', () => {
  it('customer: Browse only; ?tab=sell returns to Browse with Access Restricted', async () => {
    const context = await newContext(browser);
    await signInViaApi(context, DEMO_ACCOUNTS.customer);
    const page = await context.newPage();
    await page.goto('/');
    const tabs = page.getByRole('tablist', { name: 'Home sections' });
    await tabs.waitFor();
    expect(await tabs.getByRole('tab').allTextContents()).toEqual(['Browse']);
    await page.locator('main ul article').first().waitFor();
    await page.getByRole('link', { name: 'Full Marketplace', exact: true }).waitFor();
    await expectAccessible(page, 'home (customer)');

    await page.goto('/?tab=sell');
    await page.getByText('Access Restricted').waitFor();
    await page.getByText('You need seller permissions to access this section.').waitFor();
    await page.waitForURL((u) => u.searchParams.get('tab') === 'browse');
    await expectAccessible(page, 'home (customer, restricted)');
    await context.close();
  });

  it('seller with a shop moves to My Shop', async () => {
    const context = await newContext(browser);
    await signInViaApi(context, DEMO_ACCOUNTS.seller);
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('tab', { name: 'My Shop', selected: true }).waitFor();
    await page.waitForURL((u) => u.searchParams.get('tab') === 'sell');
    await page.getByRole('heading', { name: 'Lakshmi Jewellers' }).waitFor();
    for (const name of ['Seller Dashboard', 'Manage Products', 'Shop Profile'])
      await page.getByRole('link', { name }).waitFor();
    expect(await page.getByRole('tab', { name: 'Become a Seller' }).count()).toBe(0);
    await expectAccessible(page, 'home (seller)');
    // Browse picked explicitly stays on Browse.
    await page.getByRole('tab', { name: 'Browse' }).click();
    await page.waitForURL((u) => u.searchParams.get('tab') === 'browse');
    await page.locator('main ul article').first().waitFor();
    await context.close();
  });

  it('admin without a shop sees Become a Seller; a new seller without a shop sees Sell', async () => {
    const context = await newContext(browser);
    await signInViaApi(context, DEMO_ACCOUNTS.admin);
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('tab', { name: 'Become a Seller' }).click();
    await page.waitForURL((u) => u.searchParams.get('tab') === 'register-seller');
    expect(await page.getByRole('link', { name: 'Register a Shop' }).getAttribute('href')).toBe(
      '/seller/register',
    );
    await expectAccessible(page, 'home (admin)');
    await context.close();

    const sellerContext = await newContext(browser);
    await registerViaApi(sellerContext, { role: 'seller', displayName: 'New Seller' });
    const p2 = await sellerContext.newPage();
    await p2.goto('/?tab=sell');
    await p2.getByRole('tab', { name: 'Sell', selected: true }).waitFor();
    await p2.getByRole('heading', { name: 'No shop yet' }).waitFor();
    await sellerContext.close();
  });
});
