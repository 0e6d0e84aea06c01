import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productPath } from '../../api/contract/catalog';
import ta from '../../locales/ta.json';
import { expectAccessible, launchBrowser, newContext } from './support/browser';

/**
 * A product's details read in Tamil in Tamil (issue #40 item 8): the category, the material, the purity and
 * the units of its weight, not the English values of the database ("earrings", "gold", "22K", "g").
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

interface Listed {
  id: number;
  name: string;
  category: keyof typeof ta.catalog.categories;
  material: keyof typeof ta.catalog.materials;
  purity: string | null;
  weight: number | null;
}

describe('product details in Tamil', () => {
  it('shows the category, material, purity and weight in Tamil', async () => {
    const context = await newContext(browser);
    await context.addInitScript(() => localStorage.setItem('nagai.language', 'ta'));
    const page = await context.newPage();
    const list = (await (
      await page.request.get('/_api/products/list?page=1&limit=50&category=earrings&material=gold')
    ).json()) as { products: Listed[] };
    const product = list.products.find((p) => p.purity && /^\d\dK$/.test(p.purity) && p.weight !== null)!;
    expect(product).toBeTruthy();
    await page.goto(productPath(product));
    await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');
    await page.locator('summary', { hasText: ta.catalog.detail.moreDetails }).click();
    const details = page.locator('details dl');
    const value = async (label: string) =>
      (
        await details
          .locator('dt', { hasText: label })
          .locator('xpath=following-sibling::dd[1]')
          .textContent()
      )?.trim();
    await expect.poll(() => value(ta.catalog.spec.category)).toBe(ta.catalog.categories.earrings);
    expect(await value(ta.catalog.spec.material)).toBe(ta.catalog.materials.gold);
    expect(await value(ta.catalog.spec.purity)).toBe(
      ta.catalog.values.karat.replace('{n}', product.purity!.slice(0, 2)),
    );
    expect(await value(ta.catalog.spec.weight)).toBe(
      ta.catalog.values.grams.replace('{n}', String(product.weight)),
    );
    await expectAccessible(page, 'product details (ta)');
    await context.close();
  });
});
