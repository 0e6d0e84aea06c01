import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inCi } from '../support/ci';
import { buildLab, DEMO_PASSWORD, labUnavailable, ORIGIN, type Lab } from './support/lab';
import {
  clickButton,
  firefoxPage,
  postFromPage,
  waitForText,
  type FirefoxPage,
} from '../e2e/support/firefox';

/**
 * Calls between real networks: a customer and a jeweller, each behind their own symmetric NAT, the API and
 * our coturn relay on the "internet" between them (tests/netlab/support/lab.ts). Real Chromium, real media,
 * real packets; nothing is a double.
 */
const unavailable = labUnavailable();
// CI installs everything the lab needs (.ci/run): there a missing piece is a failure, not a skip.
if (unavailable && inCi()) throw new Error(`The network lab cannot run in CI: ${unavailable}`);
if (unavailable) {
  // Loud on purpose: these tests prove the relay; a machine that cannot run them must say so.
  console.warn(`\n*** NETWORK LAB SKIPPED: ${unavailable} ***\n`);
}

const SELLER_EMAIL = 'seller@nagai.test';
const PASSWORD = DEMO_PASSWORD;
const STORE = '/lakshmi-jewellers';
const SHOP = 'Lakshmi Jewellers';
/** The family guest's thin link (issue #52), each way: under one guest link's video cap of 300 kbit/s × 2. */
const GUEST_KBIT = 500;

let lab: Lab;
let customerBrowser: Browser;
let jewellerBrowser: Browser;

