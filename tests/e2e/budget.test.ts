import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIAL_JS_BUDGET_BYTES, kib, measureInitialJs } from '../bench/bundle';
import { baseUrl, launchBrowser } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('performance budget (issue #23)', () => {
  it(
    "keeps a visitor's first load of /marketplace within the budget of gzipped JavaScript",
    { timeout: 120_000 },
    async () => {
      const context = await browser.newContext({
        baseURL: baseUrl(),
        viewport: { width: 412, height: 823 },
        isMobile: true,
        hasTouch: true,
      });
      try {
        const js = await measureInitialJs(context);
        const detail = js.files.map((f) => `${f.url} ${kib(f.gzipBytes)}`).join('\n');
        expect(js.files.length, 'no JavaScript measured').toBeGreaterThan(0);
        expect(js.gzipBytes, `initial JS ${kib(js.gzipBytes)} gzip:\n${detail}`).toBeLessThanOrEqual(
          INITIAL_JS_BUDGET_BYTES,
        );
      } finally {
        await context.close();
      }
    },
  );
});
