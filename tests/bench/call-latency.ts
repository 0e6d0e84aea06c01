/**
 * Browser-measured call latency on the p2p provider: two Chromium contexts (customer and seller) with fake
 * camera and microphone against the production server on a fresh embedded database.
 *   1. initiate → the seller's incoming modal (incoming is polled every 4 s: mean ≈ 2 s, max ≤ 4 s + a request);
 *   2. accept → first decoded remote video frame (median target ≤ 1 s on loopback).
 * Run: npm run build && npm run bench:call-latency  (RUNS=10 by default)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { fmt, REPO, DEMO_PASSWORD, startServer, writeSection } from './lib/harness';

const RUNS = Number(process.env.RUNS ?? 10);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SELLER = 'seller@nagai.test';
const PASSWORD = DEMO_PASSWORD;

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
  return {
    n: s.length,
    mean: s.reduce((a, b) => a + b, 0) / s.length,
    median: q(0.5),
    p90: q(0.9),
    min: s[0],
    max: s[s.length - 1],
  };
}

/** Records (epoch ms) when the incoming modal appears and when the remote video presents its first frame. */
// A string, not a function: tsx's name-keeping helpers do not exist in the page.
const WATCHER = `
  (() => {
    const w = window;
    const now = () => performance.timeOrigin + performance.now();
    setInterval(() => {
      if (!w.__modalAt && document.querySelector('[role="alertdialog"]')) w.__modalAt = now();
      // The first decoded frame: the remote video has a size and its clock runs.
      const v = document.querySelector('[data-testid="remote-video"]');
      if (v && !w.__frameAt && v.videoWidth > 0 && v.currentTime > 0) w.__frameAt = now();
    }, 5);
  })();
`;

