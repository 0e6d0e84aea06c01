import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, registerViaApi, signInViaApi } from './support/accounts';
import { expectStill, launchBrowser, newContext, refuseSoundWithoutGesture } from './support/browser';
import { REMOTE_VIDEO_TIMEOUT_MS } from '../support/bounds';

/**
 * The event stream in the browser: the seller's app rings from an event, not a poll; a stream cut in the
 * middle of a call leaves the call to polling without losing or doubling anything; a blocked stream costs
 * speed, never the call; and a ring the jeweller cannot hear is still seen.
 */
const STORE = '/lakshmi-jewellers';
const SHOP = 'Lakshmi Jewellers';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

/**
 * Every EventSource of the page, with the ids of the events it delivered, and a way to cut them as a dropped
 * connection would (closed, then the error the browser fires when a stream dies).
 */
function recordStreams(context: BrowserContext) {
  return context.addInitScript(() => {
    const Original = window.EventSource;
    const w = window as unknown as { __streams: EventSource[]; __eventIds: string[]; __cut: () => void };
    w.__streams = [];
    w.__eventIds = [];
    w.__cut = () => {
      for (const es of w.__streams) {
        if (es.readyState === 2) continue;
        es.close();
        es.dispatchEvent(new Event('error'));
      }
    };
    window.EventSource = class extends Original {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        w.__streams.push(this);
        for (const name of ['incoming', 'call', 'signal'])
          this.addEventListener(name, (e) => w.__eventIds.push((e as MessageEvent).lastEventId));
      }
    } as typeof EventSource;
  });
}

async function mediaContext(): Promise<BrowserContext> {
  const context = await newContext(browser);
  await context.grantPermissions(['camera', 'microphone']);
  await recordStreams(context);
  return context;
}

async function seller(
  setup?: (context: BrowserContext) => Promise<void>,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await mediaContext();
  await setup?.(context);
  await signInViaApi(context, DEMO_ACCOUNTS.seller);
  const page = await context.newPage();
  await page.goto('/seller/history');
  await page.getByRole('heading', { name: 'Call History', level: 1 }).waitFor();
  return { context, page };
}

async function customer(): Promise<{ context: BrowserContext; page: Page; name: string }> {
  const context = await mediaContext();
  const name = `Meena ${Math.random().toString(36).slice(2, 6)}`;
  await registerViaApi(context, { displayName: name });
  const page = await context.newPage();
  await page.goto(STORE);
  await page.getByRole('heading', { name: SHOP, level: 1 }).waitFor();
  return { context, page, name };
}

/** Requests of the page to a path, counted as they are sent. */
function counter(page: Page, path: string) {
  const seen: number[] = [];
  page.on('request', (r: Request) => {
    if (new URL(r.url()).pathname === path) seen.push(Date.now());
  });
  const after = (t: number) => seen.filter((x) => x >= t);
  return { count: () => seen.length, since: (t: number) => after(t).length, after };
}

function remoteVideo(page: Page, ms = REMOTE_VIDEO_TIMEOUT_MS) {
  return page.waitForFunction(
    () => {
      const v = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]');
      return !!v && v.videoWidth > 0 && v.currentTime > 0;
    },
    undefined,
    { timeout: ms },
  );
}

async function streamOpen(page: Page) {
  await page.waitForFunction(() =>
    (window as unknown as { __streams: EventSource[] }).__streams.some((es) => es.readyState === 1),
  );
}

/** Ends whatever the customer still has going, so the demo shop is free for the next test. */
async function endLiveCalls(page: Page) {
  await page
    .evaluate(async () => {
      const res = await fetch('/_api/calls/history');
      const { calls } = (await res.json()) as { calls: { callId: number; status: string }[] };
      for (const c of calls)
        if (['pending', 'ringing', 'active'].includes(c.status))
          await fetch('/_api/call/end', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ callId: c.callId }),
          });
    })
    .catch(() => undefined);
}

