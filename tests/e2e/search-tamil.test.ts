import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductListResponse } from '../../api/contract/catalog';
import { expectAccessible, launchBrowser, newContext } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const grid = (page: Page) =>
  page
    .locator('main ul')
    .filter({ has: page.locator('article') })
    .first();

describe('search in Tamil on a phone (issue #35)', () => {
  it('typing "ஜிமிக்கி" at 360 px in Tamil offers earrings among the suggestions and finds earrings', async () => {
    const context = await newContext(browser, { mobile: true });
    await context.addInitScript(() => localStorage.setItem('nagai.language', 'ta'));
    const page = await context.newPage();
    await page.goto('/marketplace');
    await page.waitForFunction(() => document.documentElement.lang === 'ta');

    const box = page.getByRole('combobox', { name: 'நகைகளைத் தேடுங்கள்' });
    await box.click();
    await box.pressSequentially('ஜிமிக்கி');
    const list = page.getByRole('listbox', { name: 'தேடல் பரிந்துரைகள்' });
    // The category in the reader's language, and pieces of it.
    await list.getByRole('option', { name: 'காதணிகள்' }).waitFor();
    const pieces = list.getByRole('group', { name: 'பொருட்கள்' }).getByRole('option');
    await expect.poll(() => pieces.count()).toBeGreaterThan(0);
    await expectAccessible(page, 'Tamil suggestions at 360 px');

    await box.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('query') === 'ஜிமிக்கி');
    // The same search through the API: every result an earring; the page shows them in the same order.
    const api = (await (
      await page.request.get(`/_api/products/list?query=${encodeURIComponent('ஜிமிக்கி')}&limit=20`)
    ).json()) as ProductListResponse;
    expect(api.products.length).toBeGreaterThan(0);
    expect(api.products.every((p) => p.category === 'earrings')).toBe(true);
    await expect
      .poll(() => grid(page).locator('article h3').allTextContents())
      .toEqual(api.products.map((p) => p.name));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await expectAccessible(page, 'Tamil results at 360 px');

    // Nothing found is never a blank page: the nearest category and its pieces, in Tamil.
    await box.fill('platinum kolusu');
    await box.press('Escape');
    await box.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('query') === 'platinum kolusu');
    await page.getByRole('heading', { name: 'நீங்கள் தேடியது கொலுசு தானா?' }).waitFor();
    await expect.poll(() => grid(page).locator('article').count()).toBeGreaterThan(0);
    await expectAccessible(page, 'Tamil did-you-mean at 360 px');
    await context.close();
  });
});

describe('what a search understood, on a 360×640 phone in Tamil (issue #49)', () => {
  it('shows the shop லட்சுமி names, the price a Tamil search names as a chip, and a kind there is none of', async () => {
    const context = await newContext(browser, { mobile: true });
    await context.addInitScript(() => localStorage.setItem('nagai.language', 'ta'));
    const page = await context.newPage();
    await page.setViewportSize({ width: 360, height: 640 });
    const noSideways = async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    const list = async (query: string) =>
      (await (
        await page.request.get(`/_api/products/list?query=${encodeURIComponent(query)}&limit=20`)
      ).json()) as ProductListResponse;

    // A shop's name in Tamil script: the shop, in a block of its own before the pieces.
    await page.goto(`/marketplace?query=${encodeURIComponent('லட்சுமி')}`);
    await page.waitForFunction(() => document.documentElement.lang === 'ta');
    const shops = page.getByRole('region', { name: '“லட்சுமி” என்ற பெயருள்ள கடைகள்' });
    await shops.getByRole('link', { name: 'Lakshmi Jewellers' }).waitFor();
    await noSideways();
    await expectAccessible(page, 'Tamil shop result at 360×640');

    // A price in Tamil: filtered by it and shown as a chip in Tamil.
    const priced = 'சங்கிலி 30 ஆயிரத்துக்குள்';
    await page.goto(`/marketplace?query=${encodeURIComponent(priced)}`);
    const chip = page.getByRole('link', { name: 'விலை வடிகட்டியை நீக்கு: ₹30,000 வரை' });
    await chip.waitFor();
    const api = await list(priced);
    expect(api.priceFilter).toMatchObject({ maxPaise: 3_000_000, rest: 'சங்கிலி' });
    expect(api.products.length).toBeGreaterThan(0);
    expect(api.products.every((p) => p.category === 'chains' && Number(p.price) <= 30_000)).toBe(true);
    await expect
      .poll(() => grid(page).locator('article h3').allTextContents())
      .toEqual(api.products.map((p) => p.name));
    await noSideways();
    await expectAccessible(page, 'Tamil price chip at 360×640');

    // A kind there is none of, said in Tamil, with the nearest kind's pieces.
    await page.goto(`/marketplace?query=${encodeURIComponent('தாலி')}`);
    await page.getByText('எங்களிடம் இன்னும் தாலிகள் இல்லை — அருகிலுள்ள வகையான சங்கிலிகள் காட்டப்படுகின்றன.').waitFor();
    await expect.poll(() => grid(page).locator('article').count()).toBeGreaterThan(0);
    await noSideways();
    await expectAccessible(page, 'Tamil missing kind at 360×640');
    await context.close();
  });
});
