import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { ACTION_TIMEOUT_MS } from '../../support/bounds';

/**
 * Debian's Firefox ESR, the suite's second engine, driven over WebDriver BiDi by puppeteer-core. Its fake
 * camera and microphone (a test pattern and a tone) and the permission prompt turned off make WebRTC calls
 * possible headless, as Chromium's --use-fake-device-for-media-stream does. One browser per test file: a
 * launch costs about 2.5 s; each person in a test gets a fresh context (own cookies and storage).
 */
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export type { Browser as FirefoxBrowser, Page as FirefoxPage };

export function launchFirefox(): Promise<Browser> {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    extraPrefsFirefox: {
      'media.navigator.streams.fake': true,
      'media.navigator.permission.disabled': true,
      // Loopback calls: host candidates on 127.0.0.1 (Firefox leaves loopback out of ICE otherwise).
      'media.peerconnection.ice.loopback': true,
      // Offline checks and the update service would otherwise talk to the outside world.
      'app.update.enabled': false,
      'browser.shell.checkDefaultBrowser': false,
    },
  });
}

/** A fresh context and page at a phone's size (or a laptop's) on `origin`. */
export async function firefoxPage(
  browser: Browser,
  origin: string,
  opts: { mobile?: boolean; watch?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  page.setDefaultTimeout(ACTION_TIMEOUT_MS);
  // A script run in every document of the page before its own (recorders for the test to read).
  if (opts.watch) await page.evaluateOnNewDocument(opts.watch);
  await page.setViewport(opts.mobile ? { width: 360, height: 740 } : { width: 1280, height: 860 });
  await page.goto(`${origin}/login`);
  return { context, page };
}

/** Calls the API from the page (same origin, its cookie): sign-in and sign-up as a browser would. */
export async function postFromPage(page: Page, path: string, body: unknown) {
  return page.evaluate(
    async (p, b) => {
      const res = await fetch(p, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(b),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    path,
    body,
  );
}

/**
 * Waits for a visible button whose accessible name (aria-label, else its text) is `name` and clicks it with
 * real input (pointer events through BiDi), inside `within` (a CSS selector) when given.
 */
export async function clickButton(
  page: Page,
  name: string,
  opts: { within?: string; timeout?: number } = {},
) {
  // A button that React replaces between being found and being clicked (its list re-rendered on new data) is
  // found again, as a person's second tap would find it.
  for (let attempt = 1; ; attempt++) {
    try {
      return await clickButtonOnce(page, name, opts);
    } catch (e) {
      if (attempt >= 3 || !/detached|not connected/i.test((e as Error).message)) throw e;
    }
  }
}

async function clickButtonOnce(page: Page, name: string, opts: { within?: string; timeout?: number }) {
  const handle = await explained(
    page,
    `button "${name}"`,
    page.waitForFunction(
      (n, within) => {
        const root = within ? document.querySelector(within) : document;
        if (!root) return null;
        const buttons = [...root.querySelectorAll<HTMLElement>('button, [role="button"], a')];
        return (
          buttons.find((b) => {
            const label = (b.getAttribute('aria-label') ?? b.textContent ?? '').replace(/\s+/g, ' ').trim();
            return label === n && b.getClientRects().length > 0 && !(b as HTMLButtonElement).disabled;
          }) ?? null
        );
      },
      { polling: 50, timeout: opts.timeout ?? 30_000 },
      name,
      opts.within ?? null,
    ),
  );
  const el = handle.asElement();
  if (!el) throw new Error(`no button "${name}"`);
  await (el as import('puppeteer-core').ElementHandle<Element>).click();
  await handle.dispose();
}

/** Waits until the page shows `text` (in the body's text), or inside `within`. */
export async function waitForText(
  page: Page,
  text: string,
  opts: { within?: string; timeout?: number } = {},
) {
  await explained(
    page,
    `text "${text}"`,
    page.waitForFunction(
      (t, within) => {
        const root = within ? document.querySelector(within) : document.body;
        return !!root && (root as HTMLElement).innerText.includes(t);
      },
      { polling: 50, timeout: opts.timeout ?? 30_000 },
      text,
      opts.within ?? null,
    ),
  );
}

/**
 * A wait that timed out says what it waited for, where the page was and what it showed, so a failure on a
 * loaded machine can be read from the log alone.
 */
export async function explained<T>(page: Page, what: string, wait: Promise<T>): Promise<T> {
  try {
    return await wait;
  } catch (err) {
    const shown = await page
      .evaluate(() => `${location.pathname}${location.search}: ${document.body.innerText}`)
      .catch(() => '(the page could not be read)');
    throw new Error(`waited for ${what}; the page was ${shown.replace(/\s+/g, ' ').slice(0, 800)}`, {
      cause: err,
    });
  }
}

/** Types `value` into the field labelled `label` (a <label for> or aria-label), as a person would. */
export async function fillByLabel(page: Page, label: string, value: string) {
  const handle = await page.waitForFunction(
    (l) => {
      const byFor = [...document.querySelectorAll('label')].find((x) => x.textContent?.trim() === l);
      const target = byFor?.htmlFor
        ? document.getElementById(byFor.htmlFor)
        : (byFor?.querySelector('input, textarea, select') ??
          document.querySelector(`[aria-label="${CSS.escape(l)}"]`));
      return target ?? null;
    },
    { polling: 50, timeout: 20_000 },
    label,
  );
  const el = handle.asElement() as import('puppeteer-core').ElementHandle<HTMLInputElement> | null;
  if (!el) throw new Error(`no field "${label}"`);
  await el.click();
  await el.type(value);
}

/**
 * Chooses an option of the native <select> labelled `label` by the option's value, as a person picking from
 * the list does (puppeteer's select(): the value is set and input and change events are sent). Typing into a
 * select does not choose anything in Firefox, so fillByLabel is for text fields only.
 */
export async function chooseByLabel(page: Page, label: string, value: string) {
  const handle = await page.waitForFunction(
    (l) => {
      const byFor = [...document.querySelectorAll('label')].find((x) => x.textContent?.trim() === l);
      const target = byFor?.htmlFor ? document.getElementById(byFor.htmlFor) : byFor?.querySelector('select');
      return target instanceof HTMLSelectElement ? target : null;
    },
    { polling: 50, timeout: 20_000 },
    label,
  );
  const el = handle.asElement() as import('puppeteer-core').ElementHandle<HTMLSelectElement> | null;
  if (!el) throw new Error(`no list "${label}"`);
  const chosen = await el.select(value);
  if (!chosen.includes(value)) throw new Error(`"${label}" has no option ${value}`);
}
