import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productPath } from '../../api/contract/catalog';
import { DEMO_ACCOUNTS, registerViaApi, signInViaApi } from './support/accounts';
import { baseUrl, expectAccessible, expectStill, launchBrowser, phoneIn } from './support/browser';

/**
 * No page scrolls sideways on a 360 × 640 phone, in English or in Tamil (docs/product-rules.md): every page a
 * customer, a seller or an admin opens, the product dialog and the cart panel. A failure names the elements that
 * stick out, the widest first. Every /seller/* page is walked too (issue #48): no sideways scroll, every control
 * within the screen's width and not covered, axe on each.
 */

const WIDTH = 360;
const STORE = 'lakshmi-jewellers';
const LANGUAGES = ['en', 'ta'] as const;
type Language = (typeof LANGUAGES)[number];

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

const phone = (language: 'en' | 'ta') => phoneIn(browser, language);

/**
 * What sticks out of a 360 px screen: the page wider than the screen, or an open dialog wider than the screen or
 * scrolling sideways. Null when all fits; otherwise the widths and the outermost-but-smallest elements that
 * stick out (those with no sticking-out child), the farthest right first.
 */
function overflowReport(page: Page): Promise<string | null> {
  return page.evaluate((width) => {
    const problems: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > width) problems.push(`the page is ${doc.scrollWidth}px wide`);
    const dialogs = [...document.querySelectorAll<HTMLElement>('[role="dialog"], [role="alertdialog"]')];
    for (const d of dialogs) {
      const r = d.getBoundingClientRect();
      if (r.right > width + 0.5 || r.left < -0.5)
        problems.push(`a dialog spans ${Math.round(r.left)}..${Math.round(r.right)}px`);
      if (d.scrollWidth > d.clientWidth + 1)
        problems.push(`a dialog scrolls sideways (${d.scrollWidth}px in ${d.clientWidth}px)`);
    }
    if (problems.length === 0) return null;

    // The element that clips `el` sideways (a carousel, a scroll box), when it is not a dialog or the page.
    const clippedInside = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (a.matches('[role="dialog"], [role="alertdialog"]')) return false;
        if (getComputedStyle(a).overflowX !== 'visible') return true;
      }
      return false;
    };
    // Visually hidden text (sr-only) is clipped to nothing: it shows nowhere, whatever its box.
    const hidden = (el: Element) => {
      const style = getComputedStyle(el);
      return style.clipPath.startsWith('inset(50%') || style.clip === 'rect(0px, 0px, 0px, 0px)';
    };
    const out = [...document.body.querySelectorAll('*')].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && (r.right > width + 0.5 || r.left < -0.5) && !hidden(el) && !clippedInside(el);
    });
    const outSet = new Set(out);
    const innermost = out.filter((el) => ![...el.querySelectorAll('*')].some((c) => outSet.has(c)));
    const describe = (el: Element) => {
      const r = el.getBoundingClientRect();
      const cls = typeof el.className === 'string' ? el.className.split(/\s+/).slice(0, 6).join('.') : '';
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 50);
      return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${cls ? `.${cls}` : ''}> ${Math.round(r.left)}..${Math.round(r.right)}px "${text}"`;
    };
    const culprits = innermost
      .sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right)
      .slice(0, 4)
      .map(describe);
    return `${problems.join('; ')}. Sticking out: ${culprits.join(' | ') || '(nothing measurable)'}`;
  }, WIDTH);
}

/** Waits for the page's content, lets late layout (fonts, images) settle, and fails on sideways overflow. */
async function expectFits(page: Page, label: string, ready: Locator) {
  await ready.first().waitFor({ timeout: 40_000 });
  await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(250);
  expect(await overflowReport(page), label).toBeNull();
}

async function visit(page: Page, language: Language, path: string, ready: (page: Page) => Locator) {
  await page.goto(path);
  if (language === 'ta' && !/^\/(seller|admin)\//.test(path))
    await page.waitForFunction(() => document.documentElement.lang === 'ta');
  await expectFits(page, `${path} (${language})`, ready(page));
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const cards = (page: Page) => page.locator('main article');

interface ListedProduct {
  id: number;
  stockQuantity: number | null;
}

/** A new customer with one order (for the orders page and its invoice) and one piece in the cart. */
async function customerWithOrderAndCart(context: BrowserContext): Promise<number> {
  await registerViaApi(context, { displayName: 'Thenmozhi Kalyanasundaram' });
  // Long prices, yet two of them stay under ₹2,00,000 a shop: cash on delivery stops there (product rules §14).
  const list = (await (
    await context.request.get('/_api/products/list?page=1&limit=100&sortBy=price-desc&maxPrice=99999')
  ).json()) as { products: ListedProduct[] };
  const plenty = list.products.filter((p) => p.stockQuantity === null || p.stockQuantity >= 5);
  const origin = { Origin: baseUrl() };
  const add = async (productId: number) => {
    const res = await context.request.post('/_api/cart/add', {
      data: { productId, quantity: 1 },
      headers: origin,
    });
    expect(res.status(), await res.text()).toBe(200);
  };
  await add(plenty[0].id);
  await add(plenty[1].id);
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
    headers: { ...origin, 'Idempotency-Key': `layout-${Date.now()}-${Math.random()}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  const orderId = ((await res.json()) as { orders: { id: number }[] }).orders[0].id;
  await add(plenty[2].id);
  return orderId;
}

