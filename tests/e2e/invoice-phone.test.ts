import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, registerViaApi, signInViaApi } from './support/accounts';
import { baseUrl, expectAccessible, launchBrowser, phoneIn } from './support/browser';

/**
 * The invoice's tables on a 360 px phone, in English and in Tamil (issue #40 item 7): the order's lines and the
 * GST tax invoice's lines are stacked, one value under another with its column's name, so nothing is wider than
 * the screen, nothing scrolls out of sight and no text is cut off mid-word. The tax invoice shows each gold
 * line's HUID and how the order is paid (item 6).
 */

const WIDTH = 360;
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const phone = (language: 'en' | 'ta') => phoneIn(browser, language);

interface Listed {
  id: number;
  name: string;
  price: string;
  stockQuantity: number | null;
  huid: string | null;
}

/** A new customer's cash-on-delivery order of two gold pieces of the demo shop, shipped (so invoiced). */
async function shippedOrder(context: BrowserContext): Promise<{ orderId: number; huid: string }> {
  await registerViaApi(context, { displayName: 'Thenmozhi Kalyanasundaram' });
  const origin = { Origin: baseUrl() };
  const store = (await (
    await context.request.get('/_api/seller/store?slug=lakshmi-jewellers&page=1&limit=100')
  ).json()) as { productsData: { products: Listed[] } };
  const gold = store.productsData.products
    .filter((p) => p.huid && (p.stockQuantity === null || p.stockQuantity >= 3) && Number(p.price) < 90_000)
    .sort((a, b) => b.name.length - a.name.length);
  expect(gold.length).toBeGreaterThanOrEqual(2);
  for (const p of gold.slice(0, 2)) {
    const res = await context.request.post('/_api/cart/add', {
      data: { productId: p.id, quantity: 1 },
      headers: origin,
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  const res = await context.request.post('/_api/checkout/create', {
    data: {
      customerName: 'Thenmozhi Kalyanasundaram',
      customerPhone: '+91 98765 43210',
      shippingAddress: '14 Kamarajar Salai, Thiruvanmiyur, near the Marundeeswarar temple',
      city: 'Chennai',
      state: 'Tamil Nadu',
      pinCode: '600041',
      paymentMethod: 'cash_on_delivery',
    },
    headers: { ...origin, 'Idempotency-Key': `invoice-phone-${Date.now()}-${Math.random()}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  const orderId = ((await res.json()) as { orders: { id: number }[] }).orders[0].id;
  const seller = await browser.newContext({ baseURL: baseUrl() });
  await signInViaApi(seller, DEMO_ACCOUNTS.seller);
  for (const status of ['confirmed', 'shipped']) {
    const moved = await seller.request.post('/_api/orders/update-status', {
      data: { orderId, status },
      headers: origin,
    });
    expect(moved.status(), await moved.text()).toBe(200);
  }
  await seller.close();
  return { orderId, huid: gold[0].huid! };
}

/**
 * What of the invoice's tables does not fit: a table region that scrolls sideways or reaches past the screen,
 * a cell wider than the screen or whose text is clipped (its content wider than its box). Empty when all fits.
 */
function tableProblems(page: Page): Promise<string[]> {
  return page.evaluate((width) => {
    const problems: string[] = [];
    for (const id of ['invoice-items', 'gst-invoice-items']) {
      const region = document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
      if (!region) {
        problems.push(`${id} is missing`);
        continue;
      }
      if (region.scrollWidth > region.clientWidth + 1)
        problems.push(`${id} scrolls sideways (${region.scrollWidth}px in ${region.clientWidth}px)`);
      // The column heads are kept for screen readers only (visually hidden), the lines' cells are seen.
      for (const cell of region.querySelectorAll<HTMLElement>('tbody th, tbody td')) {
        const r = cell.getBoundingClientRect();
        const text = (cell.textContent ?? '').trim();
        if (r.left < -0.5 || r.right > width + 0.5)
          problems.push(`"${text}" spans ${Math.round(r.left)}..${Math.round(r.right)}px`);
        if (cell.scrollWidth > cell.clientWidth + 1)
          problems.push(`"${text}" is cut off (${cell.scrollWidth}px in ${cell.clientWidth}px)`);
      }
    }
    if (document.documentElement.scrollWidth > width)
      problems.push(`the page is ${document.documentElement.scrollWidth}px wide`);
    return problems;
  }, WIDTH);
}

describe('the invoice on a 360 px phone', () => {
  for (const language of ['en', 'ta'] as const) {
    it(`stacks the order's and the tax invoice's lines so all of them fit (${language})`, async () => {
      const context = await phone(language);
      const { orderId, huid } = await shippedOrder(context);
      const page = await context.newPage();
      await page.goto(`/orders/${orderId}`);
      await page.getByTestId('gst-invoice').waitFor();
      await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');
      if (language === 'ta') await page.waitForFunction(() => document.documentElement.lang === 'ta');
      await expect.poll(() => page.getByTestId('gst-line').count()).toBe(2);
      expect(await tableProblems(page)).toEqual([]);
      // Each value keeps its column's name beside it.
      const labels = await page
        .getByTestId('gst-line')
        .first()
        .locator('td')
        .evaluateAll((cells) => cells.map((c) => getComputedStyle(c, '::before').content));
      expect(labels.every((l) => l !== 'none' && l.length > 2)).toBe(true);
      // The HUID of each gold line, and how the order is paid.
      await page.getByTestId('gst-line-huid').filter({ hasText: huid }).first().waitFor();
      const payment = await page.getByTestId('gst-payment').textContent();
      expect(payment).toMatch(
        language === 'en' ? /^Payment: Cash on delivery, due on delivery\.$/ : /டெலிவரியின்போது/,
      );
      // The amount in words in the page's language, and the PDF in it too (issue #49).
      const words = await page.getByTestId('gst-in-words').textContent();
      expect(words).toMatch(
        language === 'en'
          ? /^Amount in words: Rupees [A-Za-z ]+ Only$/
          : /^தொகை எழுத்தில்: ரூபாய் [\u0B80-\u0BFF ]+ மட்டும்$/,
      );
      const pdf = await page.getByTestId('invoice-pdf').getAttribute('href');
      expect(pdf?.endsWith('&lang=ta')).toBe(language === 'ta');
      await expectAccessible(page, `/orders/${orderId} at 360 px (${language})`);
      await context.close();
    });
  }
});
