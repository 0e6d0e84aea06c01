import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHROMIUM_PATH, launchBrowser } from './support/browser';
import { demoJewellerTakesPush, startE2eServer, type E2eServer } from './support/server';

/**
 * No tap goes unanswered (issue #50 §3): on a freshly started production server (its own, started here: the
 * suite's shared one is long warm), twenty customer pages opened within the first second after it answers
 * /healthz each tap "Video Call" as soon as it is there. Every tap shows "Calling…" within 100 ms and sends its
 * initiate request; before this issue a tap made while the call layer's code was still loading showed nothing.
 */

const PASSWORD = inject('demoPassword');
const PAGES = 20;
/** The product's own bound: a tap's visible answer (issue #50), fixed. */
const TAP_ANSWER_MS = 100;

let browser: Browser;
let server: E2eServer;
let cookie: { name: string; value: string };

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startE2eServer(PASSWORD)]);
  // Lakshmi Jewellers is rung by push (the shared server's set-up), and the demo customer signed in, through
  // the API only: no page of the app has been asked for yet.
  await demoJewellerTakesPush(server.baseUrl, PASSWORD);
  const login = await fetch(`${server.baseUrl}/_api/auth/login_with_password`, {
    method: 'POST',
    headers: { Origin: server.baseUrl, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'customer@nagai.test', password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  const [name, value] = login.headers.getSetCookie()[0]!.split(';')[0]!.split('=');
  cookie = { name: name!, value: value! };
}, 150_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Notes, in the page, when a call button was tapped and when the page first showed it calling. */
const WATCH_TAPS = () => {
  const w = window as unknown as { __tapAt?: number; __answeredAt?: number };
  addEventListener(
    'click',
    (e) => {
      if (!(e.target as Element).closest?.('a[href^="/call/"]') || w.__tapAt !== undefined) return;
      w.__tapAt = performance.now();
      const check = () => {
        if (document.querySelector('a[href^="/call/"][aria-busy="true"]')) w.__answeredAt = performance.now();
        else requestAnimationFrame(check);
      };
      check();
    },
    true,
  );
};

async function tapOnce(page: Page): Promise<{ answeredMs: number; status: number }> {
  const initiate = page.waitForResponse((r) => r.url().endsWith('/_api/call/initiate'), { timeout: 30_000 });
  await page.getByRole('button', { name: 'Video Call', exact: true }).click();
  await page.waitForFunction(
    () => (window as unknown as { __answeredAt?: number }).__answeredAt !== undefined,
  );
  const answeredMs = await page.evaluate(() => {
    const w = window as unknown as { __tapAt: number; __answeredAt: number };
    return w.__answeredAt - w.__tapAt;
  });
  return { answeredMs, status: (await initiate).status() };
}

describe('a fresh server (issue #50)', () => {
  it(`${PAGES} first-second taps on "Video Call" are each answered within ${TAP_ANSWER_MS} ms and each sends its call`, async () => {
    expect(CHROMIUM_PATH).toBeTruthy();
    const contexts = await Promise.all(
      Array.from({ length: PAGES }, async () => {
        const c = await browser.newContext({
          baseURL: server.baseUrl,
          viewport: { width: 360, height: 740 },
        });
        await c.grantPermissions(['camera', 'microphone']);
        await c.addCookies([{ ...cookie, url: server.baseUrl }]);
        await c.addInitScript(WATCH_TAPS);
        return c;
      }),
    );
    const pages = await Promise.all(contexts.map((c) => c.newPage()));
    const sinceReady = Date.now() - server.readyAt;
    // Opened within the first second after the server answered /healthz, one every 40 ms.
    const results = await Promise.all(
      pages.map(async (page, i) => {
        await new Promise((r) => setTimeout(r, Math.max(0, i * 40 - sinceReady)));
        const openedAt = Date.now() - server.readyAt;
        await page.goto('/lakshmi-jewellers', { waitUntil: 'commit' });
        return { openedAt, ...(await tapOnce(page)) };
      }),
    );
    console.log(
      `opened ${results.map((r) => r.openedAt).join(' ')} ms after /healthz; tap answered in ` +
        `${results.map((r) => r.answeredMs.toFixed(0)).join(' ')} ms; initiate ${results.map((r) => r.status).join(' ')}`,
    );
    expect(results.every((r) => r.openedAt < 1000)).toBe(true);
    for (const r of results) {
      expect(r.answeredMs).toBeLessThanOrEqual(TAP_ANSWER_MS);
      // Placed (201), or refused with a reason the page shows (the shop or the customer is on the first call).
      expect([201, 409]).toContain(r.status);
    }
    await Promise.all(contexts.map((c) => c.close()));
  }, 120_000);
});
