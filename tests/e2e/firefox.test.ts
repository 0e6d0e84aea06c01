import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, registerViaApi, signInViaApi, uniqueEmail } from './support/accounts';
import { baseUrl, launchBrowser, newContext, refuseSoundWithoutGesture } from './support/browser';
import { flowingFps, MIN_REMOTE_FPS, REMOTE_FPS } from './support/call-phones';
import {
  chooseByLabel,
  clickButton,
  explained,
  fillByLabel,
  firefoxPage,
  launchFirefox,
  postFromPage,
  waitForText,
  type FirefoxBrowser,
  type FirefoxPage,
} from './support/firefox';
import { CHROMIUM_TONE_HZ, expectToneReceived, FIREFOX_TONE_HZ } from './support/received-tone';
import { REMOTE_VIDEO_TIMEOUT_MS } from '../support/bounds';

/**
 * Firefox ESR as the suite's second engine (one instance for the file). Calls between two engines: a Firefox customer and a Chromium jeweller, and the reverse, over loopback
 * against the production server (Firefox ESR over WebDriver BiDi, Chromium over CDP, each with its fake
 * camera and microphone). A phone and a shop's laptop rarely run the same browser; the offer, the answer,
 * the codecs and the candidates must suit both. And the shopping journey, lean: browse a shop, add a piece to
 * the cart, check out.
 */
const STORE = '/lakshmi-jewellers';
const SHOP = 'Lakshmi Jewellers';

/**
 * In every page: each RTCPeerConnection (for its statistics), and the moment (epoch ms) both videos of the
 * call play, the other person's and one's own, as a person sees the call begin.
 */
const WATCH = `(() => {
  const Original = window.RTCPeerConnection;
  const list = [];
  window.__pcs = list;
  window.RTCPeerConnection = class extends Original {
    constructor(config) { super(config); list.push(this); }
  };
  const playing = (v) => !!v && v.videoWidth > 0 && v.currentTime > 0 && !v.paused;
  const timer = setInterval(() => {
    if (window.__bothAt) return;
    if (playing(document.querySelector('[data-testid="remote-video"]')) &&
        playing(document.querySelector('[data-testid="local-video"]')))
      window.__bothAt = performance.timeOrigin + performance.now();
  }, 10);
  window.__resetWatch = () => { window.__bothAt = undefined; };
  void timer;
})();`;

/** In the page: mean brightness (0..255) of the remote video (the fake cameras are bright, a camera off black). */
const REMOTE_BRIGHTNESS = `(() => {
  const v = document.querySelector('[data-testid="remote-video"]');
  const c = document.createElement('canvas');
  c.width = 32; c.height = 24;
  const g = c.getContext('2d');
  g.drawImage(v, 0, 0, 32, 24);
  const d = g.getImageData(0, 0, 32, 24).data;
  let sum = 0;
  for (let i = 0; i < d.length; i += 4) sum += (d[i] + d[i + 1] + d[i + 2]) / 3;
  return sum / (d.length / 4);
})()`;

/**
 * In a page of either engine: the audio energy received over 1.5 s (inbound-rtp totalAudioEnergy: the sum of
 * each decoded sample's level squared times its duration), and whether the engine reports it at all.
 */
const AUDIO_ENERGY = `(async () => {
  const pcs = window.__pcs.filter((p) => p.connectionState === 'connected');
  let reported = false;
  const read = async () => {
    let e = 0;
    for (const pc of pcs) (await pc.getStats()).forEach((s) => {
      if (s.type === 'inbound-rtp' && s.kind === 'audio' && typeof s.totalAudioEnergy === 'number') {
        reported = true;
        e += s.totalAudioEnergy;
      }
    });
    return e;
  };
  const before = await read();
  await new Promise((r) => setTimeout(r, 1500));
  return { energy: (await read()) - before, reported };
})()`;

/**
 * The received audio energy over 1.5 s (AUDIO_ENERGY) that the other side's fake microphone gives at the least:
 * Firefox's steady 1 kHz tone and Chromium's 400 Hz beep (20 ms every 500 ms) both read well above it. A sustained
 * level of 0.026 (−32 dBFS) gives it; silence gives 0 and the codec's comfort noise about a thousandth of it.
 * Fixed figures, whatever the machine: the level is of the sound, not of its speed.
 */
