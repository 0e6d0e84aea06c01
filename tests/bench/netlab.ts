/**
 * Calls across real networks, measured: the network lab of tests/netlab (namespaces, NATs, our coturn relay
 * and the API on an "internet" between them, Chromium in the customer's and the jeweller's network).
 *
 *   - accept → first remote frame on both sides, relayed (both NATs symmetric: only the relay connects),
 *     and relayed over a 300 ms round trip with 3% loss on the customer's link (a direct path is measured on
 *     one machine by bench:call-events);
 *   - the customer's link down for 10 s: how long after it is back the media flows again (same call).
 *
 *   - the same relayed call between Firefox ESR and Chromium, each way; and with the customer's network dropping
 *     all UDP (TURN over TLS on 443).
 *
 * Run as root: npm run build && npm run bench:netlab   (RUNS=20 calls per case, OUTAGES=5; ONLY=<part of a
 * case's label> runs that case alone, MARKS=1 prints the jeweller's call marks)
 */
import os from 'node:os';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Browser as FirefoxBrowser, Page as FirefoxPage } from 'puppeteer-core';
import { buildLab, DEMO_PASSWORD, labUnavailable, ORIGIN, type Lab } from '../netlab/support/lab';
import { clickButton, postFromPage, waitForText } from '../e2e/support/firefox';
import { fmt, writeSection } from './lib/harness';

const RUNS = Number(process.env.RUNS ?? 20);
const OUTAGES = Number(process.env.OUTAGES ?? 5);
/** The jeweller picks up after the phone rang this long (a person takes a moment). */
const RING_MS = Number(process.env.RING_MS ?? 1500);
const SELLER_EMAIL = 'seller@nagai.test';
const PASSWORD = DEMO_PASSWORD;
const STORE = '/lakshmi-jewellers';
/** A pool of customers, used in turn: each places at most one call a minute (the initiation limit). */
const CUSTOMERS = 12;

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  return { n: s.length, median: q(0.5), p95: q(0.95), min: s[0], max: s[s.length - 1] };
}

async function context(browser: Browser): Promise<BrowserContext> {
  const ctx = await browser.newContext({ baseURL: ORIGIN, viewport: { width: 360, height: 740 } });
  await ctx.grantPermissions(['camera', 'microphone'], { origin: ORIGIN });
  await ctx.addInitScript(() => {
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
  return ctx;
}

async function post(page: Page, path: string, body: unknown) {
  return page.evaluate(
    async ([p, b]) => {
      const res = await fetch(p, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(b),
      });
      return res.status;
    },
    [path, body] as const,
  );
}

/** In a Firefox page: its peer connections, for their statistics (as `context` does for Chromium). */
const FIREFOX_WATCH = `(() => {
  const Original = window.RTCPeerConnection;
  const list = [];
  window.__pcs = list;
  window.RTCPeerConnection = class extends Original {
    constructor(config) { super(config); list.push(this); }
  };
})();`;

const REMOTE_PLAYING = `(() => {
  const v = document.querySelector('[data-testid="remote-video"]');
  return !!v && v.videoWidth > 0 && v.currentTime > 0;
})()`;

/** In a Firefox page: video frames decoded so far. */
const FRAMES_SCRIPT = `(async () => {
  let frames = 0;
  for (const pc of window.__pcs) {
    if (pc.connectionState === 'closed') continue;
    (await pc.getStats()).forEach((s) => {
      if (s.type === 'inbound-rtp' && s.kind === 'video') frames += Number(s.framesDecoded ?? 0);
    });
  }
  return frames;
})()`;

/** In a Firefox page: the connected pair's candidate types, as \`route\` says them. */
const ROUTE_SCRIPT = `(async () => {
  for (const pc of window.__pcs) {
    if (pc.connectionState !== 'connected') continue;
    const byId = new Map();
    (await pc.getStats()).forEach((s) => byId.set(s.id, s));
    for (const s of byId.values()) {
      if (s.type !== 'candidate-pair' || !(s.selected || s.nominated) || s.state !== 'succeeded') continue;
      const l = byId.get(s.localCandidateId)?.candidateType;
      const r = byId.get(s.remoteCandidateId)?.candidateType;
      return l === 'relay' || r === 'relay' ? 'relay' : l + '/' + r;
    }
  }
  return 'none';
})()`;

/** A fresh Firefox page at a phone's size, the watcher installed, at `path`. */
async function firefoxTab(browser: FirefoxBrowser, path: string): Promise<FirefoxPage> {
  const ctx = await browser.createBrowserContext();
  const page = await ctx.newPage();
  await page.evaluateOnNewDocument(FIREFOX_WATCH);
  await page.setViewport({ width: 360, height: 740 });
  await page.goto(`${ORIGIN}${path}`);
  return page;
}

const remoteVideo = (page: Page, ms: number) =>
  page.waitForFunction(
    () => {
      const v = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]');
      return !!v && v.videoWidth > 0 && v.currentTime > 0;
    },
    undefined,
    { timeout: ms },
  );

