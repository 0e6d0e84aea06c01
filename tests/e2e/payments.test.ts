import crypto from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '../../api/contract/payments';
import { DEMO_ACCOUNTS, registerViaApi, signInViaApi } from './support/accounts';
import { baseUrl, expectAccessible, launchBrowser, newContext, phoneIn } from './support/browser';

/**
 * Paying for it (docs/product-rules.md §14), through the Razorpay test double the e2e server talks to: a failed
 * UPI payment and Pay now, an order of ₹2,00,000 or more (PAN asked for and masked, cash on delivery refused), the
 * shop's ledger card and the admin's payout. A shop of its own, set up through the API and disapproved at the end,
 * so the demo shops' stock and money stay as other files expect them.
 */

let browser: Browser;
let seller: BrowserContext;
let admin: BrowserContext;
let shopName: string;
let sellerId: number;
let anklet: number;
let necklace: number;
/** Orders paid so far, in paise: what the ledger should show. */
let paidPaise = 0;

const origin = () => ({ Origin: baseUrl() });

async function post(context: BrowserContext, path: string, data: unknown) {
  const res = await context.request.post(path, { data, headers: origin() });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json() as Promise<Record<string, unknown>>;
}

beforeAll(async () => {
  browser = await launchBrowser();
  const png = await sharp({
    create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 200, b: 210 } },
  })
    .png()
    .toBuffer();
  const image = `data:image/png;base64,${png.toString('base64')}`;

  seller = await newContext(browser);
  const account = await registerViaApi(seller, { role: 'seller', displayName: 'Selvi Arumugam' });
  sellerId = account.user.id;
  shopName = `Selvi Gems ${crypto.randomBytes(2).toString('hex')}`;
  await post(seller, '/_api/seller/profile/setup', {
    shopName,
    shopAddress: '8 West Masi Street',
    city: 'Madurai',
    state: 'Tamil Nadu',
    pincode: '625001',
    phone: '9876512345',
  });
  admin = await newContext(browser);
  await signInViaApi(admin, DEMO_ACCOUNTS.admin);
  await post(admin, '/_api/admin/seller/approve', { sellerUserId: sellerId, isApproved: true });
  const product = async (name: string, price: string, stockQuantity: number) =>
    (
      (await post(seller, '/_api/products/create', {
        name,
        description: `${name}, made in Madurai.`,
        category: name.includes('anklet') ? 'anklets' : 'necklaces',
        material: name.includes('anklet') ? 'silver' : 'diamond',
        images: [image],
        price,
        stockQuantity,
      })) as { productId: number }
    ).productId;
  anklet = await product('Silver anklet', '4500', 5);
  necklace = await product('Diamond necklace', '250000', 2);
});

afterAll(async () => {
  // Out of the marketplace again: later files pick demo products by price and stock.
  if (admin && sellerId) {
    await admin.request.post('/_api/admin/seller/approve', {
      data: { sellerUserId: sellerId, isApproved: false },
      headers: origin(),
    });
  }
  await browser?.close();
});

const inr = (paise: number) =>
  new Intl.NumberFormat('en-IN', {
    style: 'currency',
    currency: 'INR',
    minimumFractionDigits: paise % 100 === 0 ? 0 : 2,
    maximumFractionDigits: paise % 100 === 0 ? 0 : 2,
  }).format(paise / 100);

async function fillAddress(page: Page) {
  await page.getByLabel('Phone number').fill('9876543210');
  await page.getByLabel('Shipping address').fill('3 Brigade Road');
  await page.getByLabel('City').fill('Bengaluru');
  await page.getByLabel('State').selectOption({ label: 'Karnataka' });
  await page.getByLabel('Pin code').fill('560001');
}

const noOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