const MIN_TONE_ENERGY = 1e-3;
/** What a muted microphone's silence reads at most over the same 1.5 s: a level under 0.008 (−42 dBFS). */
const MAX_SILENCE_ENERGY = 1e-4;

/** The energy the page receives over 1.5 s (AUDIO_ENERGY), failing when its engine does not report it. */
async function receivedEnergy(who: string, evaluate: (script: string) => Promise<unknown>): Promise<number> {
  const { energy, reported } = (await evaluate(AUDIO_ENERGY)) as { energy: number; reported: boolean };
  expect(reported, `${who}: inbound-rtp audio reports totalAudioEnergy`).toBe(true);
  return energy;
}

/** In the page: the video codec the connected peer receives with. */
const VIDEO_CODEC = `(async () => {
  for (const pc of window.__pcs.filter((p) => p.connectionState === 'connected')) {
    const stats = await pc.getStats();
    let codec = null;
    stats.forEach((s) => {
      if (s.type === 'inbound-rtp' && s.kind === 'video' && s.codecId) codec = stats.get(s.codecId)?.mimeType;
    });
    if (codec) return codec;
  }
  return null;
})()`;

let chromium: Browser;
let firefox: FirefoxBrowser;
beforeAll(async () => {
  [chromium, firefox] = await Promise.all([launchBrowser(), launchFirefox()]);
});
afterAll(async () => {
  await Promise.all([chromium?.close(), firefox?.close()]);
});

async function chromiumContext(): Promise<BrowserContext> {
  const context = await newContext(chromium);
  await context.grantPermissions(['camera', 'microphone']);
  await context.addInitScript({ content: WATCH });
  // As a phone's browser on a site it has not learnt to trust: sound waits for the user's first gesture.
  await refuseSoundWithoutGesture(context);
  return context;
}

async function firefoxSide(): Promise<{ page: FirefoxPage; close: () => Promise<void> }> {
  const { context, page } = await firefoxPage(firefox, baseUrl(), { watch: WATCH });
  return { page, close: () => context.close() };
}

/** Waits until both videos play on this Chromium page, and returns when (epoch ms). */
async function chromiumBoth(page: Page): Promise<number> {
  const h = await page.waitForFunction(
    () => (window as unknown as { __bothAt?: number }).__bothAt,
    undefined,
    {
      timeout: REMOTE_VIDEO_TIMEOUT_MS,
      polling: 20,
    },
  );
  return (await h.jsonValue()) as number;
}
async function firefoxBoth(page: FirefoxPage): Promise<number> {
  const h = await page.waitForFunction(() => (window as unknown as { __bothAt?: number }).__bothAt, {
    timeout: REMOTE_VIDEO_TIMEOUT_MS,
    polling: 20,
  });
  return (await h.jsonValue()) as number;
}