describe('360 px phones, in English and Tamil', () => {
  for (const language of LANGUAGES) {
    it(`the public pages fit (${language})`, async () => {
      const context = await phone(language);
      const page = await context.newPage();
      await visit(page, language, '/', (p) =>
        p.locator('section[aria-labelledby="top-sellers-heading"] article'),
      );
      await visit(page, language, '/marketplace', (p) => p.locator('main article h3'));
      const products = (await (await page.request.get('/_api/products/list?page=1&limit=1')).json()) as {
        products: { id: number; name: string }[];
      };
      await visit(page, language, `/marketplace?product=${products.products[0].id}`, (p) =>
        p.getByRole('dialog').getByRole('heading'),
      );
      // The product's own page, as a shared link opens it.
      await visit(page, language, productPath(products.products[0]), (p) =>
        p.getByRole('heading', { level: 1 }),
      );
      // A shop nobody can ring now (issue #40): its product page says why and offers a call-back instead.
      const unreachable = (await (
        await page.request.get('/_api/seller/store?slug=sri-meenakshi-thanga-maaligai')
      ).json()) as { productsData: { products: { id: number; name: string }[] } };
      await visit(page, language, productPath(unreachable.productsData.products[0]), (p) =>
        p.getByTestId('no-call-reason'),
      );
      await visit(page, language, '/sellers', cards);
      await visit(page, language, `/${STORE}`, (p) => p.locator('main article h3'));
      await context.close();
    });

    it(`a customer's cart, checkout, orders and invoice fit (${language})`, async () => {
      const context = await phone(language);
      const orderId = await customerWithOrderAndCart(context);
      const page = await context.newPage();
      await visit(page, language, '/orders', (p) => p.getByTestId('order-total'));
      await visit(page, language, `/orders/${orderId}`, (p) => p.getByTestId('invoice-total'));
      await visit(page, language, '/checkout', (p) => p.getByTestId('summary-shop'));
      // The profile's mobile number and updates by SMS or WhatsApp (issue #37).
      await visit(page, language, '/account/mobile', heading);
      // The cart panel, from the header.
      await page
        .locator('header')
        .getByRole('button', { name: /^Shopping cart|^வாங்கும் கூடை/ })
        .click();
      await expectFits(page, `cart panel (${language})`, page.getByRole('dialog').getByTestId('cart-line'));
      await context.close();
    });

    it(`a seller's and an admin's pages fit (${language})`, async () => {
      const seller = await phone(language);
      await signInViaApi(seller, DEMO_ACCOUNTS.seller);
      const page = await seller.newPage();
      await visit(page, language, '/seller/dashboard', heading);
      await visit(page, language, '/seller/products', (p) => p.locator('main table tbody tr, main ul li'));
      await visit(page, language, '/seller/orders', heading);
      await visit(page, language, '/seller/profile', heading);
      await seller.close();

      const admin = await phone(language);
      await signInViaApi(admin, DEMO_ACCOUNTS.admin);
      const adminPage = await admin.newPage();
      await visit(adminPage, language, '/admin/dashboard', heading);
      await visit(adminPage, language, '/admin/sellers', heading);
      await admin.close();
    });
  }
});

/**
 * The controls of the page a thumb cannot reach (issue #48): each visible link, button, field and switch is
 * scrolled to the middle of the screen, then must lie within the screen's width and be what a tap at its centre
 * hits (nothing fixed or floating over it). Null when all are in reach; otherwise the first few that are not.
 */
