import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productPath } from '../../api/contract/catalog';
import { hoursAt } from '../../api/src/features/schedule/hours';
import en from '../../locales/en.json';
import ta from '../../locales/ta.json';
import { registerViaApi } from './support/accounts';
import { baseUrl, expectAccessible, launchBrowser, phoneIn } from './support/browser';

/**
 * No dead ends (issue #40, item 9), on a 360×640 phone in English and Tamil. Sri Meenakshi's jeweller has no app
 * open and no device that takes push: its product page has no call button, says why, and offers "Request a
 * call-back" and "Book a video appointment" instead of 30 s of ringing to nobody. Swarnam (video hours on Sunday
 * mornings only) is closed the rest of the week: its product page says when it opens, in the shop's time zone.
 */
const UNREACHABLE = 'sri-meenakshi-thanga-maaligai';
const SWARNAM = 'swarnam-kochi';
const SWARNAM_HOURS = [{ day: 7 as const, from: '10:00', to: '13:00' }];
const LANGUAGES = { en, ta } as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

async function phone(language: keyof typeof LANGUAGES): Promise<{ context: BrowserContext; page: Page }> {
  const context = await phoneIn(browser, language);
  return { context, page: await context.newPage() };
}

async function firstProductOf(page: Page, slug: string) {
  const res = await page.request.get(`/_api/seller/store?slug=${slug}`);
  const body = (await res.json()) as {
    productsData: { products: { id: number; name: string; callState: { state: string } }[] };
  };
  return body.productsData.products[0]!;
}