async function main() {
  if (!fs.existsSync(path.join(REPO, 'dist', 'index.html')))
    throw new Error('Build the PWA first: npm run build');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-bench-call-'));
  const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '' });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--allow-loopback-in-peer-connection',
    ],
  });
  const ctx = async (): Promise<BrowserContext> => {
    const c = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
    await c.grantPermissions(['camera', 'microphone']);
    await c.addInitScript({ content: WATCHER });
    return c;
  };
  const origin = { Origin: server.url };
  const loadBefore = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const modal: number[] = [];
  const frameCustomer: number[] = [];
  const frameSeller: number[] = [];
  const rejoinCustomer: number[] = [];
  const rejoinSeller: number[] = [];
  let failures = 0;
  const steps: Record<string, number[]> = {};
  const stepOrder: string[] = [];
  try {
    const sellerCtx = await ctx();
    await sellerCtx.request.post('/_api/auth/login_with_password', {
      data: { email: SELLER, password: PASSWORD },
      headers: origin,
    });
    for (let i = 0; i < RUNS; i++) {
      try {
        await oneRun(i);
      } catch (err) {
        failures++;
        console.error(`run ${i + 1} failed:`, (err as Error).message.split('\n')[0]);
      }
    }
    async function oneRun(i: number) {
      const seller: Page = await sellerCtx.newPage();
      await seller.goto('/seller/history');
      // Offered only where the browser did not let the ring sound on its own.
      await seller
        .getByRole('button', { name: 'Tap to enable call ringing' })
        .click({ timeout: 2_000 })
        .catch(() => undefined);

      const customerCtx = await ctx();
      const reg = await customerCtx.request.post('/_api/auth/register_with_password', {
        data: {
          email: `bench-${Date.now()}-${i}@example.test`,
          password: 'Secret#2026',
          displayName: `Bench ${i}`,
        },
        headers: origin,
      });
      if (reg.status() !== 201) throw new Error(`register: ${reg.status()} ${await reg.text()}`);
      const customer = await customerCtx.newPage();
      await customer.goto('/lakshmi-jewellers');
      // Let the seller's poll phase be random relative to the click, as in real life.
      await new Promise((r) => setTimeout(r, Math.random() * 4000));
      const [res] = await Promise.all([
        customer.waitForResponse((r) => r.url().includes('/_api/call/initiate')),
        customer.getByRole('button', { name: 'Video Call', exact: true }).click(),
      ]);
      const timing = res.request().timing();
      const initiatedAt = timing.startTime + timing.responseEnd;
      await seller.getByRole('alertdialog').waitFor({ timeout: 10_000 });
      const modalAt = await seller.evaluate(() => (window as unknown as { __modalAt: number }).__modalAt);
      modal.push(modalAt - initiatedAt);

      const acceptAt = Date.now();
      await seller.getByRole('button', { name: 'Accept' }).click();
      const frameAt = (p: Page) =>
        p
          .waitForFunction(() => (window as unknown as { __frameAt?: number }).__frameAt, undefined, {
            timeout: 30_000,
          })
          .then((h) => h.jsonValue() as Promise<number>);
      const [c, s] = await Promise.all([frameAt(customer), frameAt(seller)]).catch(async (err: unknown) => {
        for (const [who, p] of [
          ['customer', customer],
          ['seller', seller],
        ] as const) {
          const info = await p.evaluate(() => {
            const d = document.querySelector('[data-call-id]');
            const v = document.querySelector<HTMLVideoElement>('[data-testid="remote-video"]');
            return `${d?.getAttribute('data-call-state')} ${d?.getAttribute('data-video-phase')} video=${v?.videoWidth}x${v?.videoHeight} t=${v?.currentTime} text=${d?.textContent}`;
          });
          console.error(who, info);
        }
        throw err;
      });
      // The page's own timeline (performance marks 'call:*' and the signalling requests), relative to accept.
      const timeline = (p: Page) =>
        p.evaluate(() => {
          const origin = performance.timeOrigin;
          const marks = performance
            .getEntriesByType('mark')
            .filter((m) => m.name.startsWith('call:'))
            .map((m) => [m.name.slice(5), origin + m.startTime] as const);
          const posts = performance
            .getEntriesByType('resource')
            .filter((r) => r.name.includes('/_api/call/signal?') || r.name.endsWith('/_api/call/signal'));
          const polls = performance
            .getEntriesByType('resource')
            .filter((r) => /\/_api\/(call\/signals|video\/token|call\/status)/.test(r.name))
            .map(
              (r) =>
                [r.name.replace(/.*\/_api\/([a-z/]+).*/, '$1'), origin + r.startTime, r.duration] as const,
            );
          return { marks, signalPosts: posts.length, polls };
        });
      await new Promise((r) => setTimeout(r, 300));
      for (const [who, p] of [
        ['customer', customer],
        ['seller', seller],
      ] as const) {
        const t = await timeline(p);
        const firsts = new Map<string, number>();
        for (const [name, at] of t.marks) if (!firsts.has(name)) firsts.set(name, at);
        for (const [name, at] of firsts) {
          const key = `${who} ${name}`;
          if (!(key in steps)) stepOrder.push(key);
          (steps[key] ??= []).push(at - acceptAt);
        }
        if (process.env.VERBOSE === '2')
          console.log(
            `  ${who} requests: ${t.polls
              .filter(([, at]) => at > acceptAt - 500)
              .map(([n, at, d]) => `${n}@${fmt(at - acceptAt, 0)}+${fmt(d, 0)}`)
              .join(' ')}`,
          );
        if (process.env.VERBOSE)
          console.log(
            `  ${who}: ${t.marks.map(([n, at]) => `${n} ${fmt(at - acceptAt, 0)}`).join(', ')}; signal POSTs ${t.signalPosts}`,
          );
      }
      frameCustomer.push(c - acceptAt);
      frameSeller.push(s - acceptAt);
      console.log(
        `run ${i + 1}: modal ${fmt(modalAt - initiatedAt, 0)} ms, first frame customer ${fmt(c - acceptAt, 0)} ms / seller ${fmt(s - acceptAt, 0)} ms`,
      );

      // A reload during the call (a phone's browser reloading the tab, a person pulling to refresh): from the
      // reload until the other person's video plays again in the same call, each side in turn.
      for (const [page, into] of [
        [customer, rejoinCustomer],
        [seller, rejoinSeller],
      ] as const) {
        const reloadedAt = Date.now();
        await page.reload();
        into.push((await frameAt(page)) - reloadedAt);
      }
      console.log(
        `run ${i + 1}: reload → remote video again, customer ${fmt(rejoinCustomer.at(-1)!, 0)} ms / seller ${fmt(rejoinSeller.at(-1)!, 0)} ms`,
      );

      await customer.getByRole('button', { name: 'End call' }).click();
      await seller.getByTestId('remote-video').waitFor({ state: 'detached', timeout: 10_000 });
      await customerCtx.close();
      await seller.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const m = stats(modal);
  const fc = stats(frameCustomer);
  const fs_ = stats(frameSeller);
  const both = stats(frameCustomer.map((c, i) => Math.max(c, frameSeller[i])));
  const rc = stats(rejoinCustomer);
  const rs = stats(rejoinSeller);
  const row = (label: string, s: ReturnType<typeof stats>) =>
    `| ${label} | ${s.n} | ${fmt(s.mean, 0)} | ${fmt(s.median, 0)} | ${fmt(s.p90, 0)} | ${fmt(s.min, 0)} | ${fmt(s.max, 0)} |`;
  const md = `## call-latency

Command: \`npm run build && npm run bench:call-latency\` (RUNS=${RUNS}, ${failures} failed runs). Two headless Chromium contexts (Debian Chromium,
fake camera and microphone), the production server on a fresh embedded PGlite database, p2p provider over loopback,
customer \`/lakshmi-jewellers\` → seller on \`/seller/history\`. Measured ${new Date().toISOString().slice(0, 10)} on
${os.cpus().length} cores.

| measure (ms) | runs | mean | median | p90 | min | max |
| --- | --- | --- | --- | --- | --- | --- |
${row('initiate answered → seller modal shown', m)}
${row('accept click → first remote frame, customer', fc)}
${row('accept click → first remote frame, seller', fs_)}
${row('accept click → both sides have video', both)}
${row('customer reloads during the call → remote video again', rc)}
${row('seller reloads during the call → remote video again', rs)}

Where the time goes (median over the runs, ms after the accept click; performance marks \`call:*\` in the pages):

| side and step | median | p90 |
| --- | --- | --- |
${stepOrder
  .map((k) => ({ k, s: stats(steps[k]) }))
  .sort((a, b) => a.s.median - b.s.median)
  .map(({ k, s }) => `| ${k} | ${fmt(s.median, 0)} | ${fmt(s.p90, 0)} |`)
  .join('\n')}

Targets: modal mean ≈ half the 4 s incoming poll, never above 4 s + one request (max here ${fmt(m.max, 0)} ms); first remote frame
median ≤ 1 s on loopback — ${both.median <= 1000 ? 'met' : `NOT met on this run (${fmt(both.median, 0)} ms)`}; a reload during the call
shows the other person's video again in the same call within 1.5 s (median, issue #50) — ${Math.max(rc.median, rs.median) <= 1500 ? 'met' : `NOT met on this run (${fmt(Math.max(rc.median, rs.median), 0)} ms)`}. Load average during the run:
${loadBefore} → ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} (1/5/15 min). The path after the accept: the caller learns of it from its
250 ms signalling poll (the 2 s status poll still runs), fetches the token, sends the offer it prepared while ringing (media
captured and host candidates gathered ahead, carried inside the SDP), the seller — whose camera started at the accept click —
picks it up at its next 150 ms poll and answers, the caller picks the answer up at its next poll, then ICE/DTLS and the first
decoded frame. Each hop costs half a poll interval plus one request; on a loaded machine the requests and the main threads dominate.
`;
  writeSection('call-latency', md);
  console.log(md);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
