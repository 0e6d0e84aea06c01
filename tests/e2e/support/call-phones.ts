import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { LIVE_CALL_STATUSES } from '../../../api/contract/constants';
import { REMOTE_VIDEO_TIMEOUT_MS } from '../../support/bounds';
import { DEMO_ACCOUNTS, registerViaApi, signInViaApi } from './accounts';
import { baseUrl, callMarks, launchBrowser, newContext } from './browser';

/** A phone's screen in the call tests: 360×640. */
export const PHONE = { width: 360, height: 640 };

/**
 * Phones for a file of call tests: one Chromium for the file, and `phone()` opens a 360×640 phone with its
 * camera and microphone allowed (reading Tamil if asked). A test that stops midway leaves its call live, and
 * closing a page does not end a call in progress (a reload rejoins it): the demo jeweller would stay busy and
 * the next test's call would be refused and never ring. After each test, whatever call it left live is ended,
 * then its phones are closed.
 */
export function callPhones(
  /** Chromium's extra flags for the file (a fake camera that plays a face: try-on.test.ts), if any. */
  args: () => Promise<string[]> = async () => [],
): { phone: (locale?: 'ta') => Promise<{ context: BrowserContext; page: Page }> } {
  let browser: Browser;
  const phones = new Set<BrowserContext>();
  beforeAll(async () => {
    browser = await launchBrowser(await args());
  });
  afterAll(async () => browser?.close());
  afterEach(() => endLiveCallsAndClose(phones));
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

/** A phone of `callPhones`. */
export interface Phone {
  context: BrowserContext;
  page: Page;
}

/**
 * The two sides of a call test: the demo jeweller with the app open on Call History (so the shop rings there,
 * in English: seller areas are English only) and a new customer named `first` and a random tag, on the
 * storefront `store` (its heading `shop` shown, when given), reading Tamil if asked.
 */
export async function jewellerAndCustomer(
  phone: (locale?: 'ta') => Promise<Phone>,
  opts: { first: string; store: string; shop?: string; locale?: 'ta' },
): Promise<{ seller: Phone; customer: Phone; name: string }> {
  const seller = await phone();
  await signInViaApi(seller.context, DEMO_ACCOUNTS.seller);
  await seller.page.goto('/seller/history');
  await seller.page.getByRole('heading', { name: 'Call History', level: 1 }).waitFor();

  const customer = await phone(opts.locale);
  const name = `${opts.first} ${Math.random().toString(36).slice(2, 6)}`;
  await registerViaApi(customer.context, { displayName: name });
  await customer.page.goto(opts.store);
  if (opts.shop) await customer.page.getByRole('heading', { name: opts.shop, level: 1 }).waitFor();
  if (opts.locale) await customer.page.waitForFunction(() => document.documentElement.lang === 'ta');
  return { seller, customer, name };
}

/**
 * Ends every call still live for the people of these contexts (as they would with "End call"), then closes
 * the contexts: a test that failed midway must not leave the demo jeweller busy for the next test.
 */
export async function endLiveCallsAndClose(contexts: Iterable<BrowserContext>): Promise<void> {
  for (const context of [...contexts]) {
    try {
      const res = await context.request.get('/_api/calls/history');
      const { calls } = (await res.json()) as { calls: { callId: number; status: string }[] };
      for (const call of calls.filter((c) => (LIVE_CALL_STATUSES as readonly string[]).includes(c.status))) {
        await context.request.post('/_api/call/end', {
          data: { callId: call.callId },
          headers: { Origin: baseUrl() },
        });
      }
    } catch {
      // A context that is closing already: its calls were ended by the test or by the other side's pass.
    }
    await context.close().catch(() => undefined);
  }
}

/** The other person's video plays on this page: it has a size and its clock runs. */
export async function remoteVideoPlays(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () => {
        const v = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]');
        return !!v && v.videoWidth > 0 && v.currentTime > 0;
      },
      undefined,
      { timeout: REMOTE_VIDEO_TIMEOUT_MS },
    )
    .catch(async (err: unknown) => {
      // Where the call got to on this side, for a failure read from the log alone.
      throw new Error(`no remote video on ${page.url()}; call marks: ${await callMarks(page)}`, {
        cause: err,
      });
    });
}