/** Polls `check` (every 100 ms, for 20 s at most) until it holds. */
async function until(check: () => Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met in ${ms} ms: ${check.toString()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Ends whatever call a page's user still has, so a failed test leaves the shop free for the next. */
async function endCalls(evaluate: (script: string) => Promise<unknown>) {
  await evaluate(`(async () => {
    const res = await fetch('/_api/calls/history');
    const calls = await res.json();
    for (const c of Array.isArray(calls) ? calls : calls.calls ?? [])
      if (['pending', 'ringing', 'active'].includes(c.status))
        await fetch('/_api/call/end', { method: 'POST', headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ callId: c.callId }) });
  })()`).catch(() => undefined);
}

describe('calls between Firefox and Chromium', () => {
  it('a Firefox customer calls a Chromium jeweller: ring, accept, video both ways, camera, mute, a piece shown, chat, hang-up', async () => {
    const sellerCtx = await chromiumContext();
    await signInViaApi(sellerCtx, DEMO_ACCOUNTS.seller);
    const seller = await sellerCtx.newPage();
    await seller.goto('/seller/history');
    await seller.getByRole('button', { name: 'Tap to enable call ringing' }).click();

    const ff = await firefoxSide();
    const c = ff.page;
    try {
      const name = `Kavya ${Math.random().toString(36).slice(2, 6)}`;
      const reg = await postFromPage(c, '/_api/auth/register_with_password', {
        email: uniqueEmail('firefox'),
        password: 'Secret#2026',
        displayName: name,
      });
      expect(reg.status, JSON.stringify(reg.body)).toBe(201);
      await c.goto(`${baseUrl()}${STORE}`);
      await waitForText(c, SHOP);

      // Ring.
      await clickButton(c, 'Video Call');
      // The call is placed: its screen carries its id.
      await c.waitForFunction(() => document.querySelector('[data-call-id]') !== null, { timeout: 20_000 });
      const dialog = seller.getByRole('alertdialog');
      await dialog.getByText(name).waitFor({ timeout: 20_000 });

      // Accept: both sides play both videos.
      const acceptedAt = Date.now();
      await dialog.getByRole('button', { name: 'Accept' }).click();
      const [sAt, cAt] = await Promise.all([chromiumBoth(seller), firefoxBoth(c)]);
      console.log(
        `Firefox customer ↔ Chromium jeweller: accept → both videos playing, jeweller ${sAt - acceptedAt} ms, customer ${cAt - acceptedAt} ms`,
      );
      expect(await flowingFps(() => seller.evaluate(REMOTE_FPS))).toBeGreaterThanOrEqual(MIN_REMOTE_FPS);
      expect(await flowingFps(() => c.evaluate(REMOTE_FPS))).toBeGreaterThanOrEqual(MIN_REMOTE_FPS);
      // One codec every engine decodes, and the same both ways.
      expect(await seller.evaluate(VIDEO_CODEC)).toMatch(/^video\/(VP8|H264)$/);
      expect(await c.evaluate(VIDEO_CODEC)).toBe(await seller.evaluate(VIDEO_CODEC));

      // Camera: the jeweller sees black once the Firefox customer turns the camera off, and the picture again.
      expect((await seller.evaluate(REMOTE_BRIGHTNESS)) as number).toBeGreaterThan(20);
      await clickButton(c, 'Turn off camera');
      await until(async () => ((await seller.evaluate(REMOTE_BRIGHTNESS)) as number) < 5);
      await clickButton(c, 'Turn on camera');
      await until(async () => ((await seller.evaluate(REMOTE_BRIGHTNESS)) as number) > 20);
      // And Firefox shows the jeweller's camera going off.
      expect((await c.evaluate(REMOTE_BRIGHTNESS)) as number).toBeGreaterThan(20);
      await seller.getByRole('button', { name: 'Turn off camera' }).click();
      await until(async () => ((await c.evaluate(REMOTE_BRIGHTNESS)) as number) < 5);
      await seller.getByRole('button', { name: 'Turn on camera' }).click();

      // Microphone: each side hears the tone the other's microphone sends (Firefox's 1 kHz at the jeweller,
      // Chromium's 400 Hz beep at the customer), and the jeweller hears nothing once the customer mutes.
      await expectToneReceived('Chromium jeweller', (s) => seller.evaluate(s), FIREFOX_TONE_HZ);
      await expectToneReceived('Firefox customer', (s) => c.evaluate(s), CHROMIUM_TONE_HZ);
      // And at the level it was sent, on each side's own count of what it decoded (inbound-rtp), not merely
      // some energy: a fixed floor that silence and comfort noise fail.
      const audible = await receivedEnergy('Chromium jeweller', (s) => seller.evaluate(s));
      const audibleInFirefox = await receivedEnergy('Firefox customer', (s) => c.evaluate(s));
      console.log(
        `received audio energy over 1.5 s: jeweller ${audible}, Firefox customer ${audibleInFirefox}`,
      );
      expect(audible, 'the Chromium jeweller hears the Firefox tone').toBeGreaterThanOrEqual(MIN_TONE_ENERGY);
      expect(audibleInFirefox, 'the Firefox customer hears the Chromium beep').toBeGreaterThanOrEqual(
        MIN_TONE_ENERGY,
      );
      await clickButton(c, 'Mute microphone');
      await c.waitForFunction(() => !!document.querySelector('button[aria-label="Unmute microphone"]'), {
        timeout: 10_000,
      });
      // The jeweller's level falls to silence as the muted track's silence arrives, and comes back on unmute.
      await until(
        async () =>
          (await receivedEnergy('Chromium jeweller', (s) => seller.evaluate(s))) < MAX_SILENCE_ENERGY,
      );
      await clickButton(c, 'Unmute microphone');
      await until(
        async () => (await receivedEnergy('Chromium jeweller', (s) => seller.evaluate(s))) >= MIN_TONE_ENERGY,
      );

      // The jeweller shows a piece into the call; it appears on the Firefox customer's screen.
      await seller.getByRole('button', { name: 'Show a product', exact: true }).click();
      const sheet = seller.getByRole('dialog', { name: 'Show a product' });
      const option = sheet.getByRole('listitem').getByRole('button').first();
      const piece = (await option.locator('span span').first().textContent())!.trim();
      await option.click();
      await sheet.getByRole('button', { name: 'Show 1 piece' }).click();
      await waitForText(c, piece, { within: '[data-testid="call-items"]', timeout: 20_000 });

      // Chat from Firefox to the jeweller and back.
      await clickButton(c, 'Chat');
      const box = await c.waitForSelector('#call-chat-input', { timeout: 10_000 });
      await box!.type('Is this one 22 carat?');
      await clickButton(c, 'Send');
      // Sent (in the customer's own list), then on the jeweller's side.
      await waitForText(c, 'Is this one 22 carat?', {
        within: '[data-testid="chat-messages"]',
        timeout: 20_000,
      });
      await seller.getByRole('button', { name: 'Chat, 1 new message' }).click({ timeout: 20_000 });
      const sellerChat = seller.getByRole('dialog', { name: 'Chat' });
      await sellerChat.getByTestId('chat-messages').getByText('Is this one 22 carat?').waitFor();
      await sellerChat.getByRole('textbox').fill('Yes, 22K with the BIS hallmark.');
      await sellerChat.getByRole('textbox').press('Enter');
      await waitForText(c, 'Yes, 22K with the BIS hallmark.', { within: '[data-testid="chat-messages"]' });
      await c.keyboard.press('Escape');
      await c.waitForFunction(() => !document.querySelector('#call-chat-input'), { timeout: 10_000 });

      // Hang-up from Firefox ends the call on both sides.
      await clickButton(c, 'End call');
      await seller.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 20_000 });
      await c.waitForFunction(() => !document.querySelector('[data-testid="remote-video"]'), {
        timeout: 20_000,
      });
    } finally {
      await endCalls((s) => c.evaluate(s));
      await ff.close();
      await sellerCtx.close();
    }
  }, 180_000);

  it('a Chromium customer calls a Firefox jeweller: ring, accept, video both ways, hang-up', async () => {
    const ff = await firefoxSide();
    const j = ff.page;
    const customerCtx = await chromiumContext();
    try {
      const login = await postFromPage(j, '/_api/auth/login_with_password', {
        email: DEMO_ACCOUNTS.seller,
        password: DEMO_PASSWORD,
      });
      expect(login.status, JSON.stringify(login.body)).toBe(200);
      await j.goto(`${baseUrl()}/seller/history`);
      await clickButton(j, 'Tap to enable call ringing');

      const { displayName } = await registerViaApi(customerCtx, {
        displayName: `Arjun ${Date.now() % 1000}`,
      });
      const customer = await customerCtx.newPage();
      await customer.goto(STORE);
      await customer.getByRole('button', { name: 'Video Call', exact: true }).click();
      await waitForText(j, displayName, { within: '[role="alertdialog"]', timeout: 20_000 });

      const acceptedAt = Date.now();
      await clickButton(j, 'Accept', { within: '[role="alertdialog"]' });
      const [jAt, cAt] = await Promise.all([firefoxBoth(j), chromiumBoth(customer)]);
      console.log(
        `Chromium customer ↔ Firefox jeweller: accept → both videos playing, jeweller ${jAt - acceptedAt} ms, customer ${cAt - acceptedAt} ms`,
      );
      expect(await flowingFps(() => j.evaluate(REMOTE_FPS))).toBeGreaterThanOrEqual(MIN_REMOTE_FPS);
      expect(await flowingFps(() => customer.evaluate(REMOTE_FPS))).toBeGreaterThanOrEqual(MIN_REMOTE_FPS);
      expect((await customer.evaluate(REMOTE_BRIGHTNESS)) as number).toBeGreaterThan(20);
      // Sound both ways: the tone each side's microphone sends.
      await expectToneReceived('Firefox jeweller', (s) => j.evaluate(s), CHROMIUM_TONE_HZ);
      await expectToneReceived('Chromium customer', (s) => customer.evaluate(s), FIREFOX_TONE_HZ);
      expect(
        await receivedEnergy('Firefox jeweller', (s) => j.evaluate(s)),
        'the Firefox jeweller hears the Chromium beep',
      ).toBeGreaterThanOrEqual(MIN_TONE_ENERGY);

      // The jeweller hangs up in Firefox.
      await clickButton(j, 'End call');
      await customer.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 20_000 });
    } finally {
      await endCalls((s) => j.evaluate(s));
      await customerCtx.close();
      await ff.close();
    }
  }, 120_000);
});

