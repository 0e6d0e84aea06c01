/**
 * The app's renderer against an earlier build, served side by side in one run (issue #33): this checkout's build
 * (React DOM) and another checkout's (BENCH_BEFORE_DIR, built there with its own packages), each on its own
 * production server with its own embedded database and the demo shops. Their runs alternate, page by page, so
 * both meet the same moments of a machine whose two cores other work shares.
 *
 * - Lighthouse's mobile preset on the landing, the marketplace and a product page: BENCH_COMPARE_RUNS (5) runs of
 *   each build, after one unmeasured run each; medians.
 * - The script a visitor's 360 px phone transfers for /marketplace by network idle (service worker off), with
 *   its gzip size (tests/bench/bundle.ts).
 * - Time until the app runs (`<html data-app-ready>`), with DevTools' slow 4G and 4× CPU applied to Chromium
 *   (Lighthouse's applied-throttling figures: 562.5 ms latency, 1,474.6 kbit/s down, 675 kbit/s up), a fresh
 *   profile per load, BENCH_COMPARE_RUNS loads of each page per build; medians.
 *
 * Run: npm run build; then a checkout of the earlier commit, built:
 *   git worktree add /tmp/nagai-before <commit> && (cd /tmp/nagai-before && npm ci && npm run build)
 *   BENCH_BEFORE_DIR=/tmp/nagai-before BENCH_BEFORE_LABEL='Preact (<commit>)' npx tsx tests/bench/renderer-compare.ts
 * Writes the 'renderer' section of docs/benchmarks.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { productPath } from '../../api/contract/product-path';
import { PHONE_CONTEXT, SCRIPT_TRANSFER_BUDGET_BYTES, kib, measureInitialJs, type InitialJs } from './bundle';
import { REPO, startServer, writeSection, type ServerProcess } from './lib/harness';
import { median, once, type Run } from './lib/lighthouse-run';

const RUNS = Number(process.env.BENCH_COMPARE_RUNS ?? 5);
const BEFORE_DIR = process.env.BENCH_BEFORE_DIR;
const BEFORE_LABEL = process.env.BENCH_BEFORE_LABEL ?? 'before';
const AFTER_LABEL = process.env.BENCH_AFTER_LABEL ?? 'React 19 (this checkout)';
const BUDGET = { score: 95, a11y: 100, lcp: 2000, tbt: 200, cls: 0.02 };

interface Build {
  label: string;
  dir: string;
  server: ServerProcess;
  dataDir: string;
  pages: string[];
}

async function firstProductPath(base: string): Promise<string> {
  const res = await fetch(`${base}/_api/products/list?page=1&limit=1`);
  const body = (await res.json()) as { products?: { id: number; name: string }[] };
  const p = body.products?.[0];
  if (!p) throw new Error('no product in the demo data');
  return productPath(p);
}

async function start(label: string, dir: string): Promise<Build> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-bench-compare-'));
  const server = await startServer({ DATA_DIR: dataDir }, dir);
  return { label, dir, server, dataDir, pages: ['/', '/marketplace', await firstProductPath(server.url)] };
}

/** Milliseconds from the navigation's start until the app runs, with slow 4G and 4× CPU applied. */
async function timeToAppReady(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext(PHONE_CONTEXT);
  try {
    const page = await context.newPage();
    await page.addInitScript(() => {
      // Before the document has its root element: watch the document's attributes all the way down.
      new MutationObserver((_, observer) => {
        if (document.documentElement?.dataset.appReady !== 'true') return;
        (window as unknown as { appReadyAt: number }).appReadyAt = performance.now();
        observer.disconnect();
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-app-ready'] });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 562.5,
      downloadThroughput: (1474.56 * 1024) / 8,
      uploadThroughput: (675 * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(
      () => (window as unknown as { appReadyAt?: number }).appReadyAt !== undefined,
      null,
      {
        timeout: 60_000,
      },
    );
    return await page.evaluate(() => (window as unknown as { appReadyAt: number }).appReadyAt);
  } finally {
    await context.close();
  }
}

const f0 = (n: number) => n.toFixed(0);

async function main() {
  if (!BEFORE_DIR) throw new Error('BENCH_BEFORE_DIR: a built checkout of the earlier commit');
  for (const dir of [REPO, BEFORE_DIR])
    if (!fs.existsSync(path.join(dir, 'dist', 'index.html'))) throw new Error(`build first in ${dir}`);
  delete process.env.DATABASE_URL; // embedded databases with the demo shops
  const before = await start(BEFORE_LABEL, path.resolve(BEFORE_DIR));
  const after = await start(AFTER_LABEL, REPO);
  const builds = [before, after];
  const lh = new Map<string, Run[]>();
  const ready = new Map<string, number[]>();
  const key = (b: Build, i: number) => `${b.label}|${i}`;
  let transfer: Map<string, InitialJs>;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    transfer = new Map();
    for (const b of builds) {
      const context = await browser.newContext({ baseURL: b.server.url, ...PHONE_CONTEXT });
      try {
        transfer.set(b.label, await measureInitialJs(context, '/marketplace', path.join(b.dir, 'dist')));
      } finally {
        await context.close();
      }
    }
    // One unmeasured run of each page and build: the servers' first-request work is not in run 1.
    for (const [i] of before.pages.entries())
      for (const b of builds) await once(`${b.server.url}${b.pages[i]}`);
    for (let run = 0; run < RUNS; run++) {
      // Alternate which build goes first.
      const order = run % 2 ? [after, before] : [before, after];
      for (const [i] of before.pages.entries()) {
        for (const b of order) {
          const r = await once(`${b.server.url}${b.pages[i]}`);
          lh.set(key(b, i), [...(lh.get(key(b, i)) ?? []), r]);
          console.log(
            `${b.label} ${b.pages[i]} run ${run + 1}: performance ${r.score}, TBT ${f0(r.tbt)} ms, LCP ${f0(r.lcp)} ms, CLS ${r.cls.toFixed(3)}, a11y ${r.a11y}`,
          );
        }
        for (const b of order) {
          const ms = await timeToAppReady(browser, `${b.server.url}${b.pages[i]}`);
          ready.set(key(b, i), [...(ready.get(key(b, i)) ?? []), ms]);
          console.log(`${b.label} ${b.pages[i]} load ${run + 1}: app runs at ${f0(ms)} ms (slow 4G, 4× CPU)`);
        }
      }
    }
  } finally {
    await browser.close();
    for (const b of builds) {
      await b.server.stop();
      fs.rmSync(b.dataDir, { recursive: true, force: true });
    }
  }

  const names = ['landing `/`', 'marketplace `/marketplace`', 'a product page'];
  const lhRows = before.pages.flatMap((_, i) =>
    builds.map((b) => {
      const runs = lh.get(key(b, i)) ?? [];
      const m = (f: (r: Run) => number) => median(runs.map(f));
      const within =
        m((r) => r.score) >= BUDGET.score &&
        m((r) => r.a11y) >= BUDGET.a11y &&
        m((r) => r.lcp) <= BUDGET.lcp &&
        m((r) => r.tbt) <= BUDGET.tbt &&
        m((r) => r.cls) <= BUDGET.cls;
      return `| ${names[i]} | ${b.label} | **${m((r) => r.score)}** (${runs.map((r) => r.score).join(', ')}) | **${f0(m((r) => r.tbt))}** (${runs.map((r) => f0(r.tbt)).join(', ')}) | ${f0(m((r) => r.lcp))} | ${f0(m((r) => r.fcp))} | ${m((r) => r.cls).toFixed(3)} | ${m((r) => r.a11y)} | ${b === after ? (within ? 'within' : '**over**') : ''} |`;
    }),
  );
  const readyRows = before.pages.map((_, i) => {
    const [b, a] = builds.map((x) => median(ready.get(key(x, i)) ?? []));
    const runs = (x: Build) => (ready.get(key(x, i)) ?? []).map(f0).join(', ');
    const change = ((a - b) / b) * 100;
    return `| ${names[i]} | ${f0(b)} (${runs(before)}) | ${f0(a)} (${runs(after)}) | ${change >= 0 ? '+' : ''}${change.toFixed(1)} % | ${change <= 15 ? 'within' : '**over**'} |`;
  });
  const t = (label: string) => transfer.get(label)!;
  const md = `## Renderer: React 19 against ${BEFORE_LABEL}, side by side (issue #33)

\`npx tsx tests/bench/renderer-compare.ts\` with \`BENCH_BEFORE_DIR\` a built checkout of the earlier commit — both
builds served by production servers on this machine at once (embedded databases, demo shops), their runs alternating
page by page; ${RUNS} measured runs of each; ${os.cpus().length} cores shared with other work; ${new Date().toISOString().slice(0, 10)}.

**Lighthouse, mobile preset** (median, the runs in brackets). Budgets for the React build: performance ≥ ${BUDGET.score},
TBT ≤ ${BUDGET.tbt} ms, LCP ≤ ${BUDGET.lcp} ms, CLS ≤ ${BUDGET.cls}, accessibility ${BUDGET.a11y}.

| page | build | performance | TBT (ms) | LCP (ms) | FCP (ms) | CLS | accessibility | budgets |
|---|---|---|---|---:|---:|---:|---:|---|
${lhRows.join('\n')}

**Script a visitor's 360 px phone transfers for \`/marketplace\`** by network idle, service worker off (budget
${kib(SCRIPT_TRANSFER_BUDGET_BYTES)} on the wire for the React build):

| build | on the wire | gzip | raw | files |
|---|---:|---:|---:|---:|
${builds.map((b) => `| ${b.label} | **${kib(t(b.label).wireBytes)}** | ${kib(t(b.label).gzipBytes)} | ${kib(t(b.label).rawBytes)} | ${t(b.label).files.length} |`).join('\n')}

**Time until the app runs** (\`<html data-app-ready>\`, ms from the navigation's start) with slow 4G and 4× CPU
applied to Chromium, median of ${RUNS} loads (each in brackets); budget: the React build within 15 % of the earlier one.

| page | ${BEFORE_LABEL} | ${AFTER_LABEL} | change | budget |
|---|---|---|---:|---|
${readyRows.join('\n')}`;
  writeSection('renderer', md);
  console.log(md);
}

await main();
