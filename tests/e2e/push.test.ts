import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, signInViaApi } from './support/accounts';
import { expectAccessible, launchBrowser, newContext } from './support/browser';

/**
 * The seller's 'Ring me on this device' switch. Headless Chromium has no push service to subscribe with, so
 * PushManager is stubbed where a subscription is needed; the server side is real. Delivery end to end
 * (encryption, VAPID, 410 cleanup) is covered by tests/api/push.test.ts against a local receiver.
 */
const SWITCH = 'Ring me on this device even when Nagai is closed';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser([], { serviceWorkers: 'allow' });
});
afterAll(async () => browser?.close());

async function sellerContext(): Promise<BrowserContext> {
  const context = await newContext(browser);
  await signInViaApi(context, DEMO_ACCOUNTS.seller);
  return context;
}

async function openVideoSettings(page: Page) {
  await page.goto('/seller/profile#video-settings');
  const section = page.locator('#video-settings');
  await section.waitFor();
  return section;
}

describe('push opt-in', () => {
  it('is not offered when the server has push switched off', async () => {
    const context = await sellerContext();
    await context.route('**/_api/push/public-key', (route) =>
      route.fulfill({ json: { enabled: false, publicKey: null } }),
    );
    const page = await context.newPage();
    // Waited for from before the page opens: the answer may come before the section is on screen.
    const answered = page.waitForResponse('**/_api/push/public-key');
    const section = await openVideoSettings(page);
    await answered;
    await page.waitForLoadState('networkidle');
    expect(await section.getByRole('switch', { name: SWITCH }).count()).toBe(0);
    await context.close();
  });

  it('explains a browser without web push, and a blocked permission', async () => {
    const context = await sellerContext();
    const page = await context.newPage();
    await page.addInitScript(() => {
      delete (window as { PushManager?: unknown }).PushManager;
    });
    const section = await openVideoSettings(page);
    const toggle = section.getByRole('switch', { name: SWITCH });
    await toggle.waitFor();
    expect(await toggle.isDisabled()).toBe(true);
    await section.getByText('This browser cannot ring when Nagai is closed.', { exact: false }).waitFor();

    const blocked = await context.newPage();
    await blocked.addInitScript(() => {
      Object.defineProperty(Notification, 'permission', { get: () => 'denied' });
    });
    const blockedSection = await openVideoSettings(blocked);
    const blockedToggle = blockedSection.getByRole('switch', { name: SWITCH });
    await blockedToggle.waitFor();
    await blockedSection
      .getByText('Notifications are blocked for Nagai in this browser.', { exact: false })
      .waitFor();
    expect(await blockedToggle.isDisabled()).toBe(true);
    expect(await blockedToggle.getAttribute('aria-checked')).toBe('false');
    await expectAccessible(blocked, 'push opt-in, permission denied');
    await context.close();
  });

  it('subscribes this device with the server’s key and the seller’s language, and unsubscribes', async () => {
    const context = await sellerContext();
    await context.grantPermissions(['notifications']);
    const page = await context.newPage();
    await page.addInitScript(() => {
      const b64url = (n: number, seed: number) => {
        const bytes = Uint8Array.from({ length: n }, (_, i) => (i * seed + 7) % 256);
        bytes[0] = 4;
        return btoa(String.fromCharCode(...bytes))
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/=+$/, '');
      };
      const w = window as unknown as { pushCalls: { subscribe: unknown[]; unsubscribe: number } };
      w.pushCalls = { subscribe: [], unsubscribe: 0 };
      let current: PushSubscription | null = null;
      const endpoint = `https://push.example.test/send/${Math.random().toString(36).slice(2)}`;
      PushManager.prototype.getSubscription = async () => current;
      PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
        const key = options?.applicationServerKey as Uint8Array;
        w.pushCalls.subscribe.push({ userVisibleOnly: options?.userVisibleOnly, keyLength: key.byteLength });
        current = {
          endpoint,
          expirationTime: null,
          options: { applicationServerKey: key.buffer, userVisibleOnly: true },
          toJSON: () => ({
            endpoint,
            expirationTime: null,
            keys: { p256dh: b64url(65, 31), auth: b64url(16, 13) },
          }),
          unsubscribe: async () => {
            w.pushCalls.unsubscribe += 1;
            current = null;
            return true;
          },
        } as unknown as PushSubscription;
        return current;
      };
    });
    const section = await openVideoSettings(page);
    const toggle = section.getByRole('switch', { name: SWITCH });
    await toggle.waitFor();
    await expect.poll(() => toggle.isDisabled(), { timeout: 30_000 }).toBe(false);
    expect(await toggle.getAttribute('aria-checked')).toBe('false');

    const subscribed = page.waitForResponse((r) => r.url().endsWith('/_api/push/subscribe'));
    await toggle.click();
    const res = await subscribed;
    expect(res.status()).toBe(201);
    const body = res.request().postDataJSON() as { endpoint: string; keys: object; locale: string };
    expect(body.endpoint).toMatch(/^https:\/\/push\.example\.test\//);
    expect(body.locale).toBe('en');
    expect(Object.keys(body.keys).sort()).toEqual(['auth', 'p256dh']);
    await section.getByText('This device will ring for incoming calls.').waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    const calls = await page.evaluate(
      () => (window as unknown as { pushCalls: { subscribe: unknown[] } }).pushCalls,
    );
    expect(calls.subscribe).toEqual([{ userVisibleOnly: true, keyLength: 65 }]);
    await expectAccessible(page, 'push opt-in, on');

    const unsubscribed = page.waitForResponse((r) => r.url().endsWith('/_api/push/unsubscribe'));
    await toggle.press('Space');
    const off = await unsubscribed;
    expect(await off.json()).toMatchObject({ success: true, removed: 1 });
    await section.getByText('This device will no longer ring when Nagai is closed.').waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    expect(
      await page.evaluate(
        () => (window as unknown as { pushCalls: { unsubscribe: number } }).pushCalls.unsubscribe,
      ),
    ).toBe(1);
    await context.close();
  });
});
