import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { LIVE_CALL_STATUSES } from '../../../api/contract/constants';
import { baseUrl, launchBrowser, newContext } from './browser';

/** A phone's screen in the call tests: 360×640. */
export const PHONE = { width: 360, height: 640 };

/**
 * Phones for a file of call tests: one Chromium for the file, and `phone()` opens a 360×640 phone with its
 * camera and microphone allowed (reading Tamil if asked). A test that stops midway leaves its call live, and
 * closing a page does not end a call in progress (a reload rejoins it): the demo jeweller would stay busy and
 * the next test's call would be refused and never ring. After each test, whatever call it left live is ended,
 * then its phones are closed.
 */
export function callPhones(): { phone: (locale?: 'ta') => Promise<{ context: BrowserContext; page: Page }> } {
  let browser: Browser;
  const phones = new Set<BrowserContext>();
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => browser?.close());
  afterEach(async () => {
    for (const context of [...phones]) {
      try {
        const res = await context.request.get('/_api/calls/history');
        const { calls } = (await res.json()) as { calls: { callId: number; status: string }[] };
        for (const call of calls.filter((c) =>
          (LIVE_CALL_STATUSES as readonly string[]).includes(c.status),
        )) {
          await context.request.post('/_api/call/end', {
            data: { callId: call.callId },
            headers: { Origin: baseUrl() },
          });
        }
      } catch {
        // A context that is closing already: its calls were ended by the test or by the other phone's pass.
      }
      await context.close().catch(() => undefined);
    }
  });
  return {
    phone: async (locale) => {
      const context = await newContext(browser, { mobile: true });
      phones.add(context);
      context.on('close', () => phones.delete(context));
      await context.grantPermissions(['camera', 'microphone']);
      if (locale) await context.addInitScript(() => localStorage.setItem('nagai.language', 'ta'));
      const page = await context.newPage();
      await page.setViewportSize(PHONE);
      return { context, page };
    },
  };
}
