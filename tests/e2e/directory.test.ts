import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

describe('jeweller directory', () => {
  it('lists 12 per page, filters by search, city and state through the URL, and shows the empty text', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/sellers');
    const cards = page.locator('main ul article');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(12);
    // Every card shows one of the three video states.
    const text = (await cards.allTextContents()).join(' ');
    expect(text).toMatch(/Video Available|Offline|Unavailable/);
    await expectAccessible(page, '/sellers');

    await page.getByLabel('Search', { exact: true }).fill('lakshmi');
    await page.waitForURL((u) => u.searchParams.get('query') === 'lakshmi');
    await page.getByRole('link', { name: 'Lakshmi Jewellers' }).waitFor();

    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByLabel('City').fill('Chennai');
    await page.waitForURL((u) => u.searchParams.get('city') === 'Chennai' && !u.searchParams.has('query'));
    await expect
      .poll(async () => (await cards.allTextContents()).every((c) => c.includes('Chennai')))
      .toBe(true);

    await page.getByLabel('State').fill('Nowhere Pradesh');
    await page.getByText('No sellers found matching your criteria. Try adjusting your search.').waitFor();
    await expectAccessible(page, 'empty directory');

    // Back restores the previous filters (the boxes follow the URL).
    await page.goto('/sellers?city=Chennai');
    expect(await page.getByLabel('City').inputValue()).toBe('Chennai');
    await context.close();
  });
});

describe('the directory in Tamil script on a phone (issue #49)', () => {
  it('finds Lakshmi Jewellers for லட்சுமி and the Chennai shops for சென்னை, at 360 px in Tamil', async () => {
    const context = await newContext(browser, { mobile: true });
    await context.addInitScript(() => localStorage.setItem('nagai.language', 'ta'));
    const page = await context.newPage();
    await page.setViewportSize({ width: 360, height: 640 });
    await page.goto(`/sellers?query=${encodeURIComponent('லட்சுமி')}`);
    await page.waitForFunction(() => document.documentElement.lang === 'ta');
    await page.getByRole('link', { name: 'Lakshmi Jewellers' }).waitFor();
    await expectAccessible(page, 'directory லட்சுமி at 360 px');

    await page.goto(`/sellers?query=${encodeURIComponent('சென்னை')}`);
    const cards = page.locator('main ul article');
    await cards.first().waitFor();
    const texts = await cards.allTextContents();
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((c) => c.includes('Chennai'))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await context.close();
  });
});