function outOfReachReport(page: Page): Promise<string | null> {
  return page.evaluate((width) => {
    const controls = [
      ...document.querySelectorAll<HTMLElement>(
        'a[href], button, input:not([type="hidden"]), select, textarea, [role="button"], [role="switch"], [role="link"]',
      ),
    ];
    const hidden = (el: Element) => {
      const style = getComputedStyle(el);
      return (
        style.visibility === 'hidden' ||
        style.clipPath.startsWith('inset(50%') ||
        style.clip === 'rect(0px, 0px, 0px, 0px)' ||
        Number(style.opacity) === 0
      );
    };
    const describe = (el: Element, why: string) => {
      const r = el.getBoundingClientRect();
      const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim();
      return `<${el.tagName.toLowerCase()}> "${name.slice(0, 40)}" ${why} (${Math.round(r.left)}..${Math.round(r.right)}px)`;
    };
    const problems: string[] = [];
    for (const el of controls) {
      const first = el.getBoundingClientRect();
      if (
        first.width === 0 ||
        first.height === 0 ||
        hidden(el) ||
        el.closest('[aria-hidden="true"], [inert]')
      )
        continue;
      el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
      const r = el.getBoundingClientRect();
      if (r.left < -0.5 || r.right > width + 0.5) {
        problems.push(describe(el, 'sticks out of the screen'));
        continue;
      }
      const x = Math.min(Math.max(r.left + r.width / 2, 0), width - 1);
      const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
      const hit = document.elementFromPoint(x, y);
      // A label over its own field (a styled file or check input) counts as the field.
      const ownLabel = hit?.closest('label');
      const reachable =
        hit !== null &&
        (el.contains(hit) ||
          hit.contains(el) ||
          (ownLabel !== null &&
            ownLabel !== undefined &&
            (ownLabel.control === el || ownLabel.contains(el))));
      if (!reachable)
        problems.push(describe(el, `is covered by <${hit?.tagName.toLowerCase() ?? 'nothing'}>`));
    }
    scrollTo(0, 0);
    return problems.length ? problems.slice(0, 6).join(' | ') : null;
  }, WIDTH);
}

/** A /seller/* page on a 360 px phone: it fits, every control is in reach, and axe finds nothing serious. */
async function walk(page: Page, language: Language, path: string, ready: Locator) {
  const label = `${path} (${language})`;
  await expectFits(page, label, ready);
  expect(await outOfReachReport(page), label).toBeNull();
  await expectAccessible(page, label);
}