describe('paying for it through the Razorpay test double', () => {
  it('a failed UPI payment leaves the order "Payment failed" with Pay now; paying again pays it', async () => {
    const context = await newContext(browser);
    await registerViaApi(context);
    await post(context, '/_api/cart/add', { productId: anklet, quantity: 1 });
    const page = await context.newPage();
    await page.goto('/checkout');
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    await expect(page.getByRole('radio', { name: 'UPI' }).isChecked()).resolves.toBe(true);
    // A small order: no PAN asked for, cash on delivery offered.
    await page.getByRole('radio', { name: 'Cash on delivery' }).waitFor();
    await expect(page.getByLabel(/^PAN/).count()).resolves.toBe(0);
    await fillAddress(page);
    // The buyer's GSTIN is optional and checked: a wrong one is refused at the field.
    await page.getByLabel(/^GSTIN/).fill('29AAACB1234');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByText('Invalid GSTIN: 15 characters, starting with a valid state code').waitFor();
    await page.getByLabel(/^GSTIN/).fill('29aaacb1234c1z9');
    await expect(page.getByLabel(/^GSTIN/).inputValue()).resolves.toBe('29AAACB1234C1Z9');

    await page.getByRole('button', { name: 'Place Order' }).click();
    const gateway = page.getByRole('dialog', { name: 'Test payments' });
    await gateway.waitFor();
    await gateway.getByText('Selvi Gems').waitFor();
    await gateway.getByRole('button', { name: 'Pay by UPI (fails)' }).click();
    await gateway.getByText('Payment failed. Try again or close.').waitFor();
    await gateway.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL((u) => /^\/orders\/\d+$/.test(u.pathname));
    await page.getByText('The payment did not go through.').first().waitFor();
    await page.getByText(/UPI · Payment failed/).waitFor();
    const payNow = page.getByRole('button', { name: 'Pay now' });
    await payNow.waitFor();
    await page.getByTestId('pay-before').waitFor();
    // Unpaid: no tax invoice number yet (issue #40 item 6), so the page is an order, not an invoice (#49).
    await page.getByTestId('gst-invoice-not-due').waitFor();
    await page.getByRole('heading', { name: 'Order', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Print order' }).waitFor();
    expect(await page.getByTestId('gst-invoice').count()).toBe(0);
    await expectAccessible(page, 'order with a failed payment');

    await payNow.click();
    await gateway.getByRole('button', { name: 'Pay by UPI (succeeds)' }).click();
    await page.getByText(/UPI · Paid/).waitFor();
    await page.getByText('Payment received. Thank you!').first().waitFor();
    await expect.poll(() => payNow.count()).toBe(0);
    // Paid: the tax invoice is issued; it carries the buyer's GSTIN (across states, IGST) and the payment.
    await page.reload();
    await expect(page.getByTestId('gst-buyer-gstin').textContent()).resolves.toBe(
      'Buyer GSTIN: 29AAACB1234C1Z9',
    );
    await page.getByTestId('gst-igst').waitFor();
    // Paid with its tax invoice: now it reads as an invoice.
    await page.getByRole('heading', { name: 'Invoice', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Print invoice' }).waitFor();
    expect(await page.getByTestId('gst-payment').textContent()).toMatch(
      /^Paid by UPI on .+\. Payment reference: pay_\w+$/,
    );
    paidPaise += 450_000;
    await context.close();
  });

  it('an order of ₹2,00,000 or more asks for the PAN and refuses cash on delivery, also on a Tamil phone', async () => {
    const context = await browser.newContext({
      baseURL: baseUrl(),
      viewport: { width: 360, height: 640 },
      locale: 'en-IN',
      isMobile: true,
      hasTouch: true,
    });
    await context.addInitScript(() => {
      if (!localStorage.getItem('nagai.language')) localStorage.setItem('nagai.language', 'ta');
    });
    await registerViaApi(context, { displayName: 'Kavitha Subramanian' });
    await post(context, '/_api/cart/add', { productId: necklace, quantity: 1 });
    // The PAN is asked for from the cart itself (issue #49): even payment options that leave it out (as a stale
    // or failed answer would) do not hide it before Place Order.
    await context.route('**/_api/payments/options*', async (route) => {
      const response = await route.fetch();
      const json = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: { ...json, panRequired: false } });
    });
    const page = await context.newPage();

    // Tamil at 360 × 640: the PAN field, the refusal of cash, and nothing scrolls sideways.
    await page.goto('/checkout');
    await page.waitForFunction(() => document.documentElement.lang === 'ta');
    await page.getByLabel(/^PAN \(₹2,00,000/).waitFor();
    await page.getByTestId('cash-unavailable').waitFor();
    await expect(page.getByRole('radio').count()).resolves.toBe(3);
    // Submitted empty: the messages next to the fields must fit too.
    await page.getByRole('button', { name: 'ஆர்டர் செய்' }).click();
    await page.locator('[aria-invalid="true"]').first().waitFor();
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await expect(noOverflow(page)).resolves.toBe(true);
    await expectAccessible(page, 'checkout with the PAN field (ta, 360)');

    // In English: the clear message, the PAN's format checked at the field.
    await page.locator('header').getByTestId('language-switch').selectOption('en');
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    await expect(page.getByTestId('cash-unavailable').textContent()).resolves.toBe(
      PAYMENT_MESSAGES.cashLimit,
    );
    await expect(page.getByRole('radio', { name: 'Cash on delivery' }).count()).resolves.toBe(0);
    await expect(page.getByRole('radio', { name: 'UPI' }).isChecked()).resolves.toBe(true);
    // The server refuses cash for it too, whatever the page sends.
    const cash = await context.request.post('/_api/checkout/create', {
      data: {
        customerName: 'Kavitha Subramanian',
        customerPhone: '9876543210',
        shippingAddress: '3 Brigade Road',
        city: 'Bengaluru',
        state: 'Karnataka',
        pinCode: '560001',
        paymentMethod: 'cash_on_delivery',
        buyerPan: 'ABCDE1234F',
      },
      headers: { ...origin(), 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(cash.status()).toBe(400);
    expect(((await cash.json()) as { error: string }).error).toBe(PAYMENT_MESSAGES.cashLimit);

    await fillAddress(page);
    const pan = page.getByLabel(/^PAN/);
    await pan.fill('abcd1234');
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page.getByText(PAYMENT_MESSAGES.panInvalid).waitFor();
    await expect(pan.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(noOverflow(page)).resolves.toBe(true);
    await pan.fill('abcde1234f');
    await expect(pan.inputValue()).resolves.toBe('ABCDE1234F');
    await page.getByRole('button', { name: 'Place Order' }).click();
    const gateway = page.getByRole('dialog', { name: 'Test payments' });
    await gateway.getByText(`${shopName}: ₹2,50,000`).waitFor();
    await gateway.getByRole('button', { name: 'Pay by UPI (succeeds)' }).click();
    await page.waitForURL((u) => /^\/orders\/\d+$/.test(u.pathname));
    await page.getByText(/UPI · Paid/).waitFor();
    await expect(page.getByTestId('buyer-pan').textContent()).resolves.toBe('Buyer PAN: ABCDE****F');
    await expect(page.getByTestId('gst-buyer-pan').textContent()).resolves.toBe('Buyer PAN: ABCDE****F');
    const orderId = Number(new URL(page.url()).pathname.split('/').pop());
    paidPaise += 25_000_000;
    await context.close();

    // The seller sees the PAN masked, never whole, on the order and its invoice.
    const sellerPage = await seller.newPage();
    await sellerPage.goto(`/orders/${orderId}`);
    await sellerPage.getByText(/UPI · Paid/).waitFor();
    await expect(sellerPage.getByTestId('buyer-pan').textContent()).resolves.toBe('Buyer PAN: ABCDE****F');
    await expect(sellerPage.getByTestId('gst-buyer-pan').textContent()).resolves.toBe(
      'Buyer PAN: ABCDE****F',
    );
    expect(await sellerPage.locator('main').textContent()).not.toContain('ABCDE1234F');

    // Both paid orders delivered: only then are they the shop's to be paid out (docs/security.md "Payouts"; the
    // browser tests' server has no return window to wait through).
    const orders = (await (await seller.request.get('/_api/orders/seller?page=1&limit=50')).json()) as {
      orders: { id: number; paymentStatus: string }[];
    };
    const paid = orders.orders.filter((o) => o.paymentStatus === 'paid');
    expect(paid).toHaveLength(2);
    for (const o of paid)
      for (const status of ['confirmed', 'shipped', 'delivered'])
        await post(seller, '/_api/orders/update-status', { orderId: o.id, status });

    // Its ledger card: both paid orders, nothing paid out yet.
    await sellerPage.goto('/seller/dashboard');
    const card = sellerPage.getByTestId('ledger-card');
    await card.getByRole('heading', { name: 'Payments and payouts' }).waitFor();
    await expect.poll(() => card.getByTestId('ledger-paid').textContent()).toBe(inr(paidPaise));
    await expect(card.getByTestId('ledger-owed').textContent()).resolves.toBe(inr(paidPaise));
    await expect(card.getByTestId('ledger-paid-out').textContent()).resolves.toBe('₹0');
    await expect(card.getByTestId('ledger-balance').textContent()).resolves.toBe(inr(paidPaise));
    await card.getByTestId('ledger-entries').getByText(`Order #${orderId}`).waitFor();
    await card.getByRole('checkbox', { name: 'Offer cash on delivery' }).waitFor();
    await expectAccessible(sellerPage, 'seller dashboard with the ledger card');
    await sellerPage.close();
  });

  it('the admin marks a payout made; a payout above the balance is refused by the server', async () => {
    expect(paidPaise).toBe(25_450_000);
    const page = await admin.newPage();
    await page.goto('/admin/dashboard');
    await page.getByRole('heading', { name: 'Shop payouts', level: 2 }).waitFor();
    const shop = page
      .getByTestId('payout-shop')
      .filter({ has: page.getByRole('heading', { name: shopName }) });
    await expect(shop.getByTestId('payout-balance').textContent()).resolves.toBe('₹2,54,500');
    await expectAccessible(page, 'admin payouts');

    await shop.getByRole('button', { name: `Mark payout made to ${shopName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Payout to ${shopName}` });
    await dialog.waitFor();
    await dialog.getByText('Balance due: ₹2,54,500.').waitFor();
    const amount = dialog.getByLabel('Amount (₹)');
    await expect(amount.inputValue()).resolves.toBe('254500.00');
    await expectAccessible(page, 'payout dialog');
    // Focus stays in the dialog, whichever way the keyboard goes.
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      await expect(
        page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]')),
        `after ${key}`,
      ).resolves.toBe(true);
    }

    // Checked on the page first; then the server's refusal of more than the balance shows in the dialog.
    await amount.fill('300000');
    await dialog.getByRole('button', { name: 'Record payout' }).click();
    await dialog.getByText(PAYMENT_MESSAGES.referenceRequired).waitFor();
    await dialog.getByLabel('Reference').fill('UTR2026MAD001');
    await dialog.getByRole('button', { name: 'Record payout' }).click();
    await expect(dialog.getByTestId('payout-error').textContent()).resolves.toBe(
      'The payout is more than the shop is owed (₹2,54,500).',
    );
    await amount.fill('1,00,000');
    await dialog.getByRole('button', { name: 'Record payout' }).click();
    await page.getByText(`Payout of ₹1,00,000 to ${shopName} recorded.`).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => shop.getByTestId('payout-balance').textContent()).toBe('₹1,54,500');
    // Focus returns to the button that opened the dialog.
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '')).resolves.toBe(
      `Mark payout made to ${shopName}`,
    );
    await page.close();

    // The seller's card shows it.
    const sellerPage = await seller.newPage();
    await sellerPage.goto('/seller/dashboard');
    const card = sellerPage.getByTestId('ledger-card');
    await expect.poll(() => card.getByTestId('ledger-paid-out').textContent()).toBe('₹1,00,000');
    await expect(card.getByTestId('ledger-balance').textContent()).resolves.toBe('₹1,54,500');
    await card
      .getByTestId('ledger-entries')
      .getByText(/Payout · UTR2026MAD001/)
      .waitFor();
    await sellerPage.close();
  });

  it('on a 360 × 640 phone the Payments card adds up, each line explained, and a new paid order shows without a reload', async () => {
    // The jeweller's dashboard open on a phone (the same session).
    const phone = await phoneIn(browser, 'en');
    await phone.addCookies(await seller.cookies());
    const sellerPage = await phone.newPage();
    await sellerPage.goto('/seller/dashboard');
    const card = sellerPage.getByTestId('ledger-card');
    await card.getByRole('heading', { name: 'Payments and payouts' }).waitFor();
    await expect.poll(() => card.getByTestId('ledger-paid').textContent()).toBe(inr(paidPaise));
    const figure = async (id: string) =>
      Math.round(
        Number(
          (await card.getByTestId(`ledger-${id}`).textContent())!.replace(/[₹,]/g, '').replace('−', '-'),
        ) * 100,
      );
    const figures = async () => ({
      paid: await figure('paid'),
      refunds: await figure('refunds'),
      commission: await figure('commission'),
      owed: await figure('owed'),
      pending: await figure('pending'),
      paidOut: await figure('paid-out'),
      balance: await figure('balance'),
    });
    const addsUp = (f: Awaited<ReturnType<typeof figures>>) => {
      expect(f.paid - f.refunds - f.commission).toBe(f.owed);
      expect(f.pending + f.paidOut + f.balance).toBe(f.owed);
    };
    const before = await figures();
    addsUp(before);
    // Both delivered orders are paid out in part (the admin's payout above): nothing awaits delivery yet.
    expect(before).toMatchObject({ pending: 0, paidOut: 10_000_000, balance: paidPaise - 10_000_000 });
    // Each line says what it is.
    await card.getByText('Already sent to your bank account.').waitFor();
    // The browser tests' server has no return window: the hint names no days.
    await card.getByText('Paid orders not yet delivered.', { exact: true }).waitFor();
    await expect(noOverflow(sellerPage)).resolves.toBe(true);
    await expectAccessible(sellerPage, 'Payments card at 360 × 640');

    // A customer pays for an order while the dashboard stays open.
    const context = await newContext(browser);
    await registerViaApi(context);
    await post(context, '/_api/cart/add', { productId: anklet, quantity: 1 });
    const page = await context.newPage();
    await page.goto('/checkout');
    await fillAddress(page);
    await page.getByRole('button', { name: 'Place Order' }).click();
    await page
      .getByRole('dialog', { name: 'Test payments' })
      .getByRole('button', { name: 'Pay by UPI (succeeds)' })
      .click();
    await page.waitForURL((u) => /^\/orders\/\d+$/.test(u.pathname));
    await page.getByText(/UPI · Paid/).waitFor();
    const orderId = Number(new URL(page.url()).pathname.split('/').pop());
    await context.close();

    // The jeweller is told at once, and the card follows: the new money awaits delivery; the sums still hold.
    await sellerPage.getByText(new RegExp(`^New paid order #${orderId}: ₹`)).waitFor({ timeout: 15_000 });
    await expect.poll(() => figure('paid'), { timeout: 15_000 }).toBeGreaterThan(before.paid);
    const after = await figures();
    addsUp(after);
    expect(after.pending).toBe(after.paid - before.paid);
    expect(after.balance).toBe(before.balance);
    await expectAccessible(sellerPage, 'dashboard after a new paid order');
    await phone.close();
  });
});
