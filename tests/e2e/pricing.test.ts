import crypto from 'node:crypto';
import type { Browser, BrowserContext } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productPath } from '../../api/contract/catalog';
import { DEMO_ACCOUNTS, registerViaApi, signInViaApi } from './support/accounts';
import { pieceFigures, type PieceFigureInput } from '../../api/contract/figures';
import { formatInr } from '../../api/contract/money';
import { baseUrl, expectAccessible, launchBrowser, newContext, phoneIn } from './support/browser';

let browser: Browser;
let png: string;
beforeAll(async () => {
  browser = await launchBrowser();
  const buf = await sharp({
    create: { width: 64, height: 64, channels: 3, background: { r: 212, g: 175, b: 55 } },
  })
    .png()
    .toBuffer();
  png = `data:image/png;base64,${buf.toString('base64')}`;
});
afterAll(async () => browser?.close());

async function post(
  context: BrowserContext,
  path: string,
  data: unknown,
  headers: Record<string, string> = {},
) {
  const res = await context.request.post(path, { data, headers: { Origin: baseUrl(), ...headers } });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.json();
}

describe('rate-linked pricing on the product page (issue #25)', () => {
  it('shows the breakdown and the HUID in English and in Tamil; the order has a GST invoice and its PDF', async () => {
    const word = crypto.randomBytes(3).toString('hex');
    const name = `Rate chain ${word}`;
    const seller = await newContext(browser);
    await signInViaApi(seller, DEMO_ACCOUNTS.seller);
    await post(seller, '/_api/seller/rates', {
      rates: [{ metal: 'gold', purity: '22K', ratePerGram: '6750' }],
    });
    const created = (await post(seller, '/_api/products/create', {
      name,
      description: 'A 22K chain priced from the day’s rate.',
      category: 'chains',
      material: 'gold',
      images: [png],
      pricingMode: 'rate',
      metal: 'gold',
      metalPurity: '22K',
      netWeight: '10.5',
      weight: '11.2',
      makingType: 'percent',
      makingValue: '12',
      stoneCharges: '1500',
      huid: 'AB12CD',
    })) as { productId: number };
    // The dashboard's cards: today's rates (the one just set) and the tax invoice details (the demo shop's own
    // GSTIN, so nothing another file sees changes).
    const dashboard = await seller.newPage();
    await dashboard.goto('/seller/dashboard');
    const rates = dashboard.getByTestId('rates-card');
    await rates.getByRole('heading', { name: "Today's metal rates" }).waitFor();
    // The card shows its inputs before the shop's rates have loaded into them.
    await expect.poll(() => rates.getByLabel('Gold 22K (₹ per gram)').inputValue()).toBe('6750.00');
    const tax = dashboard.getByTestId('tax-settings-card');
    await tax.getByLabel('GSTIN').fill('29AABCL1234M1Z5');
    await tax.getByLabel('GST state').selectOption('33');
    await tax.getByLabel('Legal name').fill('Lakshmi Jewellers Private Limited');
    await tax.getByRole('button', { name: 'Save details' }).click();
    await tax.getByText('The GSTIN’s first two digits must be the shop’s state code.').waitFor();
    await tax.getByLabel('GSTIN').fill('33AABCL1234M1Z5');
    await tax.getByRole('button', { name: 'Save details' }).click();
    await dashboard.getByText('Tax invoice details saved.').waitFor();
    await seller.close();
    const path = productPath({ id: created.productId, name });

    const visitor = await newContext(browser);
    const page = await visitor.newPage();
    await page.goto(path);
    const breakdown = page.getByTestId('price-breakdown');
    await breakdown.getByRole('heading', { name: 'Price breakdown' }).waitFor();
    const text = (await breakdown.textContent())!;
    expect(text).toContain('Gold 22K value');
    expect(text).toContain('10.5 g net × ₹6,750/g');
    expect(text).toContain('₹70,875');
    expect(text).toContain('Making charge (12%)');
    expect(text).toContain('₹8,505');
    expect(text).toContain('₹1,500');
    expect(text).toContain('Subtotal');
    expect(text).toContain('₹80,880');
    expect(text).toContain('GST 3%');
    expect(text).toContain('₹2,426.40');
    expect(text).toContain('₹83,306.40');
    const hallmark = page.getByTestId('hallmark');
    expect(await hallmark.textContent()).toContain('AB12CD');
    expect(await hallmark.textContent()).toContain('BIS CARE');
    await expectAccessible(page, 'product with breakdown');
    await visitor.close();

    const tamil = await newContext(browser);
    await tamil.addInitScript(() => localStorage.setItem('nagai.language', 'ta'));
    const taPage = await tamil.newPage();
    await taPage.goto(path);
    const taBreakdown = taPage.getByTestId('price-breakdown');
    await taBreakdown.getByRole('heading', { name: 'விலை விவரம்' }).waitFor();
    const taText = (await taBreakdown.textContent())!;
    expect(taText).toContain('தங்கம் 22K மதிப்பு');
    expect(taText).toContain('செய்கூலி (12%)');
    expect(taText).toContain('ஜிஎஸ்டி 3%');
    expect(taText).toContain('₹83,306.40');
    expect(await taPage.getByTestId('hallmark').textContent()).toContain('AB12CD');
    await tamil.close();

    // A customer buys it: the order page shows the tax invoice, and its PDF downloads.
    const customer = await newContext(browser);
    // A new customer: the demo one's unpaid orders (other files check out too) stay out of it.
    await registerViaApi(customer);
    await post(customer, '/_api/cart/add', { productId: created.productId, quantity: 1 });
    const placed = (await post(
      customer,
      '/_api/checkout/create',
      {
        customerName: 'Priya Raman',
        customerPhone: '9840098400',
        shippingAddress: '21 Luz Church Road, Mylapore',
        city: 'Chennai',
        state: 'Tamil Nadu',
        pinCode: '600004',
        paymentMethod: 'cash_on_delivery',
      },
      { 'Idempotency-Key': crypto.randomUUID() },
    )) as { orders: { id: number }[] };
    const orderPage = await customer.newPage();
    await orderPage.goto(`/orders/${placed.orders[0].id}`);
    // Cash on delivery: no invoice number before the shop ships it (issue #40 item 6).
    await orderPage.getByTestId('gst-invoice-not-due').waitFor();
    expect(await orderPage.getByTestId('gst-invoice').count()).toBe(0);
    const shop = await newContext(browser);
    await signInViaApi(shop, DEMO_ACCOUNTS.seller);
    for (const status of ['confirmed', 'shipped'])
      await post(shop, '/_api/orders/update-status', { orderId: placed.orders[0].id, status });
    await shop.close();
    await orderPage.reload();
    await orderPage.getByTestId('gst-invoice').waitFor();
    // The gold line's HUID, and how the order is paid.
    expect(await orderPage.getByTestId('gst-line-huid').textContent()).toBe('HUID AB12CD');
    expect(await orderPage.getByTestId('gst-payment').textContent()).toBe(
      'Payment: Cash on delivery, due on delivery.',
    );
    expect(await orderPage.getByTestId('gst-invoice-number').textContent()).toMatch(
      /^Invoice No: [A-Z]{2,6}\/\d{4}-\d{2}\/\d{6}$/,
    );
    expect(await orderPage.getByTestId('gst-place').textContent()).toBe('Place of supply: Tamil Nadu (33)');
    await orderPage.getByTestId('gst-cgst').waitFor();
    await orderPage.getByTestId('gst-invoice').getByText('GSTIN: 33AABCL1234M1Z5').waitFor();
    const href = await orderPage.getByTestId('invoice-pdf').getAttribute('href');
    const pdf = await customer.request.get(href!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
    await customer.close();
  });
});

describe('every piece’s figures (issue #49)', () => {
  it('a fixed-price piece shows its price before GST and its GST on a phone, in English and Tamil', async () => {
    type Listed = PieceFigureInput & { id: number; name: string };
    const res = await fetch(`${baseUrl()}/_api/products/list?limit=100&page=1`);
    const listed = ((await res.json()) as { products: Listed[] }).products;
    const fixed = listed.find((p) => p.rateLinked === null);
    if (!fixed) throw new Error('the demo catalogue has no fixed-price piece');
    const f = pieceFigures(fixed);
    expect(f.kind).toBe('fixed');
    const money = (p: number) => formatInr(p / 100);
    for (const [language, gstLabel] of [
      ['en', 'GST 3%'],
      ['ta', 'ஜிஎஸ்டி 3%'],
    ] as const) {
      const context = await phoneIn(browser, language);
      const page = await context.newPage();
      await page.goto(productPath(fixed));
      const breakdown = page.getByTestId('price-breakdown');
      await breakdown.waitFor();
      await expect(
        breakdown.getByTestId('price-breakdown-subtotal').locator('dd').textContent(),
      ).resolves.toBe(money(f.beforeGst));
      const gst = breakdown.getByTestId('price-breakdown-gst');
      await expect(gst.locator('dd').textContent()).resolves.toBe(money(f.gst));
      // In the reader's language once the page's strings are in (the breakdown's area loads with the page).
      await expect.poll(() => gst.locator('dt').textContent()).toBe(gstLabel);
      await expect(breakdown.textContent()).resolves.toContain(money(f.total));
      // No "Stones ₹0" row.
      await expect(breakdown.getByTestId('price-breakdown-stones').count()).resolves.toBe(
        f.stones > 0 ? 1 : 0,
      );
      await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(
        360,
      );
      await expectAccessible(page, `fixed-price piece's breakdown (${language}, 360)`);
      await context.close();
    }
  });
});