/** Video frames decoded so far on this page. */
const framesDecoded = (page: Page) =>
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

/** The candidate types of the connected pair ('host', 'srflx', 'prflx', 'relay'). */
const route = (page: Page) =>
  page.evaluate(async () => {
    for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
      if (pc.connectionState !== 'connected') continue;
      const byId = new Map<string, Record<string, unknown>>();
      (await pc.getStats()).forEach((s: Record<string, unknown>) => byId.set(s.id as string, s));
      for (const s of byId.values()) {
        if (s.type !== 'transport' || !s.selectedCandidatePairId) continue;
        const pair = byId.get(s.selectedCandidatePairId as string);
        if (!pair) continue;
        const local = byId.get(pair.localCandidateId as string);
        const l = local?.candidateType as string;
        const r = byId.get(pair.remoteCandidateId as string)?.candidateType as string;
        // A local relay reached over TCP or TLS says so ('relay/tls').
        const over = l === 'relay' && local?.relayProtocol && local.relayProtocol !== 'udp';
        return over
          ? `relay/${String(local.relayProtocol)}`
          : l === 'relay' || r === 'relay'
            ? 'relay'
            : `${l}/${r}`;
      }
    }
    return 'none';
  });

async function main() {
  const unavailable = labUnavailable();
  if (unavailable) throw new Error(`The network lab cannot run here: ${unavailable}`);
  const lab: Lab = buildLab();
  const results: Record<string, { frame: number[]; routes: Record<string, number> }> = {};
  const outages: number[] = [];
  const loadBefore = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  try {
    await lab.startRelay();
    await lab.startApi();
    const customerBrowser = await lab.launchBrowser('customer');
    const jewellerBrowser = await lab.launchBrowser('jeweller');

    const jCtx = await context(jewellerBrowser);
    const jeweller = await jCtx.newPage();
    await jeweller.goto('/login');
    if (
      (await post(jeweller, '/_api/auth/login_with_password', {
        email: SELLER_EMAIL,
        password: PASSWORD,
      })) !== 200
    )
      throw new Error('jeweller login failed');
    await jeweller.goto('/seller/history');
    await jeweller.getByRole('heading', { name: 'Call History', level: 1 }).waitFor({ timeout: 30_000 });

    const customers: { ctx: BrowserContext; name: string }[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const ctx = await context(customerBrowser);
      const page = await ctx.newPage();
      await page.goto('/login');
      const name = `Bench ${i} ${Math.random().toString(36).slice(2, 5)}`;
      const status = await post(page, '/_api/auth/register_with_password', {
        email: `lab-bench-${Date.now().toString(36)}-${i}@example.test`,
        password: 'Secret#2026',
        displayName: name,
      });
      if (status !== 201) throw new Error(`register ${status}`);
      await page.close();
      customers.push({ ctx, name });
    }
    let turn = 0;

    // Firefox on either side: a customer browser in the customer's network, a jeweller page in the jeweller's.
    const firefoxCustomer = await lab.launchFirefox('customer');
    const firefoxJeweller = await lab.launchFirefox('jeweller');
    const ffJeweller = await firefoxTab(firefoxJeweller, '/login');
    // Signed in, it waits on a blank page until its case (a second open app would ring too).
    if (
      (
        await postFromPage(ffJeweller, '/_api/auth/login_with_password', {
          email: SELLER_EMAIL,
          password: PASSWORD,
        })
      ).status !== 200
    )
      throw new Error('jeweller login in Firefox failed');
    await ffJeweller.goto('about:blank');
    const ffCustomers: { page: FirefoxPage; name: string }[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const page = await firefoxTab(firefoxCustomer, '/login');
      const name = `Bench FF ${i} ${Math.random().toString(36).slice(2, 5)}`;
      const reg = await postFromPage(page, '/_api/auth/register_with_password', {
        email: `lab-bench-ff-${Date.now().toString(36)}-${i}@example.test`,
        password: 'Secret#2026',
        displayName: name,
      });
      if (reg.status !== 201) throw new Error(`register in Firefox ${reg.status}`);
      ffCustomers.push({ page, name });
    }
    let ffTurn = 0;
    /** Which engine each side of the current case runs. */
    let engines: { customer: 'chromium' | 'firefox'; jeweller: 'chromium' | 'firefox' } = {
      customer: 'chromium',
      jeweller: 'chromium',
    };
    // Only one of the two jeweller pages is on the call history page at a time (the other would ring too).
    let jewellerOn: 'chromium' | 'firefox' = 'chromium';
    async function seat(kind: 'chromium' | 'firefox') {
      if (jewellerOn === kind) return;
      if (kind === 'firefox') {
        await jeweller.goto('about:blank');
        await ffJeweller.goto(`${ORIGIN}/seller/history`);
        await waitForText(ffJeweller, 'Call History', { timeout: 30_000 });
        await clickButton(ffJeweller, 'Tap to enable call ringing', { timeout: 3000 }).catch(() => undefined);
      } else {
        await ffJeweller.goto('about:blank');
        await jeweller.goto(`${ORIGIN}/seller/history`);
        await jeweller.getByRole('heading', { name: 'Call History', level: 1 }).waitFor({ timeout: 30_000 });
      }
      jewellerOn = kind;
    }

    /** A customer's side of a call, whichever engine. */
    interface Caller {
      playing: (ms: number) => Promise<unknown>;
      hangUp: () => Promise<void>;
      route: () => Promise<string>;
      frames: () => Promise<number>;
    }

    /** One call: ring, accept after RING_MS, both have video; returns the customer's side (call still up). */
    async function call(): Promise<{ c: Caller; frameMs: number; via: string }> {
      let c: Caller;
      let name: string;
      if (engines.customer === 'chromium') {
        const who = customers[turn++ % customers.length];
        const page = await who.ctx.newPage();
        await page.goto(STORE);
        await page.getByRole('button', { name: 'Video Call', exact: true }).click();
        name = who.name;
        c = {
          playing: (ms) => remoteVideo(page, ms),
          hangUp: async () => {
            await page
              .getByRole('button', { name: 'End call' })
              .click()
              .catch(() => undefined);
            await page.close();
          },
          route: () => route(page),
          frames: () => framesDecoded(page),
        };
      } else {
        const who = ffCustomers[ffTurn++ % ffCustomers.length];
        const page = who.page;
        await page.goto(`${ORIGIN}${STORE}`);
        await waitForText(page, 'Lakshmi Jewellers', { timeout: 30_000 });
        await clickButton(page, 'Video Call');
        name = who.name;
        c = {
          playing: (ms) => page.waitForFunction(REMOTE_PLAYING, { timeout: ms, polling: 20 }),
          hangUp: () => clickButton(page, 'End call', { timeout: 5000 }).catch(() => undefined),
          route: () => page.evaluate(ROUTE_SCRIPT) as Promise<string>,
          frames: () => page.evaluate(FRAMES_SCRIPT) as Promise<number>,
        };
      }
      let acceptedAt: number;
      let jPlaying: Promise<unknown>;
      if (engines.jeweller === 'chromium') {
        const dialog = jeweller.getByRole('alertdialog');
        await dialog.getByText(name).waitFor({ timeout: 15_000 });
        await new Promise((r) => setTimeout(r, RING_MS));
        acceptedAt = Date.now();
        await dialog.getByRole('button', { name: 'Accept' }).click();
        jPlaying = remoteVideo(jeweller, 30_000);
      } else {
        await waitForText(ffJeweller, name, { within: '[role="alertdialog"]', timeout: 15_000 });
        await new Promise((r) => setTimeout(r, RING_MS));
        acceptedAt = Date.now();
        await clickButton(ffJeweller, 'Accept', { within: '[role="alertdialog"]' });
        jPlaying = ffJeweller.waitForFunction(REMOTE_PLAYING, { timeout: 30_000, polling: 20 });
      }
      await Promise.all([c.playing(30_000), jPlaying]);
      const frameMs = Date.now() - acceptedAt;
      if (process.env.MARKS) {
        const script = `performance.getEntriesByType('mark').filter((m) => m.name.startsWith('call:'))
          .map((m) => [m.name, Math.round(performance.timeOrigin + m.startTime)])`;
        const j = (await (engines.jeweller === 'chromium'
          ? jeweller.evaluate(script)
          : ffJeweller.evaluate(script))) as [string, number][];
        console.log(
          'jeweller',
          j
            .filter(([, t]) => t >= acceptedAt - 3000)
            .map(([n, t]) => `${n.slice(5)}@${t - acceptedAt}`)
            .join(' '),
        );
      }
      return { c, frameMs, via: await c.route() };
    }
    async function hangUp(c: Caller) {
      await c.hangUp();
      if (jewellerOn === 'chromium')
        await jeweller
          .getByTestId('remote-video')
          .waitFor({ state: 'detached', timeout: 15_000 })
          .catch(() => undefined);
      else
        await ffJeweller
          .waitForFunction(`!document.querySelector('[data-testid="remote-video"]')`, { timeout: 15_000 })
          .catch(() => undefined);
      // Each customer's history shows the call as over before its next call.
      await new Promise((r) => setTimeout(r, 300));
    }

    const pair = (customer: 'chromium' | 'firefox', jewellerEngine: 'chromium' | 'firefox') => async () => {
      engines = { customer, jeweller: jewellerEngine };
      await seat(jewellerEngine);
    };
    const chromiumPair = pair('chromium', 'chromium');
    const cases: { label: string; setup: () => Promise<void>; teardown: () => Promise<void> }[] = [
      { label: 'relayed (symmetric NATs)', setup: chromiumPair, teardown: async () => undefined },
      {
        label: 'relayed, Firefox customer ↔ Chromium jeweller',
        setup: pair('firefox', 'chromium'),
        teardown: chromiumPair,
      },
      {
        label: 'relayed, Chromium customer ↔ Firefox jeweller',
        setup: pair('chromium', 'firefox'),
        teardown: chromiumPair,
      },
      {
        label: "relayed over TLS on 443 (the customer's network drops UDP)",
        setup: async () => lab.customerUdpBlocked(true),
        teardown: async () => lab.customerUdpBlocked(false),
      },
      {
        label: 'relayed, 300 ms round trip and 3% loss',
        setup: async () => {
          await lab.customerDelay(150);
          lab.customerLoss(3);
        },
        teardown: async () => {
          lab.customerLoss(0);
          await lab.customerDelay(0);
        },
      },
    ];
    const only = process.env.ONLY;
    for (const k of cases.filter((x) => !only || x.label.includes(only))) {
      await k.setup();
      const r = (results[k.label] = { frame: [] as number[], routes: {} as Record<string, number> });
      try {
        for (let i = 0; i < RUNS; i++) {
          try {
            const { c, frameMs, via } = await call();
            r.frame.push(frameMs);
            r.routes[via] = (r.routes[via] ?? 0) + 1;
            console.log(`${k.label} #${i + 1}: ${frameMs} ms via ${via}`);
            await hangUp(c);
          } catch (err) {
            console.error(`${k.label} #${i + 1} failed: ${(err as Error).message.split('\n')[0]}`);
          }
        }
      } finally {
        await k.teardown();
      }
    }

    for (let i = 0; i < OUTAGES; i++) {
      const { c } = await call();
      await new Promise((r) => setTimeout(r, 2000));
      lab.customerLink(false);
      await new Promise((r) => setTimeout(r, 10_000));
      const [cBefore, jBefore] = [await c.frames(), await framesDecoded(jeweller)];
      const upAt = Date.now();
      lab.customerLink(true);
      const back = async (frames: () => Promise<number>, before: number) => {
        for (;;) {
          if ((await frames()) > before + 5) return Date.now();
          if (Date.now() - upAt > 30_000) throw new Error('media did not come back');
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      const [cb, jb] = await Promise.all([
        back(c.frames, cBefore),
        back(() => framesDecoded(jeweller), jBefore),
      ]);
      outages.push(Math.max(cb, jb) - upAt);
      console.log(`outage #${i + 1}: media back on both sides ${Math.max(cb, jb) - upAt} ms after the link`);
      await hangUp(c);
    }
  } finally {
    lab.customerLink(true);
    await lab.down();
  }

  const row = (label: string, xs: number[], extra = '') => {
    if (!xs.length) return `| ${label} | 0 | – | – | – | ${extra} |`;
    const s = stats(xs);
    return `| ${label} | ${s.n} | ${fmt(s.median, 0)} | ${fmt(s.p95, 0)} | ${fmt(s.max, 0)} | ${extra} |`;
  };
  const md = `## netlab

Command (as root): \`npm run build && npm run bench:netlab\` (RUNS=${RUNS} calls per case, OUTAGES=${OUTAGES}). The network
lab of \`tests/netlab\`: the API and our coturn relay in a "public" namespace, the customer and the jeweller each in
their own namespace behind their own NAT, Debian Chromium in each (fake camera and microphone), or Firefox ESR on one side
(puppeteer-core over WebDriver BiDi, fake camera and microphone). The jeweller picks up after ${RING_MS} ms of ringing.
While it rings the caller sends its offer and the jeweller's browser sets it (relay allocated ahead); the answer
goes with the accept. The TLS case drops all UDP in the customer's network: the customer reaches the relay only over
TLS on 443 (route \`relay/tls\`). Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} shared cores; load
average ${loadBefore} → ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}.

| case: accept → first remote frame on both sides (ms) | calls | median | p95 | max | route (calls) |
| --- | --- | --- | --- | --- | --- |
${Object.entries(results)
  .map(([label, r]) =>
    row(
      label,
      r.frame,
      Object.entries(r.routes)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', '),
    ),
  )
  .join('\n')}

| the customer's link down for 10 s, then back (ms until both sides decode video again) | outages | median | p95 | max | |
| --- | --- | --- | --- | --- | --- |
${row('same call, ICE restart (no redial)', outages)}
`;
  writeSection('netlab', md);
  console.log(md);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
