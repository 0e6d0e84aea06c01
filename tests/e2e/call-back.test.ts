import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, registerViaApi, signInViaApi } from './support/accounts';
import { expectAccessible, launchBrowser, newContext } from './support/browser';
import { remoteVideoPlays } from './support/call-phones';

/**
 * Issue #22 on two browsers: the jeweller declines a call, the customer taps "Request a call-back", the
 * request reaches the jeweller's dashboard queue, and "Call back" rings the customer's open app; the customer
 * accepts and both see the other's video (the jeweller, who rang, offers; the customer answers).
 */
const STORE = '/lakshmi-jewellers';
const SHOP = 'Lakshmi Jewellers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

async function mediaContext(): Promise<BrowserContext> {
  const context = await newContext(browser);
  await context.grantPermissions(['camera', 'microphone']);
  return context;
}

describe('call-back (issue #22)', () => {
  it('declined call → "Request a call-back" → the jeweller\'s "Call back" rings the customer → video', async () => {
    const seller = await mediaContext();
    await signInViaApi(seller, DEMO_ACCOUNTS.seller);
    const sellerPage = await seller.newPage();
    await sellerPage.goto('/seller/dashboard');
    const queue = sellerPage.getByTestId('callback-queue');
    await queue.waitFor();

    const customer = await mediaContext();
    const name = `Anitha ${Math.random().toString(36).slice(2, 6)}`;
    await registerViaApi(customer, { displayName: name });
    const customerPage = await customer.newPage();
    await customerPage.goto(STORE);
    await customerPage.getByRole('heading', { name: SHOP, level: 1 }).waitFor();

    // The jeweller's hands are full: the call is declined.
    await customerPage.getByRole('button', { name: 'Video Call', exact: true }).click();
    const ringing = sellerPage.getByRole('alertdialog');
    await ringing.waitFor({ timeout: 20_000 });
    await ringing.getByRole('button', { name: 'Decline' }).click();
    await ringing.waitFor({ state: 'detached' });

    // One tap asks for a call-back.
    const ended = customerPage.getByRole('dialog', { name: 'The call did not go through' });
    await ended.getByRole('button', { name: 'Request a call-back' }).click();
    await customerPage.getByText(`Call-back requested. ${SHOP} will call you back.`).waitFor();
    await ended.waitFor({ state: 'detached' });
    // The customer stays on the page: their app now listens for the shop's call (no reload).
    // The jeweller's queue shows it (badge and row), and today's declined call with the caller.
    await sellerPage.reload();
    // The request's own row (the missed calls below name the caller too).
    const row = queue.locator('li[data-request-id]').filter({ hasText: name });
    await row.waitFor({ timeout: 20_000 });
    expect(Number(await queue.getByTestId('callback-count').textContent())).toBeGreaterThan(0);
    await queue.getByTestId('missed-calls').getByText(name).first().waitFor();
    await expectAccessible(sellerPage, 'seller dashboard with the call-back queue');

    // "Call back" rings the customer's open app: the shop is named.
    await row.getByRole('button', { name: 'Call back' }).click();
    const incoming = customerPage.getByRole('alertdialog');
    await incoming.waitFor({ timeout: 20_000 });
    await incoming.getByText(`${SHOP} is calling you back`).waitFor();
    await expectAccessible(customerPage, 'call-back ringing the customer');
    await incoming.getByRole('button', { name: 'Accept' }).click();

    await Promise.all([remoteVideoPlays(sellerPage), remoteVideoPlays(customerPage)]);

    // The request is answered.
    const answered = await customerPage.evaluate(async () => {
      const res = await fetch('/_api/callbacks/mine');
      return ((await res.json()) as { requests: { status: string }[] }).requests[0].status;
    });
    expect(answered).toBe('answered');

    await sellerPage.getByRole('button', { name: 'End call' }).click();
    await sellerPage.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 20_000 });
    await customerPage.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 20_000 });
    // Both get the call's summary; the customer closes it and finds the request answered on their calls page.
    const summary = customerPage.getByTestId('call-ended');
    await summary.waitFor();
    await summary.getByRole('button', { name: 'Close' }).click();
    await customerPage.goto('/call-history');
    const mine = customerPage.getByTestId('my-callbacks');
    await mine
      .locator('li[data-status="answered"]')
      .filter({ hasText: SHOP })
      .getByText('Answered')
      .waitFor();
    await customer.close();
    await seller.close();
  }, 240_000);
});