describe('shopping in Firefox', () => {
  it('a new customer browses a shop, opens a piece, adds it to the cart and places the order', async () => {
    // A first-time visitor: whatever the service worker does while it installs, no page offers "a new
    // version" (at 360 px that prompt sits over Place Order).
    const { context, page } = await firefoxPage(firefox, baseUrl(), {
      mobile: true,
      watch: `new MutationObserver(() => {
        if (document.querySelector('[data-testid="update-prompt"]')) localStorage.setItem('update-prompted', location.pathname);
      }).observe(document, { childList: true, subtree: true });`,
    });
    try {
      const reg = await postFromPage(page, '/_api/auth/register_with_password', {
        email: uniqueEmail('firefox-buyer'),
        password: 'Secret#2026',
        displayName: 'Meena',
      });
      expect(reg.status, JSON.stringify(reg.body)).toBe(201);
      await page.goto(`${baseUrl()}${STORE}`);
      await waitForText(page, SHOP);
      const product = await page.evaluate(async () => {
        const res = await fetch('/_api/products/list?limit=100&page=1');
        const { products } = (await res.json()) as {
          products: { id: number; name: string; stockQuantity: number | null; price: string | null }[];
        };
        // Under the cash-on-delivery limit, so the shop offers it.
        return products.find((p) => (p.stockQuantity ?? 0) > 1 && p.price && Number(p.price) < 20_000)!;
      });
      await page.goto(`${baseUrl()}/marketplace?product=${product.id}`);
      await waitForText(page, product.name, { within: '[role="dialog"]' });
      await clickButton(page, 'Add to Cart', { within: '[role="dialog"]' });
      await waitForText(page, 'Item added to cart!');

      await page.goto(`${baseUrl()}/checkout`);
      await waitForText(page, 'Place Order');
      await fillByLabel(page, 'Phone number', '9876543210');
      await fillByLabel(page, 'Shipping address', '12 Temple Street, near the tank');
      await fillByLabel(page, 'City', 'Madurai');
      // Tamil Nadu, by its GST state code, from the list.
      await chooseByLabel(page, 'State', '33');
      await fillByLabel(page, 'Pin code', '625001');
      const cash = await page
        .waitForSelector('input[type="radio"][value="cash_on_delivery"]', { timeout: 30_000 })
        .catch(async (err: unknown) => {
          throw new Error(`no cash on delivery: ${await page.evaluate(() => document.body.innerText)}`, {
            cause: err,
          });
        });
      await cash!.click();
      const placed = page.waitForResponse(
        (r) => r.url().endsWith('/_api/checkout/create') && r.request().method() === 'POST',
        {
          timeout: 30_000,
        },
      );
      await clickButton(page, 'Place Order');
      expect((await explained(page, 'the order to be sent', placed)).status()).toBe(201);
      await waitForText(page, 'Order placed successfully!', { timeout: 30_000 });
      await page.waitForFunction(() => location.pathname === '/orders', { timeout: 20_000 });
      await waitForText(page, product.name);
      expect(await page.evaluate(() => localStorage.getItem('update-prompted'))).toBeNull();
    } finally {
      await context.close();
    }
  }, 120_000);
});
