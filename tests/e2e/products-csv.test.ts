import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_CSV_COLUMNS } from '../../api/contract/products-csv';
import { DEMO_ACCOUNTS, registerViaApi, signInViaApi } from './support/accounts';
import { baseUrl, expectAccessible, launchBrowser, newContext } from './support/browser';

/** A shop's products as a CSV file, from the seller's products page (docs/product-rules.md "Products as CSV"). */
let browser: Browser;
let dir: string;
beforeAll(async () => {
  browser = await launchBrowser();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'nagai-csv-'));
});
afterAll(async () => {
  await browser?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('products as CSV', () => {
  it('exports the shop, shows an import’s problems by row, then imports the fixed file', async () => {
    const context = await newContext(browser);
    const account = await registerViaApi(context, { role: 'seller', displayName: 'Kavya Jewels' });
    const setup = await context.request.post('/_api/seller/profile/setup', {
      headers: { Origin: baseUrl() },
      data: {
        shopName: `Kavya Jewels ${Math.random().toString(36).slice(2, 6)}`,
        shopAddress: '12 Car Street',
        city: 'Madurai',
        state: 'Tamil Nadu',
        pincode: '625001',
        phone: '9876543210',
      },
    });
    expect(setup.status(), await setup.text()).toBe(201);
    // Only an approved shop imports (docs/security.md): the admin approves it for the test, and withdraws the
    // approval after it, so the ruby ring stays out of the marketplace that later files pick products from.
    const admin = await newContext(browser);
    await signInViaApi(admin, DEMO_ACCOUNTS.admin);
    const approve = (isApproved: boolean) =>
      admin.request.post('/_api/admin/seller/approve', {
        headers: { Origin: baseUrl() },
        data: { sellerUserId: account.user.id, isApproved },
      });
    expect((await approve(true)).status()).toBe(200);
    const page = await context.newPage();
    await page.goto('/seller/products');
    await page.getByRole('heading', { name: 'Products', level: 1 }).waitFor();

    // Export: a download named by the day, whose first row names the columns.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^products-\d{4}-\d{2}-\d{2}\.csv$/);
    // The run's Chromium is shared (a connection to it): the download is saved in this file's temporary
    // directory (removed after it), then read.
    const saved = path.join(dir, `downloaded-${Date.now()}.csv`);
    await download.saveAs(saved);
    const exported = await fs.readFile(saved, 'utf8');
    expect(exported.replace(/^\uFEFF/, '').split(/\r?\n/)[0]).toBe(PRODUCT_CSV_COLUMNS.join(','));

    // A file with a mistake: nothing is saved and the row and column are named.
    const image = `${baseUrl()}/icons/icon-192.png`;
    const bad = path.join(dir, 'bad.csv');
    await fs.writeFile(
      bad,
      `name,description,price,category,material,images\nRuby ring,A ruby ring in 22K gold.,-10,rings,gold,${image}\n`,
    );
    await page.getByLabel('Choose a CSV file of products to import').setInputFiles(bad);
    const alert = page.getByRole('alert').filter({ hasText: 'Nothing was saved.' });
    await alert.waitFor();
    await alert.getByText('Row 2, price:').waitFor();
    await expectAccessible(page, '/seller/products (import problems)');

    // Fixed: the product is added and listed.
    const good = path.join(dir, 'good.csv');
    await fs.writeFile(
      good,
      `name,description,price,category,material,stockQuantity,images\nRuby ring,A ruby ring in 22K gold.,18500,rings,gold,4,${image}\n`,
    );
    await page.getByLabel('Choose a CSV file of products to import').setInputFiles(good);
    await page.getByText('Imported: 1 added, 0 changed.').waitFor();
    await expect.poll(() => alert.count()).toBe(0);
    await page.getByRole('table').getByText('Ruby ring').waitFor();
    await context.close();
    expect((await approve(false)).status()).toBe(200);
    await admin.close();
  });
});