describe('call events in the browser', () => {
  it('rings from the stream; a stream cut mid-call leaves the call to polling, nothing lost or doubled', async () => {
    const s = await seller();
    const c = await customer();
    try {
      await streamOpen(s.page);
      const sellerPolls = counter(s.page, '/_api/call/incoming');
      const unlock = s.page.getByRole('button', { name: 'Tap to enable call ringing' });
      if (await unlock.isVisible().catch(() => false)) await unlock.click();

      const pollsBefore = sellerPolls.count();
      const tappedAt = Date.now();
      await c.page.getByRole('button', { name: 'Video Call', exact: true }).click();
      const dialog = s.page.getByRole('alertdialog');
      await dialog.getByText(c.name).waitFor({ timeout: 20_000 });
      const ringMs = Date.now() - tappedAt;
      console.log(`tap → ringing modal through the stream: ${ringMs} ms`);
      // Rung by the event, not by a poll: the seller's app asked for nothing in between.
      expect(sellerPolls.count()).toBe(pollsBefore);
      await dialog.getByRole('button', { name: 'Accept' }).click();
      await Promise.all([remoteVideo(s.page), remoteVideo(c.page)]);

      // The connection carrying both streams drops, and no new one can be made for now.
      await s.context.route('**/_api/events*', (r) => r.abort());
      await c.context.route('**/_api/events*', (r) => r.abort());
      const cutAt = Date.now();
      await s.page.evaluate(() => (window as unknown as { __cut: () => void }).__cut());
      await c.page.evaluate(() => (window as unknown as { __cut: () => void }).__cut());
      const sellerStatus = counter(s.page, '/_api/call/status');
      // Polling takes over at its full pace (status every 2 s, CALL_LIMITS.statusPollMs) and the call goes on.
      // When it starts depends on how soon the page notices the cut (later on a loaded machine); the pace is
      // measured between the polls: the 2 s timer plus 3 s for a late timer or a slow answer on a loaded machine
      // (3.7 s was seen with the suite on both cores). Left at the 30 s pace of an open stream, it fails.
      await expect.poll(() => sellerStatus.since(cutAt), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      const [first, second] = sellerStatus.after(cutAt);
      console.log(`status polls after the cut: ${second - first} ms apart`);
      expect(second - first).toBeLessThan(2000 + 3000);
      await remoteVideo(s.page, 10_000);
      await remoteVideo(c.page, 10_000);

      // The customer hangs up while the streams are down: the seller learns of it by polling, within its 2 s
      // status poll plus 4 s to answer and draw it.
      await c.page.getByRole('button', { name: 'End call' }).click();
      await s.page.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 2000 + 4000 });

      // The stream comes back and resumes after the last event it delivered: nothing is delivered twice.
      await s.context.unroute('**/_api/events*');
      await s.page.waitForFunction(
        () => (window as unknown as { __streams: EventSource[] }).__streams.some((es) => es.readyState === 1),
        undefined,
        { timeout: 30_000 },
      );
      await s.page.waitForTimeout(500);
      const ids = await s.page.evaluate(() => (window as unknown as { __eventIds: string[] }).__eventIds);
      const numeric = ids.map(Number);
      expect(new Set(numeric).size).toBe(numeric.length);
      expect(numeric).toEqual([...numeric].sort((a, b) => a - b));
    } finally {
      await endLiveCalls(c.page);
      await c.context.close();
      await s.context.close();
    }
  }, 240_000);

  it('with the stream blocked from the start, calls still ring and connect by polling', async () => {
    const s = await seller();
    await s.context.route('**/_api/events*', (r) => r.abort());
    await s.page.reload();
    const c = await customer();
    await c.context.route('**/_api/events*', (r) => r.abort());
    try {
      const tappedAt = Date.now();
      await c.page.getByRole('button', { name: 'Video Call', exact: true }).click();
      const dialog = s.page.getByRole('alertdialog');
      // By the seller's incoming poll alone (every 4 s, CALL_LIMITS.incomingPollMs): within the poll plus 6 s for
      // the customer's initiate request and drawing the modal on a loaded machine.
      await dialog.getByText(c.name).waitFor({ timeout: 4000 + 6000 });
      console.log(`tap → ringing modal by polling alone: ${Date.now() - tappedAt} ms`);
      await dialog.getByRole('button', { name: 'Accept' }).click();
      await Promise.all([remoteVideo(s.page), remoteVideo(c.page)]);
      // The customer learns of the end by its 2 s status poll: within it plus 4 s to answer and draw it.
      await s.page.getByRole('button', { name: 'End call' }).click();
      await c.page.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 2000 + 4000 });
      const streams = await s.page.evaluate(
        () => (window as unknown as { __streams: EventSource[] }).__streams.length,
      );
      expect(streams).toBeGreaterThan(0);
    } finally {
      await endLiveCalls(c.page);
      await c.context.close();
      await s.context.close();
    }
  }, 240_000);

  it('a ring the browser will not sound is seen and felt: the title flashes and the phone vibrates', async () => {
    // A phone's vibration motor, recorded (the page's calls to it are what is checked).
    const s = await seller(async (context) => {
      await refuseSoundWithoutGesture(context);
      await context.addInitScript(() => {
        const w = window as unknown as { __vibrations: unknown[] };
        w.__vibrations = [];
        Object.defineProperty(navigator, 'vibrate', {
          configurable: true,
          value: (pattern: unknown) => {
            w.__vibrations.push(pattern);
            return true;
          },
        });
      });
    });
    const c = await customer();
    try {
      // The prompt is offered once per launch: after a reload it is not offered again, and sound stays off.
      const prompt = s.page.getByRole('button', { name: 'Tap to enable call ringing' });
      await prompt.waitFor();
      await s.page.reload();
      await s.page.getByRole('heading', { name: 'Call History', level: 1 }).waitFor();
      await expectStill(() => prompt.count(), 0, 1500, 'the ringing prompt after a reload');

      const title = await s.page.title();
      await c.page.getByRole('button', { name: 'Video Call', exact: true }).click();
      await s.page.getByRole('alertdialog').getByText(c.name).waitFor({ timeout: 20_000 });
      const titles = new Set<string>();
      for (let i = 0; i < 16; i++) {
        titles.add(await s.page.title());
        await s.page.waitForTimeout(200);
      }
      expect(titles).toEqual(new Set([title, '📞 Incoming call — Nagai']));
      const vibrations = await s.page.evaluate(
        () => (window as unknown as { __vibrations: unknown[] }).__vibrations,
      );
      expect(vibrations[0]).toEqual([400, 200, 400]);
      await s.page.getByRole('alertdialog').getByRole('button', { name: 'Decline' }).click();
      await s.page.waitForFunction((t) => document.title === t, title);
    } finally {
      await endLiveCalls(c.page);
      await c.context.close();
      await s.context.close();
    }
  }, 180_000);

  it('where sound starts by itself, "Tap to enable call ringing" never shows', async () => {
    const autoplay = await launchBrowser(['--autoplay-policy=no-user-gesture-required']);
    try {
      const context = await newContext(autoplay);
      await signInViaApi(context, DEMO_ACCOUNTS.seller);
      const page = await context.newPage();
      await page.goto('/seller/history');
      await page.getByRole('heading', { name: 'Call History', level: 1 }).waitFor();
      await expectStill(
        () => page.getByRole('button', { name: 'Tap to enable call ringing' }).count(),
        0,
        1500,
        'the ringing prompt where sound starts by itself',
      );
      await context.close();
    } finally {
      await autoplay.close();
    }
  }, 120_000);
});
