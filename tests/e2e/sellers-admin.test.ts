import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, registerViaApi, signInViaApi, uniqueEmail } from './support/accounts';
import { baseUrl, expectAccessible, launchBrowser, newContext } from './support/browser';

let browser: Browser;
let imageServer: http.Server;
let imageUrl: string;
let png: Buffer;

/** Letters only, so search treats it as one word. */
const token = () =>
  Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

beforeAll(async () => {
  png = await sharp({
    create: { width: 320, height: 320, channels: 3, background: { r: 212, g: 160, b: 23 } },
  })
    .png()
    .toBuffer();
  // The product image "by URL": a .png served from this machine (the e2e server may fetch private URLs).
  imageServer = http.createServer((req, res) => {
    if (req.url === '/ring.png') {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
      res.end(png);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve));
  imageUrl = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}/ring.png`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => imageServer?.close(r));
});

const toast = (page: Page, text: string | RegExp) =>
  page.locator('[data-sonner-toast]').filter({ hasText: text }).first().waitFor();

async function post(context: BrowserContext, path: string, data: unknown) {
  const res = await context.request.post(path, { data, headers: { Origin: baseUrl() } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

/** The admin's card of one shop on /admin/dashboard or /admin/sellers. */
const shopCard = (page: Page, shopName: string) =>
  page.getByRole('article').filter({ has: page.getByRole('heading', { name: shopName, exact: true }) });

describe('running a shop', () => {
  it('a new seller sets up a shop, the admin approves it, the seller adds products, video and a slug; visitors find them', async () => {
    const word = token();
    const shopName = `Meenakshi Jewels ${word}`;
    const slug = `meenakshi-${word}`;
    const uploadedName = `Peacock Jhumka ${word}`;
    const urlName = `Temple Bangle ${word}`;

    // --- sign up on /seller/login and set up the shop ---
    const seller = await newContext(browser);
    const page = await seller.newPage();
    await page.goto('/seller/login?tab=register');
    const form = page.getByRole('tabpanel', { name: 'Create Account' });
    await form.getByLabel('Your Name').fill('Meenakshi Sundaram');
    await form.getByLabel('Email').fill(uniqueEmail('shop'));
    await form.getByLabel('Password', { exact: true }).fill('Secret#2026');
    await form.getByLabel('Confirm Password').fill('Secret#2026');
    await form.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((u) => u.pathname === '/seller/profile/setup');
    await page.getByRole('heading', { name: 'Set Up Your Shop', level: 1 }).waitFor();
    await expectAccessible(page, '/seller/profile/setup');

    // The validation rules show beside the fields, and nothing typed is lost.
    await page.getByLabel('Shop Name').fill('M');
    await page.getByRole('button', { name: 'Create Shop' }).click();
    await page.getByText('Shop name must be at least 2 characters long.').waitFor();
    await page.getByText('Invalid Indian pincode.').waitFor();
    await page.getByText('Invalid 10-digit phone number.').waitFor();
    await expectAccessible(page, '/seller/profile/setup with errors');

    await page.getByLabel('Shop Name').fill(shopName);
    await page.getByLabel('Shop Address').fill('12 South Car Street, near the temple');
    await page.getByLabel('City').fill('Madurai');
    await page.getByLabel('State').fill('Tamil Nadu');
    await page.getByLabel('Pincode').fill('625001');
    await page.getByLabel('Phone Number').fill('9876543210');
    const certs = page.getByLabel('Certifications (optional)');
    await certs.fill('BIS Hallmark');
    await certs.press('Enter');
    await page.getByRole('button', { name: 'Remove BIS Hallmark' }).waitFor();
    await page.getByRole('button', { name: 'Create Shop' }).click();
    await page.waitForURL((u) => u.pathname === '/seller/dashboard');
    await page.getByRole('heading', { name: shopName, level: 1 }).waitFor();
    await page.getByText('Your shop is pending approval').waitFor();
    await page.getByText("You haven't added any products yet.").waitFor();
    await page.getByText('Set up your shop', { exact: true }).waitFor();
    await expectAccessible(page, '/seller/dashboard (pending)');

    // --- the admin approves it ---
    const admin = await newContext(browser);
    await signInViaApi(admin, DEMO_ACCOUNTS.admin);
    const adminPage = await admin.newPage();
    await adminPage.goto('/admin/dashboard');
    const card = shopCard(adminPage, shopName);
    await card.getByText('Pending', { exact: true }).waitFor();
    // The calls' quality summary has loaded (its five figures, whatever calls the run has made so far).
    const quality = adminPage.getByRole('region', { name: 'Calls, last 7 days' });
    await quality.getByText('Answered calls').waitFor();
    await adminPage.waitForFunction(
      () => document.querySelectorAll('[data-testid="call-quality-value"] .animate-pulse').length === 0,
    );
    expect(await quality.getByTestId('call-quality-value').count()).toBe(5);
    await expectAccessible(adminPage, '/admin/dashboard');
    await card.getByRole('button', { name: `Approve ${shopName}`, exact: true }).click();
    await toast(adminPage, 'Seller approved successfully.');
    await card.getByText('Approved', { exact: true }).waitFor();
    expect(await card.getByRole('button', { name: `Approve ${shopName}`, exact: true }).count()).toBe(0);
    await card.getByRole('button', { name: `Disapprove ${shopName}`, exact: true }).waitFor();
    await admin.close();

    await page.reload();
    await page.getByText('Your shop is live').waitFor();

    // --- a product with an uploaded image ---
    await page.goto('/seller/products');
    await page
      .getByText('You haven\'t added any products yet. Click "Add New Product" to get started.')
      .waitFor();
    await expectAccessible(page, '/seller/products (empty)');
    await page.getByRole('button', { name: 'Add New Product' }).click();
    let sheet = page.getByRole('dialog', { name: 'Add New Product' });
    await sheet.waitFor();
    await expectAccessible(page, 'add product sheet');
    await sheet.getByLabel('Name', { exact: true }).fill(uploadedName);
    await sheet.getByLabel('Description', { exact: true }).fill('A gold-plated jhumka with a peacock motif.');
    await sheet.getByLabel('Price (₹)').fill('4500');
    await sheet.getByLabel('Category').selectOption('earrings');
    await sheet.getByLabel('Material').selectOption('gold');
    // The images' input (the certificate file has one of its own).
    await sheet.locator('input[type="file"][multiple]').setInputFiles({
      name: 'jhumka.png',
      mimeType: 'image/png',
      buffer: png,
    });
    await sheet.getByText('Image 1 of 1').waitFor();
    await sheet.getByText('Cover', { exact: true }).waitFor();
    await sheet.getByRole('button', { name: 'Add Product' }).click();
    await toast(page, `${uploadedName} was added to your shop.`);
    await sheet.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: uploadedName, exact: true }).waitFor();

    // --- a product with an image by URL ---
    await page.getByRole('button', { name: 'Add New Product' }).click();
    sheet = page.getByRole('dialog', { name: 'Add New Product' });
    await sheet.getByLabel('Name', { exact: true }).fill(urlName);
    await sheet.getByLabel('Description', { exact: true }).fill('A temple-style bangle in brass.');
    await sheet.getByLabel('Price (₹)').fill('1200');
    await sheet.getByLabel('Category').selectOption('bangles');
    await sheet.getByLabel('Material').selectOption('brass');
    const url = sheet.getByLabel('Image URL');
    const addUrl = sheet.getByRole('button', { name: 'Add URL' });
    // Not an image path: the add button stays disabled and Enter is silently ignored.
    await url.fill('http://127.0.0.1/brochure.pdf');
    expect(await addUrl.isDisabled()).toBe(true);
    await url.press('Enter');
    await sheet.getByText('No images yet. At least one is required.').waitFor();
    await url.fill(imageUrl);
    await addUrl.click();
    await sheet.getByText('Image 1 of 1').waitFor();
    // The same URL again is ignored.
    await url.fill(imageUrl);
    await addUrl.click();
    expect(await sheet.getByText('Image 1 of 1').count()).toBe(1);
    await sheet.getByRole('button', { name: 'Add Product' }).click();
    await toast(page, `${urlName} was added to your shop.`);
    await page.getByRole('cell', { name: urlName, exact: true }).waitFor();
    expect(await page.getByText('Active', { exact: true }).count()).toBe(2);
    await expectAccessible(page, '/seller/products (two products)');

    // Delete asks first; cancelling keeps the product.
    await page.getByRole('button', { name: `Delete ${urlName}` }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm
      .getByText('Are you sure you want to delete this product? This action cannot be undone.')
      .waitFor();
    await expectAccessible(page, 'delete confirmation');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: urlName, exact: true }).waitFor();

    // --- video calls on, and a custom store URL ---
    await page.goto('/seller/profile#video-settings');
    const videoSwitch = page.getByRole('switch', { name: 'Accept video calls' });
    await videoSwitch.waitFor();
    await expectAccessible(page, '/seller/profile');
    expect(await videoSwitch.getAttribute('aria-checked')).toBe('false');
    await videoSwitch.click();
    await toast(page, 'Video calls turned on.');
    expect(await videoSwitch.getAttribute('aria-checked')).toBe('true');

    await page.getByLabel('Store URL (optional)').fill('seller');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Your shop profile could not be saved.');
    await page.getByText('This store URL is reserved for the site. Please choose another.').waitFor();
    await page.getByLabel('Store URL (optional)').fill(slug);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Shop profile saved.');
    expect(await page.getByLabel('Shop Name').inputValue()).toBe(shopName);

    // --- a visitor finds the product and the shop ---
    const visitor = await newContext(browser, { mobile: true });
    const v = await visitor.newPage();
    await v.goto(`/marketplace?query=${encodeURIComponent(uploadedName)}`);
    await v.locator('main article').filter({ hasText: uploadedName }).first().waitFor();
    await expectAccessible(v, '/marketplace search');
    await v.goto(`/${slug}`);
    await v.getByRole('heading', { name: shopName, level: 1 }).waitFor();
    // Video on, open at any hour by default: the shop takes calls while its jeweller's app is open; with the app
    // closed and no push to ring, it can't (issue #50: the storefront follows the live state, polled every 5 s,
    // so it changes within that poll plus a fixed slack).
    const state = v.getByTestId('call-state').first();
    await state.waitFor();
    expect(await state.textContent()).toBe('Available now');
    await seller.close();
    await expect.poll(() => state.textContent(), { timeout: 5_000 + 5_000 }).toBe("Can't take calls now");
    await v.locator('main').getByText(urlName).first().waitFor();
    await expectAccessible(v, `/${slug}`);
    await visitor.close();
  });

  it('the admin disapproves a shop on /admin/sellers and it leaves the marketplace and the directory', async () => {
    const word = token();
    const shopName = `Kaveri Ornaments ${word}`;
    const productName = `Kasu Mala ${word}`;

    const seller = await newContext(browser);
    const { user } = await registerViaApi(seller, { role: 'seller', displayName: 'Kaveri Raman' });
    await post(seller, '/_api/seller/profile/setup', {
      shopName,
      shopAddress: '4 Big Bazaar Street, Coimbatore',
      city: 'Coimbatore',
      state: 'Tamil Nadu',
      pincode: '641001',
      phone: '9123456780',
    });
    const admin = await newContext(browser);
    await signInViaApi(admin, DEMO_ACCOUNTS.admin);
    await post(admin, '/_api/admin/seller/approve', { sellerUserId: user.id, isApproved: true });
    await post(seller, '/_api/products/create', {
      name: productName,
      description: 'A coin necklace in 22K gold.',
      price: '85000',
      category: 'necklaces',
      material: 'gold',
      images: [`data:image/png;base64,${png.toString('base64')}`],
    });
    await seller.close();

    const visitor = await newContext(browser);
    let v = await visitor.newPage();
    await v.goto(`/marketplace?query=${encodeURIComponent(productName)}`);
    await v.locator('main article').filter({ hasText: productName }).first().waitFor();
    await v.goto(`/sellers?query=${encodeURIComponent(shopName)}`);
    await v.locator('main').getByText(shopName).first().waitFor();

    const adminPage = await admin.newPage();
    await adminPage.goto('/admin/sellers');
    await adminPage.getByRole('heading', { name: 'Sellers', level: 1 }).waitFor();
    const card = shopCard(adminPage, shopName);
    await card.getByText('Approved', { exact: true }).waitFor();
    await expectAccessible(adminPage, '/admin/sellers');
    await card.getByRole('button', { name: `Disapprove ${shopName}`, exact: true }).click();
    await toast(adminPage, 'Seller disapproved successfully.');
    await card.getByText('Disapproved', { exact: true }).waitFor();
    await card.getByRole('button', { name: `Approve ${shopName}`, exact: true }).waitFor();
    expect(await card.getByRole('button', { name: `Disapprove ${shopName}`, exact: true }).count()).toBe(0);
    await expectAccessible(adminPage, '/admin/sellers after disapproval');
    await admin.close();
    await visitor.close();

    // A new visitor (one who just looked may see the persisted catalogue for up to the product rules' 60 s of
    // freshness). Similar demo names may still match: the search settles without this shop's product.
    const next = await newContext(browser);
    v = await next.newPage();
    await v.goto(`/marketplace?query=${encodeURIComponent(productName)}`);
    await v
      .getByText('No Products Found')
      .or(v.getByText(/^Showing \d+-\d+ of \d+ results$|^\d+ pieces?$/))
      .first()
      .waitFor();
    await v.locator('main ul[aria-busy="true"]').waitFor({ state: 'detached' });
    expect(await v.locator('main article').filter({ hasText: productName }).count()).toBe(0);
    await expectAccessible(v, '/marketplace after disapproval');
    // Other shops may match parts of the name; the directory settles without this one.
    await v.goto(`/sellers?query=${encodeURIComponent(shopName)}`, { waitUntil: 'networkidle' });
    await v.waitForFunction(
      () => !document.querySelector('main [role="status"][aria-busy="true"], main .animate-pulse'),
    );
    expect(await v.locator('main').getByText(shopName).count()).toBe(0);
    await expectAccessible(v, '/sellers after disapproval');
    await next.close();
  });
});