/** How long REMOTE_FPS watches the remote video (ms). */
export const FPS_WINDOW_MS = 2000;
/** How long REMOTE_FPS waits for the first new frame before it calls the video stalled (ms): a give-up wait. */
export const FIRST_FRAME_WAIT_MS = 10_000;
/**
 * The frame rate a flowing video keeps: the fake camera sends 10 frames a second (tests/e2e/support/browser.ts),
 * and under pressure the product keeps the resolution and lowers the frame rate (call-stats.ts); half the
 * camera's rate still plays as video, a stalled or stuttering one (a frame now and then) does not.
 */
export const MIN_REMOTE_FPS = 5;

/**
 * In the page, in either engine (a string): the frames a second the remote video presented over FPS_WINDOW_MS,
 * counted by requestVideoFrameCallback's presentedFrames (every frame handed to the compositor, also those that
 * came between two callbacks). The window opens at the first new frame, waited for up to FIRST_FRAME_WAIT_MS;
 * 0 when the video has no size, its clock has not run, or no new frame came.
 */
export const REMOTE_FPS = `new Promise((resolve) => {
  const v = document.querySelector('[data-testid="remote-video"]');
  if (!v || !(v.videoWidth > 0 && v.currentTime > 0)) return resolve(0);
  let first = null;
  let last = null;
  let n = 0;
  let done = false;
  const tick = (now, meta) => {
    if (done) return;
    const count = typeof meta.presentedFrames === 'number' ? meta.presentedFrames : ++n;
    if (first === null) {
      first = count;
      setTimeout(() => {
        done = true;
        resolve((last - first) / (${FPS_WINDOW_MS} / 1000));
      }, ${FPS_WINDOW_MS});
    }
    last = count;
    v.requestVideoFrameCallback(tick);
  };
  v.requestVideoFrameCallback(tick);
  setTimeout(() => {
    if (first !== null) return;
    done = true;
    resolve(0);
  }, ${FIRST_FRAME_WAIT_MS});
})`;

/**
 * How many FPS_WINDOW_MS windows in a row flowingFps may watch for one at MIN_REMOTE_FPS: a call that has just
 * connected starts its encoder low and ramps up (4.5 frames a second was seen in the first 2 s of a Firefox
 * customer's video on a loaded machine), so the video must reach the rate within 6 s of playing, in a whole
 * 2 s window. A stalled or stuttering video reaches it in none.
 */
export const FPS_WINDOWS = 3;

/** The frame rate of the first of up to FPS_WINDOWS windows that reaches MIN_REMOTE_FPS (else the best one). */
export async function flowingFps(measure: () => Promise<unknown>): Promise<number> {
  let best = 0;
  for (let i = 0; i < FPS_WINDOWS && best < MIN_REMOTE_FPS; i++)
    best = Math.max(best, Number(await measure()));
  return best;
}

/** The other person's video plays and keeps moving: at least MIN_REMOTE_FPS over FPS_WINDOW_MS (REMOTE_FPS). */
export async function expectVideoFlowing(page: Page): Promise<void> {
  await remoteVideoPlays(page);
  const fps = await flowingFps(() => page.evaluate(REMOTE_FPS));
  console.log(`remote video on ${page.url()}: ${fps} frames a second`);
  expect(fps, `frames a second of the remote video on ${page.url()}`).toBeGreaterThanOrEqual(MIN_REMOTE_FPS);
}

/** Mean brightness (0..255) of the remote video: the fake camera is bright, a disabled track is black. */
export function remoteBrightness(page: Page) {
  return page.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]')!;
    const c = document.createElement('canvas');
    c.width = 64;
    c.height = 48;
    const g = c.getContext('2d')!;
    g.drawImage(v, 0, 0, 64, 48);
    const d = g.getImageData(0, 0, 64, 48).data;
    let sum = 0;
    for (let i = 0; i < d.length; i += 4) sum += (d[i] + d[i + 1] + d[i + 2]) / 3;
    return sum / (d.length / 4);
  });
}
