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
import { fmt, REPO, startServer, writeSection } from './lib/harness';

const RUNS = Number(process.env.RUNS ?? 10);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SELLER = 'seller@nagai.test';
const PASSWORD = 'Nagai@2026';

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
  const modal: number[] = [];
  const frameCustomer: number[] = [];
  const frameSeller: number[] = [];
  let failures = 0;
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
      await seller.getByRole('button', { name: 'Tap to enable call ringing' }).click();

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
      frameCustomer.push(c - acceptAt);
      frameSeller.push(s - acceptAt);
      console.log(
        `run ${i + 1}: modal ${fmt(modalAt - initiatedAt, 0)} ms, first frame customer ${fmt(c - acceptAt, 0)} ms / seller ${fmt(s - acceptAt, 0)} ms`,
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

Targets: modal mean ≈ half the 4 s incoming poll, never above 4 s + one request (max here ${fmt(m.max, 0)} ms); first remote frame
median ≤ 1 s — NOT met yet. The customer learns of the accept from its 2 s status poll (spec §7) before it offers (0–2 s), but the
remaining 2–5 s lie between that and the first frame (token, media, offer/answer relay and ICE) and are still to be profiled.
`;
  writeSection('call-latency', md);
  console.log(md);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
