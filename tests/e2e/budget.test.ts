import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PHONE_CONTEXT,
  SCRIPT_BYTES_BUDGET,
  SCRIPT_FILES_BUDGET,
  SCRIPT_TRANSFER_BUDGET_BYTES,
  kib,
  measureInitialJs,
} from '../bench/bundle';
import { baseUrl, launchBrowser } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('performance budget (issues #33 and #49)', () => {
  it(
    "keeps the script a visitor's phone transfers for /marketplace within the budget",
    { timeout: 240_000 },
    async () => {
      const context = await browser.newContext({ baseURL: baseUrl(), ...PHONE_CONTEXT });
      try {
        const js = await measureInitialJs(context);
        const detail = js.files.map((f) => `${f.url} ${kib(f.wireBytes)}`).join('\n');
        expect(js.files.length, 'no JavaScript measured').toBeGreaterThan(0);
        // Every file's bytes were counted as they arrived (a file served from a cache would count 0).
        expect(js.files.every((f) => f.wireBytes > 0)).toBe(true);
        expect(js.wireBytes, `script on the wire ${kib(js.wireBytes)}:\n${detail}`).toBeLessThanOrEqual(
          SCRIPT_TRANSFER_BUDGET_BYTES,
        );
        // Issue #49: at most 15 files, and 170 KB with each answer's headers.
        expect(js.files.length, `script files:\n${detail}`).toBeLessThanOrEqual(SCRIPT_FILES_BUDGET);
        expect(
          js.transferBytes,
          `script with headers ${kib(js.transferBytes)}:\n${detail}`,
        ).toBeLessThanOrEqual(SCRIPT_BYTES_BUDGET);
      } finally {
        await context.close();
      }
    },
  );
});
