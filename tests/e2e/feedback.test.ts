import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, signInViaApi } from './support/accounts';
import { expectStill, launchBrowser, newContext } from './support/browser';

const STORE = 'lakshmi-jewellers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser([], { serviceWorkers: 'allow' });
});
afterAll(async () => browser?.close());

const toasts = (page: Page) => page.locator('[data-sonner-toast]');
const visibleToasts = (page: Page) => page.locator('[data-sonner-toast][data-visible="true"]');

async function openProduct(page: Page) {
  const store = (await (await page.request.get(`/_api/seller/store?slug=${STORE}`)).json()) as {
    productsData: { products: { id: number; name: string; stockQuantity: number | null }[] };
  };
  const product = store.productsData.products.find((p) => p.stockQuantity === null || p.stockQuantity > 0)!;
  await page.goto(`/${STORE}?product=${product.id}`);
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('heading', { name: product.name }).waitFor();
  return dialog.getByRole('button', { name: 'Add to Cart' });
}

describe('feedback that behaves', () => {
  it('shows the same toast once, and never more than three toasts at a time', async () => {
    const context = await newContext(browser, { mobile: true });
    await signInViaApi(context, DEMO_ACCOUNTS.customer);
    const page = await context.newPage();
    // The demo customer's cart stays as it is: the adds are answered here.
    let calls = 0;
    await page.route('**/_api/cart/add', (route) => {
      calls += 1;
      return calls <= 5
        ? route.fulfill({ status: 200, json: { success: true, cartItemId: 1, quantity: calls } })
        : route.fulfill({ status: 409, json: { error: `Only ${calls} left, try ${calls}.`, code: 'e2e' } });
    });
    const add = await openProduct(page);

    // Five adds that succeed the same way: one 'Item added to cart!' toast, not five.
    for (let i = 0; i < 5; i++) {
      await add.click();
      await expect.poll(() => calls).toBe(i + 1);
      await page.getByText('Item added to cart!').first().waitFor();
    }
    await expectStill(
      () => toasts(page).filter({ hasText: 'Item added to cart!' }).count(),
      1,
      500,
      'one toast for five adds',
    );

    // Five different failures: at most three toasts are shown at once.
    for (let i = 0; i < 5; i++) {
      await add.click();
      // The message names the count the answer was made with: wait for this add's request first.
      await expect.poll(() => calls).toBe(6 + i);
      await page.getByText(`Failed to add item: Only ${calls} left, try ${calls}.`).waitFor();
      expect(await visibleToasts(page).count()).toBeLessThanOrEqual(3);
    }
    expect(await toasts(page).count()).toBeGreaterThan(3);
    expect(await visibleToasts(page).count()).toBe(3);
    await context.close();
  });

  it('clears an error shown offline and loads the data when the network comes back', async () => {
    const context = await newContext(browser, { mobile: true });
    await signInViaApi(context, DEMO_ACCOUNTS.customer);
    const page = await context.newPage();
    await page.goto('/orders');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByTestId('order-total').first().waitFor();

    // Offline, a list not loaded before fails: the page says so.
    await context.setOffline(true);
    await page.getByRole('link', { name: 'Completed', exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get('status') === 'completed');
    const error = page.getByText('Error Fetching Orders');
    await error.waitFor();

    // Back online, nobody taps anything: the error goes and the list loads.
    await context.setOffline(false);
    await error.waitFor({ state: 'detached', timeout: 20_000 });
    await page
      .getByTestId('order-total')
      .or(page.getByText('There are no orders matching the current filters.'))
      .first()
      .waitFor();
    await context.close();
  });
});