describe('every /seller/* page on a 360 × 640 phone (issue #48)', () => {
  // The walk opens one call's page from the jeweller's history: the demo customer rings Lakshmi Jewellers (rung
  // by push on these servers) and hangs up, through the API, so the history has a call whichever files ran first.
  beforeAll(async () => {
    const customer = await browser.newContext({ baseURL: baseUrl() });
    try {
      await signInViaApi(customer, DEMO_ACCOUNTS.customer);
      const list = await customer.request.get('/_api/sellers/list?searchQuery=Lakshmi');
      const sellerId = (
        (await list.json()) as { sellers: { sellerId: number; shopName: string }[] }
      ).sellers.find((x) => x.shopName === 'Lakshmi Jewellers')!.sellerId;
      const headers = { Origin: baseUrl() };
      const rung = await customer.request.post('/_api/call/initiate', { data: { sellerId }, headers });
      expect(rung.status(), await rung.text()).toBe(201);
      const { callId } = (await rung.json()) as { callId: number };
      const ended = await customer.request.post('/_api/call/end', { data: { callId }, headers });
      expect(ended.status(), await ended.text()).toBe(200);
    } finally {
      await customer.close();
    }
  });

  for (const language of LANGUAGES) {
    it(`no sideways scroll, every control in reach, axe clean (${language})`, async () => {
      const context = await phone(language);
      const page = await context.newPage();
      // Signed out, the jeweller's own sign-in page.
      await page.goto('/seller/login');
      await walk(page, language, '/seller/login', page.locator('main form'));

      await signInViaApi(context, DEMO_ACCOUNTS.seller);
      await page.goto('/seller/dashboard');
      await walk(page, language, '/seller/dashboard', heading(page));

      // The products as cards: name, price, stock, and Edit and Delete in reach; no table on a phone.
      await page.goto('/seller/products');
      const card = page.getByTestId('product-card');
      await walk(page, language, '/seller/products', card);
      expect(await page.locator('main table').isVisible()).toBe(false);
      const first = card.first();
      expect(await first.getByTestId('product-card-price').textContent()).toMatch(/₹/);
      const name = (await first.getByRole('heading', { level: 2 }).textContent())!;
      const edit = first.getByRole('button', { name: `Edit ${name}` });
      const remove = first.getByRole('button', { name: `Delete ${name}` });
      for (const button of [edit, remove]) {
        const box = (await button.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
      }

      // The product form: categories and materials by their names; rate-linked asks purity, weight and the
      // making charge once.
      await page.getByRole('button', { name: 'Add New Product' }).click();
      const sheet = page.getByRole('dialog');
      await sheet.locator('select[name="category"]').waitFor();
      const optionTexts = (name: string) =>
        sheet.locator(`select[name="${name}"] option`).evaluateAll((os) => os.map((o) => o.textContent));
      const categories = await optionTexts('category');
      const materials = await optionTexts('material');
      // The seller's screens are in English (product rules §1), whatever language the phone reads.
      expect(categories).toContain('Bridal sets');
      expect(materials).toContain('Temple jewellery');
      expect(categories.join(' ')).not.toMatch(/_|bridal sets|temple jewelry/);
      await sheet.locator('select[name="pricingMode"]').selectOption('rate');
      await sheet.locator('select[name="metalPurity"]').waitFor();
      for (const [field, count] of [
        ['purity', 0],
        ['metalPurity', 1],
        ['weight', 1],
        ['netWeight', 1],
        ['makingCharges', 0],
        ['makingValue', 1],
        ['gstAmount', 0],
        ['price', 0],
      ] as const)
        expect(await sheet.locator(`[name="${field}"]`).count(), field).toBe(count);
      await expectFits(page, `product form, rate-linked (${language})`, sheet.locator('[name="netWeight"]'));
      await expectAccessible(page, `product form, rate-linked (${language})`);
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });

      await page.goto('/seller/orders');
      await walk(page, language, '/seller/orders', heading(page));

      // Video hours: each day open all day, set hours or closed; the time zone from a list, India first.
      await page.goto('/seller/profile');
      const hours = page.getByTestId('shop-hours');
      await walk(page, language, '/seller/profile', hours.getByTestId('hours-day'));
      const zone = hours.locator('select').first();
      expect(await zone.evaluate((s: HTMLSelectElement) => s.options[0].value)).toBe('Asia/Kolkata');
      expect(await zone.locator('option').count()).toBeGreaterThan(100);
      expect(await hours.locator('input[list]').count()).toBe(0);
      const monday = hours.getByTestId('hours-day').first().locator('select');
      expect(
        await monday.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
      ).toEqual(['allDay', 'hours', 'closed']);
      await monday.selectOption('closed');
      expect(await hours.getByTestId('hours-day').first().locator('input[type="time"]').count()).toBe(0);
      await monday.selectOption('hours');
      expect(await hours.getByTestId('hours-day').first().locator('input[type="time"]').count()).toBe(2);
      await monday.selectOption('allDay');
      expect(await hours.getByTestId('hours-day').first().locator('input[type="time"]').count()).toBe(0);

      await page.goto('/seller/history');
      await walk(page, language, '/seller/history', heading(page));
      const call = page.locator('main a[href^="/seller/history/"]').first();
      await call.waitFor();
      const callPath = (await call.getAttribute('href'))!;
      await page.goto(callPath);
      await walk(page, language, callPath, heading(page));

      // A seller who has a shop: the set-up and register pages say where to go instead.
      await page.goto('/seller/profile/setup');
      await walk(page, language, '/seller/profile/setup', heading(page));
      await page.goto('/seller/register');
      await walk(page, language, '/seller/register', heading(page));
      await context.close();
    });
  }

  it('the call notifications prompt sits in the page flow and "Not now" holds on this device', async () => {
    const context = await phone('en');
    await signInViaApi(context, DEMO_ACCOUNTS.seller);
    const page = await context.newPage();
    await page.goto('/seller/dashboard');
    const prompt = page.getByTestId('notifications-prompt');
    await prompt.waitFor();
    // In the flow under the header: nothing fixed, and the page's heading comes below it.
    expect(await prompt.evaluate((el) => getComputedStyle(el).position)).toBe('static');
    const promptBox = (await prompt.boundingBox())!;
    await heading(page).waitFor();
    expect((await heading(page).boundingBox())!.y).toBeGreaterThanOrEqual(promptBox.y + promptBox.height);
    await walk(page, 'en', '/seller/dashboard (notifications prompt)', prompt);
    await prompt.getByRole('button', { name: 'Not now' }).click();
    await prompt.waitFor({ state: 'detached' });
    // Dismissed for this device: another page and a new visit do not ask again.
    await page.goto('/seller/products');
    await page.getByTestId('product-card').first().waitFor();
    await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');
    await expectStill(() => prompt.count(), 0, 1500, 'the notifications prompt after Not now');
    await context.close();
  });
});
