/**
 * PWA figures (issue 7): first contentful paint of /marketplace cold vs with a warm service worker, and the
 * precache budget. Run: npm run build && npm run bench:pwa  (writes the 'pwa' section of docs/benchmarks.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO, startServer, summarize, writeSection } from './lib/harness';
import { isTwilioSdk, PRECACHE_BUDGET_BYTES, readPrecache, twilioAssets } from './pwa-precache';

const RUNS = Number(process.env.BENCH_PWA_RUNS ?? 9);
const DIST = path.join(REPO, 'dist');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

interface Visit {
  fcp: number;
  firstCard: number;
  fromServiceWorker: boolean;
}

async function visit(page: Page, url: string): Promise<Visit> {
  const res = await page.goto(url);
  await page.locator('main article h3').first().waitFor({ timeout: 30_000 });
  const firstCard = await page.evaluate(() => performance.now());
  const fcp = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const [entry] = performance.getEntriesByName('first-contentful-paint');
        if (entry) return resolve(entry.startTime);
        new PerformanceObserver((list) => {
          const e = list.getEntriesByName('first-contentful-paint')[0];
          if (e) resolve(e.startTime);
        }).observe({ type: 'paint', buffered: true });
      }),
  );
  return { fcp, firstCard, fromServiceWorker: res?.fromServiceWorker() ?? false };
}

async function measure(browser: Browser, baseURL: string) {
  const cold: Visit[] = [];
  const warm: Visit[] = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    cold.push(await visit(page, '/marketplace'));
    // Let the worker install and precache, as it does after a real first visit.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.close();
    const second = await context.newPage();
    warm.push(await visit(second, '/marketplace'));
    await context.close();
  }
  return { cold, warm };
}

async function main() {
  if (!fs.existsSync(path.join(DIST, 'sw.js'))) throw new Error('build first: npm run build');
  const entries = readPrecache(DIST);
  const total = entries.reduce((s, e) => s + e.bytes, 0);
  const twilioPrecached = entries.filter((e) => isTwilioSdk(DIST, e.url));
  const sdk = twilioAssets(DIST);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-bench-pwa-'));
  delete process.env.DATABASE_URL; // embedded database with the demo shops
  const server = await startServer({ DATA_DIR: dataDir });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const { cold, warm } = await measure(browser, server.url);
    const row = (label: string, visits: Visit[]) => {
      const fcp = summarize(
        label,
        visits.map((v) => v.fcp),
      );
      const card = summarize(
        label,
        visits.map((v) => v.firstCard),
      );
      const sw = visits.filter((v) => v.fromServiceWorker).length;
      return `| ${label} | ${fcp.p50.toFixed(0)} | ${fcp.max.toFixed(0)} | ${card.p50.toFixed(0)} | ${sw}/${visits.length} |`;
    };
    const biggest = [...entries]
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 5)
      .map((e) => `\`${e.url}\` ${kb(e.bytes)}`)
      .join(', ');
    const md = `## PWA: service worker and precache (issue 7)

\`npm run build && npm run bench:pwa\` — ${RUNS} fresh browser profiles; each visits \`/marketplace\` once
(cold: network only, the worker installs afterwards), then opens it again in a new tab (warm: the shell from the
precache, catalogue reads network-first). Headless Chromium on ${os.cpus().length} shared cores, embedded
database with the demo shops, loopback network; ${new Date().toISOString().slice(0, 10)}.

| visit | FCP median (ms) | FCP max (ms) | first product card median (ms) | document from the worker |
|---|---:|---:|---:|---:|
${row('cold (first visit)', cold)}
${row('warm service worker (second visit)', warm)}

Precache: **${entries.length} entries, ${kb(total)}** (budget ${kb(PRECACHE_BUDGET_BYTES)}: ${
      total < PRECACHE_BUDGET_BYTES ? 'within' : '**over**'
    }). Largest: ${biggest}. Twilio Video SDK chunk${sdk.length ? ` (\`${sdk.join('`, `')}\`)` : ''} in the precache: ${
      twilioPrecached.length ? `**yes** (${twilioPrecached.map((e) => e.url).join(', ')})` : 'no'
    }; it loads only for a Twilio call. The same budget and exclusion are asserted by \`tests/e2e/pwa.test.ts\`.`;
    writeSection('pwa', md);
    console.log(md);
    if (total >= PRECACHE_BUDGET_BYTES || twilioPrecached.length) process.exitCode = 1;
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
