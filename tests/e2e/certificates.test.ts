import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productPath } from '../../api/contract/product-path';
import { DEMO_ACCOUNTS, signInViaApi } from './support/accounts';
import { baseUrl, expectAccessible, launchBrowser, newContext } from './support/browser';

/** A diamond's certificate file: attached by the jeweller, opened by the customer (issue #25 §3). */
let browser: Browser;
let dir: string;
beforeAll(async () => {
  browser = await launchBrowser();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'nagai-cert-'));
});
afterAll(async () => {
  await browser?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n');

async function post(context: BrowserContext, url: string, data: unknown) {
  const res = await context.request.post(url, { data, headers: { Origin: baseUrl() } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()) as { productId: number };
}

describe('certificate files', () => {
  it('the jeweller attaches a PDF in the product form; the product page offers it as a download', async () => {
    const seller = await newContext(browser);
    await signInViaApi(seller, DEMO_ACCOUNTS.seller);
    const name = `Certified solitaire ${crypto.randomBytes(3).toString('hex')}`;
    const png = await fs.readFile(path.resolve(import.meta.dirname, '../../pwa/public/icons/icon-192.png'));
    const { productId } = await post(seller, '/_api/products/create', {
      name,
      description: 'A certified solitaire in 18K white gold.',
      price: '85000',
      category: 'rings',
      material: 'diamond',
      images: [`data:image/png;base64,${png.toString('base64')}`],
      certificateLab: 'IGI',
      certificateNumber: 'LG512345678',
    });

    // The jeweller edits the piece and attaches the lab's PDF.
    const page = await seller.newPage();
    await page.goto('/seller/products');
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const sheet = page.getByRole('dialog', { name: 'Edit Product' });
    await sheet.waitFor();
    const file = path.join(dir, 'igi.pdf');
    await fs.writeFile(file, PDF);
    await sheet.getByLabel('Certificate file (PDF or image, optional)').setInputFiles(file);
    await sheet.getByText('A certificate file is chosen.').waitFor();
    await expectAccessible(page, 'product form with a certificate file');
    await sheet.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText(`${name} was saved.`).waitFor();
    await seller.close();

    // A visitor sees it with the certificate and downloads the very file.
    const visitor = await newContext(browser);
    const product = await visitor.newPage();
    await product.goto(productPath({ id: productId, name }));
    const link = product.getByRole('link', { name: 'View the certificate' });
    await link.waitFor();
    expect(await product.getByText(/IGI/).count()).toBeGreaterThan(0);
    const [download] = await Promise.all([product.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('certificate.pdf');
    // The run's Chromium is shared (a connection to it): the download is saved in this file's temporary
    // directory (removed after it), then read.
    const saved = path.join(dir, `downloaded-${Date.now()}.pdf`);
    await download.saveAs(saved);
    expect((await fs.readFile(saved)).equals(PDF)).toBe(true);
    await expectAccessible(product, 'product page with a certificate file');
    await visitor.close();
  });
});