/** The control lies wholly inside the 360×640 screen once scrolled to, and nothing scrolls sideways. */
async function reachable(page: Page, name: string) {
  const button = page.getByRole('button', { name, exact: true });
  await button.scrollIntoViewIfNeeded();
  const box = (await button.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

describe('a shop whose jeweller cannot be reached', () => {
  for (const language of ['en', 'ta'] as const) {
    it(`offers a call-back and an appointment, not a ring, on the product page (${language})`, async () => {
      const L = LANGUAGES[language];
      const { context, page } = await phone(language);
      await registerViaApi(context);
      const product = await firstProductOf(page, UNREACHABLE);
      expect(product.callState.state).toBe('unreachable');
      await page.goto(productPath(product));
      await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');

      const fallback = page.getByTestId('call-fallback');
      await fallback.waitFor();
      expect(await fallback.getAttribute('data-state')).toBe('unreachable');
      const reason = page.getByTestId('no-call-reason');
      expect(await reason.textContent()).toContain(L.calls.appointments.noCall.unreachable);
      expect(await reason.textContent()).toContain(L.calls.appointments.noCall.hint);
      // No call button: nothing would ring.
      expect(await page.getByRole('button', { name: L.calls.button.askAbout }).count()).toBe(0);
      await page.getByRole('button', { name: L.calls.appointments.book }).waitFor();
      await reachable(page, L.calls.schedule.callback.request);
      await reachable(page, L.calls.appointments.book);
      await expectAccessible(page, `unreachable shop's product page (${language})`);

      await page.getByRole('button', { name: L.calls.schedule.callback.request, exact: true }).click();
      const shop = 'Sri Meenakshi Thanga Maaligai';
      await page.getByText(L.calls.schedule.callback.requested.replace('{shop}', shop)).waitFor();
      const mine = (await (await page.request.get('/_api/callbacks/mine')).json()) as {
        requests: { status: string; shop: { shopName: string }; product: { id: number } | null }[];
      };
      expect(mine.requests.filter((r) => r.status === 'open' && r.shop.shopName === shop)).toHaveLength(1);
      // Nothing rang: the customer made no call.
      const history = (await (await page.request.get('/_api/calls/history')).json()) as { calls: unknown[] };
      expect(history.calls).toEqual([]);
      await context.close();
    });
  }

  it('the API refuses to ring it, and the app says why in the reader’s language', async () => {
    const { context, page } = await phone('ta');
    await registerViaApi(context);
    const product = await firstProductOf(page, UNREACHABLE);
    const sellerId = (
      (await (await page.request.get(`/_api/seller/store?slug=${UNREACHABLE}`)).json()) as {
        sellerProfile: { sellerId: number };
      }
    ).sellerProfile.sellerId;
    // A page opened before the jeweller's app closed still links to the call page: the refusal is explained.
    await page.goto(`/call/${sellerId}?product=${product.id}`);
    const res = await page.request.post('/_api/call/initiate', {
      data: { sellerId, productId: product.id },
      headers: { Origin: baseUrl() },
    });
    expect(res.status()).toBe(409);
    expect(await res.json()).toMatchObject({
      code: 'seller_unreachable',
      error: en.messages.schedule.unreachable,
    });
    // The call page sends the customer to the storefront, which offers the call-back (in Tamil).
    await page.waitForURL((u) => u.pathname === `/${UNREACHABLE}`);
    await page.getByRole('button', { name: ta.calls.schedule.callback.request, exact: true }).waitFor();
    await context.close();
  });
});

describe('a closed shop', () => {
  for (const language of ['en', 'ta'] as const) {
    it(`says on the product page when it opens, in the shop's time zone (${language})`, async () => {
      const L = LANGUAGES[language];
      const { context, page } = await phone(language);
      await registerViaApi(context);
      const product = await firstProductOf(page, SWARNAM);
      const open = hoursAt(SWARNAM_HOURS, 'Asia/Kolkata', new Date()).open;
      await page.goto(productPath(product));
      await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');
      const fallback = page.getByTestId('call-fallback');
      await fallback.waitFor();
      const reason = page.getByTestId('no-call-reason');
      if (open) {
        // Sunday morning: in hours, but nobody's app is open.
        expect(await fallback.getAttribute('data-state')).toBe('unreachable');
      } else {
        expect(await fallback.getAttribute('data-state')).toBe('closed');
        // Sunday 10:00 in Kolkata, the shop's zone, whatever the viewer's: "Opens Sunday 10:00" (or "Back at
        // 10:00" on a Sunday before it).
        const sunday = new Intl.DateTimeFormat(language === 'ta' ? 'ta-IN' : 'en-IN', {
          weekday: 'long',
          timeZone: 'Asia/Kolkata',
        }).format(new Date('2026-03-08T06:00:00Z'));
        const today = new Intl.DateTimeFormat('en-CA', { weekday: 'short', timeZone: 'Asia/Kolkata' }).format(
          new Date(),
        );
        // 10:00 on the locale's own clock ("10:00 am", "முற்பகல் 10:00"), as every time on the screen.
        const ten = new Intl.DateTimeFormat(language === 'ta' ? 'ta-IN' : 'en-IN', {
          hour: 'numeric',
          minute: '2-digit',
          timeZone: 'Asia/Kolkata',
        }).format(new Date('2026-03-08T04:30:00Z'));
        const expected =
          today === 'Sun'
            ? L.calls.schedule.state.backAt.replace('{time}', ten)
            : L.calls.schedule.state.opens.replace('{day}', sunday).replace('{time}', ten);
        await expect.poll(() => reason.textContent(), { timeout: 10_000 }).toContain(expected);
      }
      expect(await reason.textContent()).toContain(L.calls.appointments.noCall.hint);
      expect(await page.getByRole('button', { name: L.calls.button.askAbout }).count()).toBe(0);
      await reachable(page, L.calls.schedule.callback.request);
      await reachable(page, L.calls.appointments.book);
      await expectAccessible(page, `closed shop's product page (${language})`);
      await context.close();
    });
  }
});

describe('an away shop', () => {
  it('says why on the product page and takes the call-back request its message promises (ta)', async () => {
    const { context, page } = await phone('ta');
    await registerViaApi(context);
    const product = await firstProductOf(page, 'mysuru-aabharana-mane');
    expect(product.callState.state).toBe('away');
    const message = (product.callState as unknown as { message: string }).message;
    expect(message).toMatch(/call-back request/);
    await page.goto(productPath(product));
    await page.waitForFunction(() => document.documentElement.dataset.appReady === 'true');
    const fallback = page.getByTestId('call-fallback');
    await fallback.waitFor();
    expect(await fallback.getAttribute('data-state')).toBe('away');
    expect(await page.getByTestId('no-call-reason').textContent()).toContain(
      ta.calls.schedule.state.awayWith.replace('{message}', message),
    );
    expect(await page.getByRole('button', { name: ta.calls.button.askAbout }).count()).toBe(0);
    await reachable(page, ta.calls.schedule.callback.request);
    await page.getByRole('button', { name: ta.calls.schedule.callback.request, exact: true }).click();
    await page
      .getByText(ta.calls.schedule.callback.requested.replace('{shop}', 'Mysuru Aabharana Mane'))
      .waitFor();
    const mine = (await (await page.request.get('/_api/callbacks/mine')).json()) as {
      requests: { status: string; shop: { shopName: string }; product: { id: number } | null }[];
    };
    expect(mine.requests).toMatchObject([
      { status: 'open', shop: { shopName: 'Mysuru Aabharana Mane' }, product: { id: product.id } },
    ]);
    await context.close();
  });
});
