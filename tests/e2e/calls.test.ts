import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, registerViaApi, signInViaApi } from './support/accounts';
import {
  callMarks,
  expectAccessible,
  launchBrowser,
  newContext,
  refuseSoundWithoutGesture,
} from './support/browser';
import { endLiveCallsAndClose, expectVideoFlowing, remoteBrightness } from './support/call-phones';
import { CHROMIUM_TONE_HZ, expectToneReceived } from './support/received-tone';

/**
 * Live video calls end to end: two browser contexts (customer and seller), real WebRTC over loopback with
 * Chromium's fake camera and microphone, the production server with demo data (Lakshmi Jewellers, video on).
 */
const STORE = '/lakshmi-jewellers';
const SHOP = 'Lakshmi Jewellers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());
// A test that fails midway leaves its call live (and the demo jeweller busy): the next test's call would be
// refused. After each test, what its people left live is ended and their contexts closed.
const contexts = new Set<BrowserContext>();
afterEach(async () => {
  await endLiveCallsAndClose(contexts);
  contexts.clear();
});

/** Records every RTCPeerConnection of the page so the test can read receiver statistics. */
function recordPeerConnections(context: BrowserContext) {
  return context.addInitScript(() => {
    const Original = window.RTCPeerConnection;
    const list: RTCPeerConnection[] = [];
    (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = list;
    window.RTCPeerConnection = class extends Original {
      constructor(config?: RTCConfiguration) {
        super(config);
        list.push(this);
      }
    } as typeof RTCPeerConnection;
  });
}

async function mediaContext(): Promise<BrowserContext> {
  const context = await newContext(browser);
  contexts.add(context);
  await context.grantPermissions(['camera', 'microphone']);
  await recordPeerConnections(context);
  // As a phone's browser on a site it has not learnt to trust: sound waits for the user's first gesture.
  await refuseSoundWithoutGesture(context);
  return context;
}

async function sellerPage(path = '/seller/history'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await mediaContext();
  await signInViaApi(context, DEMO_ACCOUNTS.seller);
  const page = await context.newPage();
  await page.goto(path);
  return { context, page };
}

async function customerPage(): Promise<{ context: BrowserContext; page: Page; name: string }> {
  const context = await mediaContext();
  const name = `Kavya ${Math.random().toString(36).slice(2, 6)}`;
  await registerViaApi(context, { displayName: name });
  const page = await context.newPage();
  await page.goto(STORE);
  await page.getByRole('heading', { name: SHOP, level: 1 }).waitFor();
  return { context, page, name };
}

/** A real click unlocks audio (page.evaluate would count as a gesture and hide the problem). */
async function unlockRinging(page: Page) {
  const prompt = page.getByRole('button', { name: 'Tap to enable call ringing' });
  await prompt.waitFor();
  await prompt.click();
  await prompt.waitFor({ state: 'detached' });
}

async function startCall(page: Page) {
  await page.getByRole('button', { name: 'Video Call', exact: true }).click();
  await page.locator('[data-call-id]').waitFor(); // the call is placed: its screen has its id
}

function incomingDialog(page: Page) {
  return page.getByRole('alertdialog');
}

/** Audio energy the receiver decoded over `ms` (inbound-rtp totalAudioEnergy delta). */
function receivedAudioEnergy(page: Page, ms = 1500) {
  return page.evaluate(async (wait) => {
    const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.filter(
      (p) => p.connectionState === 'connected',
    );
    const read = async () => {
      let e = 0;
      for (const pc of pcs) {
        (await pc.getStats()).forEach((s: { type: string; kind?: string; totalAudioEnergy?: number }) => {
          if (s.type === 'inbound-rtp' && s.kind === 'audio') e += s.totalAudioEnergy ?? 0;
        });
      }
      return e;
    };
    const before = await read();
    await new Promise((r) => setTimeout(r, wait));
    return (await read()) - before;
  }, ms);
}

describe('video calls', () => {
  it('customer calls from the storefront, the seller answers, both see and hear, toggles and hang-up work, history shows it', async () => {
    const seller = await sellerPage('/seller/history');
    await seller.page.getByRole('heading', { name: 'Call History', level: 1 }).waitFor();
    await unlockRinging(seller.page);
    await expectAccessible(seller.page, '/seller/history');

    const customer = await customerPage();
    await expectAccessible(customer.page, STORE);
    // The moments themselves, read in the pages (the same clock as the test's): the customer's tap, and the
    // modal appearing in the jeweller's page, not when the test gets round to looking at them.
    await customer.page.evaluate(() => {
      const w = window as unknown as { __tapAt?: number };
      document.addEventListener('click', () => (w.__tapAt ??= Date.now()), { capture: true });
    });
    await seller.page.evaluate(() => {
      const w = window as unknown as { __ringAt?: number };
      new MutationObserver((_, observer) => {
        if (!document.querySelector('[role="alertdialog"]')) return;
        w.__ringAt = Date.now();
        observer.disconnect();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await startCall(customer.page);
    // The customer's call screen shows while it rings.
    await customer.page.getByText('Loading video call...').waitFor();

    // The ring reaches the jeweller's open app within 3 s of the customer's tap: the initiate request, then the
    // incoming event on the stream (bench:call-latency: 0.3-0.6 s from the initiate's answer to the modal on 2
    // busy cores). A ring left to the 4 s incoming poll, or lost, fails.
    const dialog = incomingDialog(seller.page);
    await dialog.waitFor({ timeout: 10_000 });
    const tapAt = await customer.page.evaluate(() => (window as unknown as { __tapAt: number }).__tapAt);
    const ringAt = await seller.page.evaluate(() => (window as unknown as { __ringAt: number }).__ringAt);
    const ringMs = ringAt - tapAt;
    console.log(`tap → ringing modal: ${ringMs} ms`);
    expect(ringMs).toBeLessThan(3000);
    await dialog.getByText(customer.name).waitFor();
    await dialog.getByText('Incoming Video Call...').waitFor();
    await seller.page.waitForFunction(
      () => document.querySelector('[role="alertdialog"]')?.getAttribute('data-audio-state') === 'running',
    );
    expect(await seller.page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Accept');
    await expectAccessible(seller.page, 'incoming call modal');

    await dialog.getByRole('button', { name: 'Accept' }).click();
    await dialog.waitFor({ state: 'detached' });

    await Promise.all([expectVideoFlowing(seller.page), expectVideoFlowing(customer.page)]);
    await seller.page.getByText('In Call').waitFor();
    await customer.page.getByText('In Call').waitFor();
    await expectAccessible(customer.page, 'call modal (customer)');

    // Camera: the seller receives black frames once the customer turns the camera off.
    expect(await remoteBrightness(seller.page)).toBeGreaterThan(20);
    await customer.page.getByRole('button', { name: 'Turn off camera' }).click();
    await customer.page.getByRole('button', { name: 'Turn on camera' }).waitFor();
    await seller.page.waitForFunction(
      () => {
        const v = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]')!;
        const c = document.createElement('canvas');
        c.width = 32;
        c.height = 24;
        const g = c.getContext('2d')!;
        g.drawImage(v, 0, 0, 32, 24);
        const d = g.getImageData(0, 0, 32, 24).data;
        let sum = 0;
        for (let i = 0; i < d.length; i += 4) sum += d[i] + d[i + 1] + d[i + 2];
        return sum / (d.length / 4) / 3 < 5;
      },
      undefined,
      { timeout: 20_000 },
    );
    await customer.page.getByRole('button', { name: 'Turn on camera' }).click();
    await seller.page.waitForFunction(
      () => {
        const v = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]')!;
        const c = document.createElement('canvas');
        c.width = 32;
        c.height = 24;
        const g = c.getContext('2d')!;
        g.drawImage(v, 0, 0, 32, 24);
        const d = g.getImageData(0, 0, 32, 24).data;
        let sum = 0;
        for (let i = 0; i < d.length; i += 4) sum += d[i] + d[i + 1] + d[i + 2];
        return sum / (d.length / 4) / 3 > 20;
      },
      undefined,
      { timeout: 20_000 },
    );

    // Microphone: the customer hears the seller's microphone (its 400 Hz beep) until the seller mutes.
    await expectToneReceived('customer', (s) => customer.page.evaluate(s), CHROMIUM_TONE_HZ);
    const audible = await receivedAudioEnergy(customer.page, 2000);
    expect(audible).toBeGreaterThan(0);
    await seller.page.getByRole('button', { name: 'Mute microphone' }).click();
    await seller.page.getByRole('button', { name: 'Unmute microphone' }).waitFor();
    await new Promise((r) => setTimeout(r, 500));
    const muted = await receivedAudioEnergy(customer.page, 2000);
    expect(muted).toBeLessThan(audible / 10);

    // Hang-up ends the call on both sides.
    await customer.page.getByRole('button', { name: 'End call' }).click();
    await customer.page.getByText('Call has ended.').first().waitFor();
    await customer.page.getByTestId('remote-video').waitFor({ state: 'detached' });
    await seller.page.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 10_000 });
    await seller.page.getByText('In Call').waitFor({ state: 'detached' });

    // Both history pages show the call with a duration.
    await customer.page.goto('/call-history');
    const customerRow = customer.page.getByRole('listitem').filter({ hasText: SHOP }).first();
    await customerRow.waitFor();
    await customerRow.getByText('Ended').waitFor();
    expect(await customerRow.getByTestId('call-duration').textContent()).toMatch(/^\d\d:\d\d$/);
    expect(await customerRow.getByTestId('call-duration').textContent()).not.toBe('00:00');
    await expectAccessible(customer.page, '/call-history');

    await seller.page.reload();
    const sellerRow = seller.page.getByRole('listitem').filter({ hasText: customer.name }).first();
    await sellerRow.waitFor();
    await sellerRow.getByText('Ended').waitFor();
    expect(await sellerRow.getByTestId('call-duration').textContent()).not.toBe('00:00');

    await customer.context.close();
    await seller.context.close();
  }, 240_000);

  it('reloading the page during a call rejoins the same call, on either side, without a second call', async () => {
    const seller = await sellerPage('/seller/history');
    const customer = await customerPage();
    await startCall(customer.page);
    const dialog = incomingDialog(seller.page);
    await dialog.waitFor({ timeout: 10_000 });
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await Promise.all([expectVideoFlowing(seller.page), expectVideoFlowing(customer.page)]);

    for (const [who, page, other] of [
      ['customer', customer.page, seller.page],
      ['seller', seller.page, customer.page],
    ] as const) {
      // The product's target, the other person's video again within 1.5 s of the reload (median), is measured
      // by bench:call-latency (docs/benchmarks.md). Here the same call must come back on its own within 5 s:
      // the page names its live call and one request resumes it (GET /_api/call/resume), so a rejoin that
      // never happens, or waits on the old path (the history, then the token, then the signals), fails.
      const reloadedAt = Date.now();
      await page.reload();
      await page.waitForFunction(
        () => {
          const v = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]');
          return !!v && v.videoWidth > 0 && v.currentTime > 0;
        },
        undefined,
        // The bound above, fixed.
        { timeout: 5_000 },
      );
      console.log(
        `${who} reload: remote video again ${Date.now() - reloadedAt} ms after the reload began; ${await callMarks(page)}`,
      );
      await expectVideoFlowing(other);
    }
    const calls = await customer.page.evaluate(async () => {
      const res = await fetch('/_api/calls/history');
      return ((await res.json()) as { calls: { status: string }[] }).calls;
    });
    expect(calls).toHaveLength(1);
    expect(calls[0].status).toBe('active');
    await customer.page.getByRole('button', { name: 'End call' }).click();
    await customer.page.getByText('Call has ended.').first().waitFor();
    await seller.page.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 10_000 });
    await customer.context.close();
    await seller.context.close();
  }, 180_000);

  it("the jeweller's accept answers after the call turned active on the event stream: one connection, the one the accept's answer belongs to", async () => {
    const seller = await sellerPage('/seller/history');
    const customer = await customerPage();
    // The accept's answer (with a token) held back 0.6 s: the stream says 'active' first, the room asks for a token
    // too. Starting again on the second would close the connection the accept's answer belongs to (§19).
    await seller.page.route('**/_api/call/respond', async (route) => {
      const response = await route.fetch();
      await new Promise((r) => setTimeout(r, 600));
      await route.fulfill({ response });
    });
    await startCall(customer.page);
    await incomingDialog(seller.page).getByRole('button', { name: 'Accept' }).click({ timeout: 10_000 });
    await Promise.all([expectVideoFlowing(seller.page), expectVideoFlowing(customer.page)]);
    for (const p of [seller.page, customer.page])
      await p.getByRole('button', { name: 'End call' }).waitFor({ timeout: 10_000 });
    // The room started once, with the peer prepared while it rang.
    const marks = await callMarks(seller.page);
    expect(
      [/\btoken@/g, /\bprepared-adopted@/g].map((m) => marks.match(m)?.length),
      marks,
    ).toEqual([1, 1]);
    await customer.page.getByRole('button', { name: 'End call' }).click();
    await seller.page.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 10_000 });
  }, 120_000);

  it('declining ends the call for the customer', async () => {
    const seller = await sellerPage('/seller/history');
    const customer = await customerPage();
    await startCall(customer.page);
    const dialog = incomingDialog(seller.page);
    await dialog.waitFor({ timeout: 10_000 });
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await dialog.waitFor({ state: 'detached' });
    await customer.page.getByText('Call has ended.').first().waitFor({ timeout: 10_000 });
    await customer.page.getByText('Loading video call...').waitFor({ state: 'detached' });
    // Why it ended, and what to do next: call again, or browse the shop.
    const ended = customer.page.getByRole('dialog', { name: 'The call did not go through' });
    await ended.getByText(`${SHOP} couldn't take your call now.`).waitFor();
    await ended.getByRole('button', { name: 'Try again' }).waitFor();
    await expectAccessible(customer.page, 'declined call');
    await ended.getByRole('link', { name: 'Browse the shop' }).click();
    await ended.waitFor({ state: 'detached' });
    await customer.page.getByRole('heading', { name: SHOP, level: 1 }).waitFor();
    await customer.page.goto('/call-history');
    await customer.page
      .getByRole('listitem')
      .filter({ hasText: SHOP })
      .first()
      .getByText('Declined')
      .waitFor();
    await customer.context.close();
    await seller.context.close();
  }, 120_000);

  it('a hidden seller tab still rings (title changes); the caller closing the tab ends the call', async () => {
    const seller = await sellerPage('/seller/history');
    await seller.page.getByRole('heading', { name: 'Call History', level: 1 }).waitFor();
    const title = await seller.page.title();
    // Emulate a background tab.
    await seller.page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    const customer = await customerPage();
    await startCall(customer.page);
    await incomingDialog(seller.page).waitFor({ timeout: 10_000 });
    await seller.page.waitForFunction(() => document.title === '📞 Incoming call — Nagai');

    // The closing page ends the call (its pagehide beacon): the ring stops within 20 s, before the 30 s ring
    // timeout would stop it anyway.
    await customer.page.close({ runBeforeUnload: true });
    await incomingDialog(seller.page).waitFor({ state: 'detached', timeout: 20_000 });
    await seller.page.waitForFunction((t) => document.title === t, title);
    await customer.context.close();
    await seller.context.close();
  }, 120_000);

  it('an unanswered call becomes missed after 30 s', async () => {
    const seller = await sellerPage('/seller/history');
    const customer = await customerPage();
    // The server's ring timeout (tests/e2e/support/global-setup.ts passes it on).
    const ringMs = Number(process.env.E2E_CALL_RING_TIMEOUT_MS ?? '30000');
    const beforeStart = Date.now();
    await startCall(customer.page);
    // The call exists by now (its screen has its id): its ring timeout runs from before this.
    const placedBy = Date.now();
    const dialog = incomingDialog(seller.page);
    await dialog.waitFor({ timeout: 10_000 });
    // The server expires the call ringMs after it started, not before; it notices by its sweep (every 5 s,
    // CALLS_SWEEP_INTERVAL_MS) or a poll of the call, and both sides hear of it by the event stream. So the ring
    // stops within the ring timeout + 5 s sweep + 3 s to deliver and draw it; a call left ringing fails.
    await dialog.waitFor({ state: 'detached', timeout: ringMs + 20_000 });
    expect(Date.now() - beforeStart).toBeGreaterThanOrEqual(ringMs);
    expect(Date.now() - placedBy).toBeLessThan(ringMs + 5000 + 3000);
    await customer.page.getByText('Loading video call...').waitFor({ state: 'detached', timeout: 10_000 });
    await customer.page.getByRole('dialog').getByText(`No answer from ${SHOP}.`).waitFor();
    await customer.page.goto('/call-history');
    await customer.page.getByRole('listitem').filter({ hasText: SHOP }).first().getByText('Missed').waitFor();
    await customer.context.close();
    await seller.context.close();
  }, 120_000);
});
