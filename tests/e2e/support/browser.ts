import fs from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { ACTION_TIMEOUT_MS } from '../../support/bounds';
import { CHROMIUM_PATH, chromiumArgs } from './chromium';

export { CHROMIUM_PATH };

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The URL of this worker's production server, started by the e2e global setup: the project's files run two at
 * a time, each worker (VITEST_POOL_ID 1, 2, …) on its own server.
 */
export const baseUrl = () => {
  const urls = inject('baseUrls');
  return urls[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % urls.length];
};

/** The Twilio test double of this worker's server (issue #37): the codes and messages it "sent". */
export const twilioUrl = () => {
  const urls = inject('twilioUrls');
  return urls[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % urls.length];
};

/**
 * Debian's Chromium, headless, with fake camera and microphone for WebRTC tests. The fake camera shows 10
 * frames a second (its default is 20): a phone's camera indoors, and half the work of encoding and decoding
 * for the machine that runs the suite. Every context it opens waits ACTION_TIMEOUT_MS (45 s) before an action or
 * a wait gives up.
 *
 * Without switches of its own, a file gets the one Chromium the e2e global setup started for the whole run
 * (a connection to it: its close() closes this file's contexts, not the browser); a file that needs other
 * switches (a fake camera fed from a file) launches its own.
 *
 * Service workers: a context blocks them unless the file asks for them (`serviceWorkers: 'allow'`, for the
 * files about the app's worker, push, offline and installation). Every new context is a first visit, and the
 * worker's install downloads the whole precache (1.6 MB, about 60 requests) in the background of every test:
 * a fifth of the browser's work in a file that never uses it. The worker's own behaviour is tested where it
 * matters (pwa, offline, push, push-sw, appointments' reminders).
 */
export async function launchBrowser(
  extraArgs: string[] = [],
  opts: { serviceWorkers?: 'allow' | 'block' } = {},
): Promise<Browser> {
  const browser =
    extraArgs.length === 0
      ? await chromium.connect(inject('chromiumEndpoint'))
      : await chromium.launch({
          executablePath: CHROMIUM_PATH,
          headless: true,
          args: chromiumArgs(extraArgs),
        });
  const serviceWorkers = opts.serviceWorkers ?? 'block';
  // browser.newPage() opens its context through newContext too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext({ serviceWorkers, ...options });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    return context;
  };
  return browser;
}

/**
 * The sound policy of a phone's browser on a site it has not learnt to trust, which headless Chromium does
 * not apply: an AudioContext starts suspended and resumes only inside a user gesture.
 */
export function refuseSoundWithoutGesture(context: BrowserContext): Promise<unknown> {
  return context.addInitScript(() => {
    // Headless Chromium counts script run by the test driver as user activation, so real input events are
    // what count here: a trusted pointerdown or keydown lets the next resume() through.
    let gestureAt = -Infinity;
    const note = (e: Event) => {
      if (e.isTrusted) gestureAt = performance.now();
    };
    window.addEventListener('pointerdown', note, true);
    window.addEventListener('keydown', note, true);
    const Original = window.AudioContext;
    window.AudioContext = class extends Original {
      constructor(options?: AudioContextOptions) {
        super(options);
        void super.suspend();
      }
      override resume(): Promise<void> {
        return performance.now() - gestureAt < 5000 ? super.resume() : new Promise<void>(() => undefined);
      }
    } as typeof AudioContext;
  });
}

/** A fresh browser context (own cookies and storage) at a phone or desktop size. */
export function newContext(
  browser: Browser,
  opts: { mobile?: boolean; locale?: string } = {},
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: baseUrl(),
    viewport: opts.mobile ? { width: 360, height: 740 } : { width: 1280, height: 860 },
    locale: opts.locale ?? 'en-IN',
    isMobile: opts.mobile,
    hasTouch: opts.mobile,
  });
}

/** A 360×640 phone reading `language` (the app's stored choice), for the layout checks at a phone's size. */
export async function phoneIn(
  browser: Browser,
  language: 'en' | 'ta',
  opts: { serviceWorkers?: 'block' } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: 360, height: 640 },
    locale: 'en-IN',
    isMobile: true,
    hasTouch: true,
    ...opts,
  });
  await context.addInitScript((lng) => localStorage.setItem('nagai.language', lng), language);
  return context;
}

/** Runs axe-core on the page and fails on serious or critical violations. */
export async function expectAccessible(page: Page, label = page.url()): Promise<void> {
  // Toasts, sheets, overlays and freshly rendered cards animate in and out: wait until no finite animation has
  // run for 300 ms, so axe sees final colours, not a half-faded element (skeleton pulses loop forever and are
  // ignored). A quiet period, not a single look: on a busy machine an animation may start a frame or two
  // after the change that caused it.
  await page.evaluate(() => {
    delete (window as unknown as { __quietSince?: number }).__quietSince;
  });
  await page
    .waitForFunction(
      () => {
        const w = window as unknown as { __quietSince?: number };
        const busy = document
          .getAnimations()
          .some((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity);
        const now = performance.now();
        if (busy) w.__quietSince = undefined;
        else w.__quietSince ??= now;
        return !busy && now - w.__quietSince! >= 300;
      },
      undefined,
      { timeout: 10_000, polling: 50 },
    )
    .catch(() => undefined);
  // axe-core once per document: a second check of the same page reuses it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: object, opts: object) => Promise<unknown> } }).axe;
    // Toasts sonner has hidden (stacked beyond view) or is removing are not shown to anyone.
    const context = {
      exclude: [['[data-sonner-toast][data-visible="false"]'], ['[data-sonner-toast][data-removed="true"]']],
    };
    return axe.run(context, { resultTypes: ['violations'] });
  })) as { violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] };
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = serious.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(', ')}`,
  );
  expect(summary, `accessibility violations on ${label}`).toEqual([]);
}

/**
 * Asserts that something stays true for a whole window, looking every 100 ms: a check that "nothing arrives"
 * fails whenever the thing arrives within the window, not only if it is there at one look at its end.
 */
export async function expectStill<T>(
  read: () => Promise<T> | T,
  expected: T,
  windowMs: number,
  what: string,
): Promise<void> {
  const until = Date.now() + windowMs;
  for (;;) {
    const value = await read();
    expect(value, `${what} (${windowMs - Math.max(0, until - Date.now())} ms into the window)`).toEqual(
      expected,
    );
    if (Date.now() >= until) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The call marks (performance.mark 'call:*', ms since the page started) of a page, for a failure's message. */
export async function callMarks(page: Page): Promise<string> {
  return page
    .evaluate(() =>
      performance
        .getEntriesByType('mark')
        .filter((m) => m.name.startsWith('call:'))
        .map((m) => `${m.name.slice(5)}@${Math.round(m.startTime)}`)
        .join(' '),
    )
    .catch(() => '(unreadable)');
}