describe.skipIf(!!unavailable)('calls across two symmetric NATs', () => {
  beforeAll(async () => {
    lab = buildLab();
    await lab.startRelay();
    await lab.startApi();
    customerBrowser = await lab.launchBrowser('customer');
    jewellerBrowser = await lab.launchBrowser('jeweller');
  }, 360_000);
  afterAll(async () => {
    await lab?.down();
  });

  /** A page of the app in this browser, with every RTCPeerConnection recorded for its statistics. */
  async function appContext(browser: Browser): Promise<BrowserContext> {
    const context = await browser.newContext({
      baseURL: ORIGIN,
      viewport: { width: 360, height: 740 },
      locale: 'en-IN',
    });
    await context.grantPermissions(['camera', 'microphone'], { origin: ORIGIN });
    await context.addInitScript(() => {
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
    return context;
  }

  /** Calls the API from inside the page (the browser is the only thing that can reach it here). */
  async function apiFromPage(page: Page, path: string, body: unknown) {
    return page.evaluate(
      async ([p, b]) => {
        const res = await fetch(p, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(b),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      },
      [path, body] as const,
    );
  }

  async function jeweller(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await appContext(jewellerBrowser);
    const page = await context.newPage();
    await page.goto('/login');
    const res = await apiFromPage(page, '/_api/auth/login_with_password', {
      email: SELLER_EMAIL,
      password: PASSWORD,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await page.goto('/seller/history');
    await page.getByRole('heading', { name: 'Call History', level: 1 }).waitFor({ timeout: 30_000 });
    const chip = page.getByRole('button', { name: 'Tap to enable call ringing' });
    if (await chip.isVisible().catch(() => false)) await chip.click();
    // The jeweller's open app makes the shop reachable once its first poll is recorded (issue #40: a shop with
    // no app open and no push is not rung); the customer's storefront, loaded next, then offers the call.
    await expect
      .poll(
        () =>
          page.evaluate(async (slug) => {
            const res = await fetch(`/_api/seller/store?slug=${slug}`);
            return ((await res.json()) as { sellerProfile: { callState: { state: string } } }).sellerProfile
              .callState.state;
          }, STORE.slice(1)),
        { timeout: 20_000, interval: 500 },
      )
      .toBe('available');
    return { context, page };
  }

  async function customer(): Promise<{ context: BrowserContext; page: Page; name: string }> {
    const context = await appContext(customerBrowser);
    const page = await context.newPage();
    await page.goto('/login');
    const name = `Kavya ${Math.random().toString(36).slice(2, 6)}`;
    const res = await apiFromPage(page, '/_api/auth/register_with_password', {
      email: `lab-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.test`,
      password: 'Secret#2026',
      displayName: name,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await page.goto(STORE);
    await page.getByRole('heading', { name: SHOP, level: 1 }).waitFor({ timeout: 30_000 });
    return { context, page, name };
  }

  /** Ends whatever call the customer still has (a failed test must not leave the shop busy) and closes both. */
  async function hangUpAndClose(c: { context: BrowserContext; page: Page }, j: { context: BrowserContext }) {
    // The history answers { calls } (CallHistoryResponse). A clean-up that fails is reported, not swallowed:
    // a call left open keeps the demo shop busy for the next test.
    const left = await c.page
      .evaluate(async () => {
        const res = await fetch('/_api/calls/history');
        if (!res.ok) throw new Error(`calls/history answered ${res.status}`);
        const { calls } = (await res.json()) as { calls: { callId: number; status: string }[] };
        const open = calls.filter((call) => ['pending', 'ringing', 'active'].includes(call.status));
        for (const call of open) {
          const end = await fetch('/_api/call/end', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ callId: call.callId }),
          });
          if (!end.ok) throw new Error(`call/end of ${call.callId} answered ${end.status}`);
        }
        return open.length;
      })
      .catch((err: unknown) => err);
    if (left instanceof Error && !/closed|Target/.test(left.message))
      console.error(`netlab clean-up could not end the customer's calls: ${left.message}`);
    await c.context.close().catch(() => undefined);
    await j.context.close().catch(() => undefined);
  }

  /**
   * Customer rings, jeweller accepts; returns when the jeweller pressed Accept (epoch ms). `ringMs`: how long
   * the phone rings before the jeweller picks up (a person takes a moment; the caller prepares meanwhile).
   */
  async function connectCall(
    c: { page: Page; name: string },
    j: { page: Page },
    ringMs = 0,
  ): Promise<number> {
    await c.page.getByRole('button', { name: 'Video Call', exact: true }).click();
    const dialog = j.page.getByRole('alertdialog');
    await dialog.waitFor({ timeout: 10_000 });
    await dialog.getByText(c.name).waitFor();
    if (ringMs) await new Promise((r) => setTimeout(r, ringMs));
    const acceptedAt = Date.now();
    await dialog.getByRole('button', { name: 'Accept' }).click();
    return acceptedAt;
  }

  /** Resolves when the remote video is decoding frames; rejects after `ms`. */
  function remoteVideo(page: Page, ms: number) {
    return page.waitForFunction(
      () => {
        const v = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]');
        return !!v && v.videoWidth > 0 && v.currentTime > 0;
      },
      undefined,
      { timeout: ms },
    );
  }

  /** The candidate types of the connected peer's selected pair, local and remote. */
  function selectedPair(page: Page) {
    return page.evaluate(async () => {
      const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.filter(
        (p) => p.connectionState === 'connected',
      );
      for (const pc of pcs) {
        const stats = await pc.getStats();
        const byId = new Map<string, Record<string, unknown>>();
        stats.forEach((s: Record<string, unknown>) => byId.set(s.id as string, s));
        for (const s of byId.values()) {
          if (s.type !== 'transport' || !s.selectedCandidatePairId) continue;
          const pair = byId.get(s.selectedCandidatePairId as string);
          if (!pair) continue;
          const local = byId.get(pair.localCandidateId as string);
          return {
            local: local?.candidateType as string,
            remote: byId.get(pair.remoteCandidateId as string)?.candidateType as string,
            // How this side reaches its relay, for a local relay candidate: 'udp', 'tcp' or 'tls'.
            relayProtocol: (local?.relayProtocol as string | undefined) ?? null,
          };
        }
      }
      return null;
    });
  }

  it('connects through our relay, and only through it', async () => {
    const j = await jeweller();
    const c = await customer();
    const acceptedAt = await connectCall(c, j);
    await Promise.all([remoteVideo(c.page, 20_000), remoteVideo(j.page, 20_000)]);
    const firstFrameMs = Date.now() - acceptedAt;
    for (const page of [c.page, j.page]) {
      const pair = await selectedPair(page);
      expect(pair, lab.logs().slice(-4000)).not.toBeNull();
      // Behind two symmetric NATs a path exists only through the relay: on each side one end is a relay.
      expect([pair!.local, pair!.remote]).toContain('relay');
    }
    expect(firstFrameMs).toBeLessThan(10_000);
    await c.page.getByRole('button', { name: 'End call' }).click();
    await j.page.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 10_000 });
    await c.context.close();
    await j.context.close();
  }, 240_000);

  it("the customer's network drops all UDP: the call connects through the relay over TLS on 443", async () => {
    lab.customerUdpBlocked(true);
    const j = await jeweller();
    const c = await customer();
    try {
      const acceptedAt = await connectCall(c, j);
      await Promise.all([remoteVideo(c.page, 20_000), remoteVideo(j.page, 20_000)]);
      const firstFrameMs = Date.now() - acceptedAt;
      console.log(
        `UDP dropped, TURN over TLS: accept to first remote frame on both sides ${firstFrameMs} ms`,
      );
      // The customer's only way out is TCP: its end of the pair is a relay it reaches over TLS.
      const pair = await selectedPair(c.page);
      expect(pair, lab.logs().slice(-4000)).toMatchObject({ local: 'relay', relayProtocol: 'tls' });
      expect(firstFrameMs).toBeLessThan(10_000);
      await c.page.getByRole('button', { name: 'End call' }).click();
      await j.page.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 10_000 });
    } finally {
      lab.customerUdpBlocked(false);
      await hangUpAndClose(c, j);
    }
  }, 240_000);

  /** Video frames and audio energy this page has received so far (inbound-rtp totals). */
  function received(page: Page) {
    return page.evaluate(async () => {
      let frames = 0;
      let energy = 0;
      let concealed = 0;
      let samples = 0;
      for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
        if (pc.connectionState === 'closed') continue;
        (await pc.getStats()).forEach((s: Record<string, unknown>) => {
          if (s.type !== 'inbound-rtp') return;
          if (s.kind === 'video') frames += (s.framesDecoded as number) ?? 0;
          if (s.kind === 'audio') {
            energy += (s.totalAudioEnergy as number) ?? 0;
            concealed += (s.concealedSamples as number) ?? 0;
            samples += (s.totalSamplesReceived as number) ?? 0;
          }
        });
      }
      return { frames, energy, concealed, samples };
    });
  }

  /** Resolves once more video frames than `after` arrive; rejects after `ms`. */
  async function framesAfter(page: Page, after: number, ms: number) {
    const deadline = Date.now() + ms;
    for (;;) {
      const now = (await received(page)).frames;
      if (now > after + 10) return Date.now();
      if (Date.now() > deadline) throw new Error(`no new video frames within ${ms} ms (${now} <= ${after})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The customer's calls in their history (to count call records). */
  async function historyCount(page: Page) {
    return page.evaluate(async () => {
      const res = await fetch('/_api/calls/history');
      return ((await res.json()) as { calls: unknown[] }).calls.length;
    });
  }

  it("the customer's link down for 10 s: the same call recovers, no redial, no second call record", async () => {
    const j = await jeweller();
    const c = await customer();
    try {
      const initiations: string[] = [];
      c.page.on('request', (r) => {
        if (r.url().includes('/_api/call/initiate')) initiations.push(r.url());
      });
      await connectCall(c, j);
      await Promise.all([remoteVideo(c.page, 20_000), remoteVideo(j.page, 20_000)]);
      await new Promise((r) => setTimeout(r, 2000));

      lab.customerLink(false);
      const downAt = Date.now();
      // Both sides say what is happening, with a running timer: the customer's own network is gone, the
      // jeweller waits for the customer.
      await c.page
        .getByTestId('reconnecting')
        .filter({ hasText: /^Reconnecting… \d:\d\d$/ })
        .waitFor({ timeout: 9_500 });
      await j.page
        .getByTestId('reconnecting')
        .filter({ hasText: new RegExp(`^${c.name}'s connection dropped, waiting… \\d:\\d\\d$`) })
        .waitFor({ timeout: Math.max(1000, 10_000 - (Date.now() - downAt)) });
      await new Promise((r) => setTimeout(r, Math.max(0, 10_000 - (Date.now() - downAt))));
      const [cBefore, jBefore] = [(await received(c.page)).frames, (await received(j.page)).frames];
      const upAt = Date.now();
      lab.customerLink(true);

      const [cBack, jBack] = await Promise.all([
        framesAfter(c.page, cBefore, 20_000),
        framesAfter(j.page, jBefore, 20_000),
      ]);
      console.log(
        `reconnect after a 10 s outage: customer ${cBack - upAt} ms, jeweller ${jBack - upAt} ms after link up`,
      );
      await c.page.getByTestId('reconnecting').waitFor({ state: 'detached', timeout: 5000 });
      await j.page.getByTestId('reconnecting').waitFor({ state: 'detached', timeout: 5000 });
      expect(initiations).toHaveLength(1);
      expect(await historyCount(c.page)).toBe(1);
      await c.page.getByTestId('remote-video').waitFor();
      await j.page.getByTestId('remote-video').waitFor();
      await c.page.getByRole('button', { name: 'End call' }).click();
    } finally {
      lab.customerLink(true);
      await hangUpAndClose(c, j);
    }
  }, 240_000);

  /** In a Firefox page: every RTCPeerConnection, for its statistics. */
  const FIREFOX_WATCH = `(() => {
    const Original = window.RTCPeerConnection;
    const list = [];
    window.__pcs = list;
    window.RTCPeerConnection = class extends Original {
      constructor(config) { super(config); list.push(this); }
    };
  })();`;

  /** Video frames this Firefox page decoded so far. */
  const firefoxFrames = (page: FirefoxPage) =>
    page.evaluate(async () => {
      let frames = 0;
      for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
        if (pc.connectionState === 'closed') continue;
        (await pc.getStats()).forEach((s: Record<string, unknown>) => {
          if (s.type === 'inbound-rtp' && s.kind === 'video') frames += Number(s.framesDecoded ?? 0);
        });
      }
      return frames;
    });

  it('a Firefox customer and a Chromium jeweller through the relay: ring, accept, video both ways, back after a 10 s outage', async () => {
    const firefox = await lab.launchFirefox('customer');
    const j = await jeweller();
    const { context, page } = await firefoxPage(firefox, ORIGIN, { mobile: true, watch: FIREFOX_WATCH });
    try {
      const name = `Meena ${Math.random().toString(36).slice(2, 6)}`;
      const reg = await postFromPage(page, '/_api/auth/register_with_password', {
        email: `lab-ff-${Date.now().toString(36)}@example.test`,
        password: 'Secret#2026',
        displayName: name,
      });
      expect(reg.status, JSON.stringify(reg.body)).toBe(201);
      await page.goto(`${ORIGIN}${STORE}`);
      await waitForText(page, SHOP, { timeout: 30_000 });

      // Ring, accept.
      await clickButton(page, 'Video Call');
      const dialog = j.page.getByRole('alertdialog');
      await dialog
        .getByText(name)
        .waitFor({ timeout: 15_000 })
        .catch(async (err: Error) => {
          const seen = await page
            .evaluate(() => document.body.innerText.replace(/\s+/g, ' ').slice(0, 1500))
            .catch(() => '?');
          throw new Error(`${err.message}\nthe customer's page showed: ${seen}`);
        });
      const acceptedAt = Date.now();
      await dialog.getByRole('button', { name: 'Accept' }).click();
      await Promise.all([
        page.waitForFunction(
          () => {
            const v = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]');
            return !!v && v.videoWidth > 0 && v.currentTime > 0;
          },
          { timeout: 20_000, polling: 50 },
        ),
        remoteVideo(j.page, 20_000),
      ]);
      console.log(
        `Firefox customer ↔ Chromium jeweller, relayed: first remote frame on both sides ${Date.now() - acceptedAt} ms after the accept`,
      );
      // Behind two symmetric NATs only the relay joins them.
      const pair = await selectedPair(j.page);
      expect([pair?.local, pair?.remote], lab.logs().slice(-4000)).toContain('relay');

      // The customer's network gone for 10 s: the same call comes back on both sides.
      await new Promise((r) => setTimeout(r, 2000));
      lab.customerLink(false);
      await new Promise((r) => setTimeout(r, 10_000));
      const [cBefore, jBefore] = [await firefoxFrames(page), (await received(j.page)).frames];
      const upAt = Date.now();
      lab.customerLink(true);
      const firefoxBack = async () => {
        for (;;) {
          if ((await firefoxFrames(page)) > cBefore + 10) return Date.now();
          if (Date.now() - upAt > 20_000) throw new Error('no new video frames in Firefox within 20 s');
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      const [cBack, jBack] = await Promise.all([firefoxBack(), framesAfter(j.page, jBefore, 20_000)]);
      console.log(
        `Firefox ↔ Chromium, 10 s outage: customer ${cBack - upAt} ms, jeweller ${jBack - upAt} ms after link up`,
      );
      // The same call: the customer placed one.
      const placed = await page.evaluate(async () => {
        const res = await fetch('/_api/calls/history');
        return ((await res.json()) as { calls: unknown[] }).calls.length;
      });
      expect(placed).toBe(1);
      await clickButton(page, 'End call');
      await j.page.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 10_000 });
    } finally {
      lab.customerLink(true);
      await page
        .evaluate(async () => {
          const res = await fetch('/_api/calls/history');
          const { calls } = (await res.json()) as { calls: { callId: number; status: string }[] };
          for (const call of calls.filter((x) => ['pending', 'ringing', 'active'].includes(x.status)))
            await fetch('/_api/call/end', {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({ callId: call.callId }),
            });
        })
        .catch(() => undefined);
      await context.close().catch(() => undefined);
      await firefox.close().catch(() => undefined);
      await j.context.close().catch(() => undefined);
    }
  }, 300_000);

  it('300 ms round trip and 3% loss: video within 4 s of accepting (median of three calls, none over 8 s), audio continuous', async () => {
    await lab.customerDelay(150);
    lab.customerLoss(3);
    const j = await jeweller();
    const c = await customer();
    try {
      // Three calls in a row (3% random loss makes one call's figure noisy: a lost packet of a request costs
      // a retransmission); the jeweller picks up each after two seconds of ringing.
      const firstFrames: number[] = [];
      let acceptedAt = 0;
      for (let i = 0; i < 3; i++) {
        if (i > 0) {
          await c.page.getByRole('button', { name: 'End call' }).click();
          await j.page.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 15_000 });
          // The call's summary comes up on both sides; closing it returns to the shop.
          for (const p of [c.page, j.page]) {
            const summary = p.getByTestId('call-ended');
            await summary.waitFor({ timeout: 15_000 });
            await summary.getByRole('button', { name: 'Close' }).click();
          }
          await c.page.getByRole('button', { name: 'Video Call', exact: true }).waitFor({ timeout: 15_000 });
        }
        acceptedAt = await connectCall(c, j, 2000);
        await Promise.all([remoteVideo(c.page, 20_000), remoteVideo(j.page, 20_000)]);
        firstFrames.push(Date.now() - acceptedAt);
      }
      console.log(
        `300 ms RTT, 3% loss: accept to first remote frame on both sides ${firstFrames.join(', ')} ms`,
      );
      for (const [who, page] of [
        ['customer', c.page],
        ['jeweller', j.page],
      ] as const) {
        const marks = await page.evaluate(() =>
          performance
            .getEntriesByType('mark')
            .filter((m) => m.name.startsWith('call:'))
            .map((m) => [m.name, Math.round(performance.timeOrigin + m.startTime)] as const),
        );
        console.log(
          who,
          marks
            .filter(([, t]) => t >= acceptedAt - 3000)
            .map(([n, t]) => `${n.slice(5)}@${t - acceptedAt}`)
            .join(' '),
        );
      }
      const a = await received(j.page);
      await new Promise((r) => setTimeout(r, 5000));
      const b = await received(j.page);
      const concealment = (b.concealed - a.concealed) / Math.max(1, b.samples - a.samples);
      console.log(
        `audio over 5 s: ${b.samples - a.samples} samples, ${(concealment * 100).toFixed(1)}% concealed; ${b.frames - a.frames} video frames`,
      );
      // Audio keeps coming: energy, samples, and loss concealment on a small share only.
      expect(b.energy - a.energy).toBeGreaterThan(0);
      expect(b.samples - a.samples).toBeGreaterThan(0);
      expect(concealment).toBeLessThan(0.15);
      // The aim is 2 s: the caller's offer went out while the phone rang and the jeweller's browser set it; the
      // answer travels inside the accept and reaches the caller in the same event-stream batch as 'accepted';
      // then relayed ICE, DTLS and the first key frame over the slow link. bench:netlab measures it (median
      // 1.9 s at load average 16-22 on 2 shared cores, 2.7 s before the offer went out while ringing); here,
      // where the rest of the suite shares the cores, the median of three must stay under 4 s and no call may
      // take 8 s (fixed figures, as the title says: bench:netlab's p95 was 3.5 s and its max 4.2 s).
      const sorted = [...firstFrames].sort((x, y) => x - y);
      expect(sorted[1]).toBeLessThan(4000);
      expect(sorted[2]).toBeLessThan(8000);
      // The quality indicator follows the link: a 300 ms round trip with 3% loss is past "good" on either count
      // (call-stats.ts qualityOf: fair above 300 ms or 2% loss), so the customer's side must come to say so
      // while the call runs (the stats are read every few seconds; a window's loss may dip under 2%, the round
      // trip stays at about 300 ms). An indicator stuck on "good" fails here.
      await expect
        .poll(() => c.page.getByTestId('connection-quality').getAttribute('data-quality'), {
          timeout: 20_000,
        })
        .toMatch(/^(fair|poor)$/);
      await c.page.getByRole('button', { name: 'End call' }).click();
    } finally {
      lab.customerLoss(0);
      await lab.customerDelay(0);
      await hangUpAndClose(c, j);
    }
  }, 360_000);

  it('a 256 kbit/s link: the call stays up, with a quality indicator on both sides', async () => {
    lab.customerRate(256);
    const j = await jeweller();
    const c = await customer();
    try {
      await connectCall(c, j);
      await Promise.all([remoteVideo(c.page, 30_000), remoteVideo(j.page, 30_000)]);
      const a = await received(c.page);
      await new Promise((r) => setTimeout(r, 5_000));
      const b = await received(c.page);
      console.log(
        `256 kbit/s: ${b.frames - a.frames} frames and ${b.samples - a.samples} audio samples in 5 s`,
      );
      expect(b.samples - a.samples).toBeGreaterThan(0);
      expect(b.energy - a.energy).toBeGreaterThan(0);
      // Each side shows one level (call-stats.ts qualityOf: from the round trip and the loss, which this link's
      // queue moves from moment to moment), by its icon and in words: the words are exactly the label of the
      // level the indicator shows, read in one go.
      for (const page of [c.page, j.page]) {
        const indicator = page.getByTestId('connection-quality');
        await indicator.waitFor();
        const shown = await indicator.evaluate((el) => ({
          level: el.getAttribute('data-quality'),
          words: el.textContent,
        }));
        console.log(`256 kbit/s: ${page === c.page ? 'customer' : 'jeweller'} shows ${shown.level}`);
        expect(shown.level).toMatch(/^(good|fair|poor)$/);
        expect(shown.words).toBe(`Connection: ${shown.level}`);
      }
      await c.page.getByTestId('remote-video').waitFor();
      await c.page.getByRole('button', { name: 'End call' }).click();
    } finally {
      lab.customerRate(undefined);
      await hangUpAndClose(c, j);
    }
  }, 240_000);

  /**
   * In the page: for each connected peer connection with a family tile's stream, the selected pair's
   * candidate types and the video bitrate received and sent over `ms` (kbit/s).
   */
  function meshLinks(page: Page, ms: number) {
    return page.evaluate(async (window_) => {
      const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.filter(
        (p) => p.connectionState === 'connected',
      );
      const read = async (pc: RTCPeerConnection) => {
        const byId = new Map<string, Record<string, unknown>>();
        (await pc.getStats()).forEach((s: Record<string, unknown>) => byId.set(s.id as string, s));
        let inBytes = 0;
        let outBytes = 0;
        let pair: string[] = [];
        for (const s of byId.values()) {
          if (s.type === 'inbound-rtp' && s.kind === 'video') inBytes += Number(s.bytesReceived ?? 0);
          if (s.type === 'outbound-rtp' && s.kind === 'video') outBytes += Number(s.bytesSent ?? 0);
          if (s.type === 'transport' && s.selectedCandidatePairId) {
            const p = byId.get(s.selectedCandidatePairId as string);
            pair = [p?.localCandidateId, p?.remoteCandidateId].map(
              (id) => byId.get(id as string)?.candidateType as string,
            );
          }
        }
        return { inBytes, outBytes, pair };
      };
      const before = await Promise.all(pcs.map(read));
      await new Promise((r) => setTimeout(r, window_));
      const after = await Promise.all(pcs.map(read));
      return after.map((a, i) => ({
        pair: a.pair,
        inKbit: Math.round(((a.inBytes - before[i]!.inBytes) * 8) / window_),
        outKbit: Math.round(((a.outBytes - before[i]!.outBytes) * 8) / window_),
      }));
    }, ms);
  }

  /** The parties whose family tile plays in the page, frames advancing (one's own tile left out). */
  function playingTiles(page: Page) {
    return page.evaluate(async () => {
      const tiles = [
        ...document.querySelectorAll<HTMLElement>('[data-testid="family-tile"]:not([data-self])'),
      ];
      const at = tiles.map((t) => t.querySelector('video')!.currentTime);
      await new Promise((r) => setTimeout(r, 600));
      return tiles
        .filter((t, i) => {
          const v = t.querySelector('video')!;
          return v.videoWidth > 0 && !v.paused && v.currentTime > at[i]!;
        })
        .map((t) => t.dataset.party!);
    });
  }
  /** Waits until the tiles of `count` parties play in the page (give-up wait: `ms`). */
  async function tilesPlaying(page: Page, count: number, ms: number, label: string) {
    const deadline = Date.now() + ms;
    let seen: string[] = [];
    while (Date.now() < deadline) {
      seen = await playingTiles(page);
      if (seen.length >= count) return seen;
    }
    throw new Error(`${label}: tiles playing ${JSON.stringify(seen)}, expected ${count}`);
  }

  it('a guest behind a third NAT on a 500 kbit/s link: admitted, sees both, is seen, gets the piece shown, leaves cleanly', async () => {
    const guestBrowser = await lab.launchBrowser('guest');
    const j = await jeweller();
    const c = await customer();
    const g = await appContext(guestBrowser);
    try {
      await connectCall(c, j);
      await Promise.all([remoteVideo(c.page, 20_000), remoteVideo(j.page, 20_000)]);

      // The customer's link for one person.
      await c.page.getByRole('button', { name: 'Invite family' }).click();
      const dialog = c.page.getByRole('dialog', { name: 'Invite family to this call' });
      const link = await dialog.getByTestId('family-link').inputValue({ timeout: 10_000 });
      await dialog.getByRole('button', { name: 'Close' }).click();

      // The guest opens it (the app installed on an open link), then the link goes thin for the call.
      const guest = await g.newPage();
      await guest.goto(new URL(link).pathname);
      await guest
        .getByRole('heading', { name: `Join the video call at ${SHOP}` })
        .waitFor({ timeout: 30_000 });
      await guest.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      lab.guestRate(GUEST_KBIT);
      await guest.getByRole('textbox', { name: 'Your name' }).fill('Amma');
      await guest.getByRole('button', { name: 'Ask to join' }).click();
      await j.page.getByTestId('family-requests').getByText('Amma').waitFor({ timeout: 10_000 });
      const admitAt = Date.now();
      await j.page.getByRole('button', { name: 'Admit Amma' }).click();

      // Everyone sees everyone: the guest both, the customer and the jeweller the guest; the call's own video on.
      await tilesPlaying(guest, 2, 30_000, 'the guest sees the customer and the jeweller');
      console.log(`relayed guest on ${GUEST_KBIT} kbit/s: admit → both videos ${Date.now() - admitAt} ms`);
      const [seenByC, seenByJ] = await Promise.all([
        tilesPlaying(c.page, 1, 20_000, 'the customer sees the guest'),
        tilesPlaying(j.page, 1, 20_000, 'the jeweller sees the guest'),
        remoteVideo(c.page, 5_000),
        remoteVideo(j.page, 5_000),
      ]);
      expect(seenByC).toEqual(seenByJ);

      // Each of the guest's two connections goes through the relay (one end of its selected pair).
      const links = await meshLinks(guest, 5_000);
      console.log(`relayed guest on ${GUEST_KBIT} kbit/s, per link over 5 s: ${JSON.stringify(links)}`);
      expect(links, lab.logs().slice(-4000)).toHaveLength(2);
      for (const l of links) expect(l.pair).toContain('relay');

      // The jeweller shows a piece: it reaches the guest.
      const shown = await j.page.evaluate(async () => {
        const callId = Number(document.querySelector('[data-call-id]')?.getAttribute('data-call-id'));
        const res = await fetch(`/_api/call/products?callId=${callId}`);
        const { products } = (await res.json()) as { products: { id: number; name: string }[] };
        const share = await fetch('/_api/call/share', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ callId, productIds: [products[0]!.id] }),
        });
        return { status: share.status, name: products[0]!.name };
      });
      expect(shown.status).toBe(201);
      await guest.getByTestId('guest-piece').getByText(shown.name).waitFor({ timeout: 10_000 });

      // The guest leaves: the call goes on, both ways.
      await guest.getByRole('button', { name: 'Leave' }).click();
      await guest.getByText('You left the call.').waitFor({ timeout: 10_000 });
      for (const page of [c.page, j.page])
        await page.getByTestId('family-tile').waitFor({ state: 'detached', timeout: 10_000 });
      const [cBefore, jBefore] = [(await received(c.page)).frames, (await received(j.page)).frames];
      await Promise.all([framesAfter(c.page, cBefore, 5_000), framesAfter(j.page, jBefore, 5_000)]);
      const pair = await selectedPair(c.page);
      expect([pair?.local, pair?.remote]).toContain('relay');
      await c.page.getByRole('button', { name: 'End call' }).click();
    } finally {
      lab.guestRate(undefined);
      await g.close().catch(() => undefined);
      await guestBrowser.close().catch(() => undefined);
      await hangUpAndClose(c, j);
    }
  }, 240_000);

  it('with the relay switched off the call cannot connect: both sides are told within 15 s', async () => {
    await lab.stopRelay();
    const j = await jeweller();
    const c = await customer();
    try {
      const acceptedAt = await connectCall(c, j);
      const message = 'The call could not connect: no network path between you and the other side.';
      await c.page.getByText(message).first().waitFor({ timeout: 15_000 });
      const toldAfter = Date.now() - acceptedAt;
      console.log(`no route: the customer was told ${toldAfter} ms after the accept`);
      expect(toldAfter).toBeLessThan(15_000);
      // The jeweller's side ends too, saying why; the call is over on the server.
      await j.page
        .getByText(message)
        .first()
        .waitFor({ timeout: 15_000 - (Date.now() - acceptedAt) });
      await j.page.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 5000 });
      const status = await c.page.evaluate(async () => {
        const res = await fetch('/_api/calls/history');
        return ((await res.json()) as { calls: { status: string }[] }).calls[0]?.status;
      });
      expect(status).toBe('ended');
    } finally {
      await hangUpAndClose(c, j);
      await lab.startRelay();
    }
  }, 240_000);
});
