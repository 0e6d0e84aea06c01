import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productPath } from '../../api/contract/catalog';
import { baseUrl, expectAccessible, launchBrowser, newContext } from './support/browser';

/**
 * "Share" on a product and on a shop (issue 23 §3): the system share sheet where the browser has one, otherwise a
 * menu with a WhatsApp link and "Copy link". Headless Chromium on Linux has no share sheet; one context gets a
 * recording stand-in, the other is made sure to have none.
 */

const STORE = 'lakshmi-jewellers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

interface Listed {
  id: number;
  name: string;
  shopName: string;
}

async function firstStoreProduct(context: BrowserContext): Promise<{ shop: string; product: Listed }> {
  const store = (await (await context.request.get(`/_api/seller/store?slug=${STORE}`)).json()) as {
    sellerProfile: { shopName: string };
    productsData: { products: Listed[] };
  };
  return { shop: store.sellerProfile.shopName, product: store.productsData.products[0] };
}

describe('share', () => {
  it('uses the system share sheet where there is one: a product and a shop', async () => {
    const context = await newContext(browser, { mobile: true });
    await context.addInitScript(() => {
      const shared: ShareData[] = [];
      (window as unknown as { __shared: ShareData[] }).__shared = shared;
      Object.defineProperty(Navigator.prototype, 'share', {
        configurable: true,
        value: (data: ShareData) => {
          shared.push(data);
          return Promise.resolve();
        },
      });
    });
    const { shop, product } = await firstStoreProduct(context);
    const page = await context.newPage();
    const shared = () => page.evaluate(() => (window as unknown as { __shared: ShareData[] }).__shared);

    // The storefront: the shop's own address.
    await page.goto(`/${STORE}`);
    await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');
    await page.getByRole('button', { name: `Share ${shop}` }).click();
    await expect
      .poll(shared)
      .toEqual([
        { title: shop, text: expect.stringContaining(shop) as string, url: `${baseUrl()}/${STORE}` },
      ]);

    // A product opened from the shop's grid: the product's own address, its name and price in the text.
    await page.getByRole('link', { name: `View details of ${product.name}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: `Share ${product.name}` }).click();
    await expect.poll(async () => (await shared()).length).toBe(2);
    const [, data] = await shared();
    expect(data).toEqual({
      title: product.name,
      text: expect.stringMatching(
        new RegExp(`^${product.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} by ${shop}, ₹[\\d,]+`),
      ) as string,
      url: `${baseUrl()}${productPath(product)}`,
    });
    // No menu of our own: the system sheet is the menu.
    expect(await page.getByRole('menu').count()).toBe(0);
    await context.close();
  });

  it('offers WhatsApp and copy-link without one, in English and Tamil', async () => {
    const context = await newContext(browser, { mobile: true });
    await context.addInitScript(() => {
      delete (Navigator.prototype as Partial<Navigator>).share;
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
    const { shop, product } = await firstStoreProduct(context);
    const page = await context.newPage();
    const url = `${baseUrl()}${productPath(product)}`;

    await page.goto(productPath(product));
    await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');
    await page.getByRole('button', { name: `Share ${product.name}` }).click();
    const menu = page.getByRole('menu');
    const whatsapp = menu.getByRole('menuitem', { name: 'Share on WhatsApp' });
    const href = (await whatsapp.getAttribute('href'))!;
    expect(href.startsWith('https://wa.me/?text=')).toBe(true);
    const text = decodeURIComponent(href.slice('https://wa.me/?text='.length));
    expect(text).toContain(`${product.name} by ${shop}`);
    expect(text.endsWith(`\n${url}`)).toBe(true);
    expect(await whatsapp.getAttribute('target')).toBe('_blank');
    await expectAccessible(page, 'share menu');

    await menu.getByRole('menuitem', { name: 'Copy link' }).click();
    await page.getByText('Link copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    // The shop's page, in Tamil.
    await page.evaluate(() => localStorage.setItem('nagai.language', 'ta'));
    await page.goto(`/${STORE}`);
    await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');
    await page.getByRole('button', { name: `${shop} பகிர்` }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'வாட்ஸ்அப்பில் பகிர்' }).waitFor();
    await page.getByRole('menu').getByRole('menuitem', { name: 'இணைப்பை நகலெடு' }).click();
    await page.getByText('இணைப்பு நகலெடுக்கப்பட்டது').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseUrl()}/${STORE}`);
    await context.close();
  });
});
