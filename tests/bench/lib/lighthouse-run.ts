/**
 * One Lighthouse run with the mobile preset, in a fresh headless Debian Chromium: used by the Lighthouse benchmark
 * (tests/bench/lighthouse.ts) and the renderer comparison (tests/bench/renderer-compare.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { freePort } from './harness';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Run {
  score: number;
  a11y: number;
  a11yFailed: string[];
  lcp: number;
  fcp: number;
  tbt: number;
  cls: number;
  si: number;
  loadavg: string;
  flagged: string[];
  lcpElement?: string;
  benchmarkIndex: number;
}

async function startChromium(): Promise<{ port: number; child: ChildProcess; dir: string }> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-lh-chromium-'));
  const child = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${dir}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break;
    } catch {
      /* starting */
    }
    if (child.exitCode !== null) throw new Error('chromium exited during start');
    if (Date.now() > deadline) throw new Error('chromium did not open its debugging port');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { port, child, dir };
}

async function stopChromium(c: { child: ChildProcess; dir: string }) {
  if (c.child.exitCode === null) {
    c.child.kill('SIGTERM');
    await new Promise((r) => c.child.once('exit', r));
  }
  // Chromium's helpers may still be writing to the profile for a moment after it exits: removing it is best
  // effort (a profile left in the temporary directory does not touch the figures).
  try {
    fs.rmSync(c.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch {
    /* left for the system's temporary-file cleanup */
  }
}

export type Method = 'simulate' | 'devtools';

/** One run; Lighthouse's own trace errors (NO_NAVSTART and the like) are retried up to twice in a new browser. */
export async function once(url: string, method: Method = 'simulate'): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await onceAttempt(url, method);
    } catch (err) {
      if (attempt >= 3 || !String(err).includes('lighthouse:')) throw err;
      console.log(`retrying after: ${String(err)}`);
    }
  }
}

async function onceAttempt(url: string, method: Method): Promise<Run> {
  const chromium = await startChromium();
  try {
    const loadavg = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const result = await lighthouse(url, {
      port: chromium.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      throttlingMethod: method,
    });
    if (!result) throw new Error('lighthouse returned nothing');
    const { lhr } = result;
    // BENCH_LIGHTHOUSE_JSON=<dir>: keep each run's full report for reading its traces and audits.
    if (process.env.BENCH_LIGHTHOUSE_JSON) {
      fs.mkdirSync(process.env.BENCH_LIGHTHOUSE_JSON, { recursive: true });
      fs.writeFileSync(
        path.join(process.env.BENCH_LIGHTHOUSE_JSON, `lhr-${Date.now()}.json`),
        JSON.stringify(lhr, null, 1),
      );
    }
    if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const flagged = Object.values(lhr.audits)
      .filter(
        (a) =>
          a.score !== null &&
          a.score < 0.9 &&
          (a.scoreDisplayMode === 'metricSavings' ||
            a.scoreDisplayMode === 'numeric' ||
            a.details?.type === 'opportunity'),
      )
      .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
    const lcpDetails = lhr.audits['largest-contentful-paint-element']?.details as
      { items?: { items?: { node?: { snippet?: string } }[] }[] } | undefined;
    const a11yFailed = (lhr.categories.accessibility?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score === 0)
      .map((ref) => ref.id);
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      a11y: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      a11yFailed,
      lcp: audit('largest-contentful-paint'),
      fcp: audit('first-contentful-paint'),
      tbt: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      si: audit('speed-index'),
      loadavg,
      flagged,
      lcpElement: lcpDetails?.items?.[0]?.items?.[0]?.node?.snippet,
      benchmarkIndex: lhr.environment.benchmarkIndex,
    };
  } finally {
    await stopChromium(chromium);
  }
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
