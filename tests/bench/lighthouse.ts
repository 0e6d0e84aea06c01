/**
 * Lighthouse on /marketplace (issue 3: performance ≥ 90, LCP ≤ 2.5 s): the default config (mobile form factor,
 * simulated slow-4G and 4× CPU throttling), a fresh Debian Chromium per run against the production server on an
 * embedded database with the demo shops. Median of the runs; the load average is recorded with each run because
 * other work shares the machine's cores.
 * Run: npm run build && npm run bench:lighthouse  (writes the 'lighthouse' section of docs/benchmarks.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { freePort, REPO, startServer, writeSection } from './lib/harness';

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const PAGE = process.env.BENCH_LIGHTHOUSE_PATH ?? '/marketplace';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Run {
  score: number;
  lcp: number;
  fcp: number;
  tbt: number;
  cls: number;
  si: number;
  loadavg: string;
  flagged: string[];
  lcpElement?: string;
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
  fs.rmSync(c.dir, { recursive: true, force: true });
}

async function once(url: string): Promise<Run> {
  const chromium = await startChromium();
  try {
    const loadavg = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const result = await lighthouse(url, {
      port: chromium.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
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
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      lcp: audit('largest-contentful-paint'),
      fcp: audit('first-contentful-paint'),
      tbt: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      si: audit('speed-index'),
      loadavg,
      flagged,
      lcpElement: lcpDetails?.items?.[0]?.items?.[0]?.node?.snippet,
    };
  } finally {
    await stopChromium(chromium);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  if (!fs.existsSync(path.join(REPO, 'dist', 'index.html'))) throw new Error('build first: npm run build');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-bench-lighthouse-'));
  delete process.env.DATABASE_URL; // embedded database with the demo shops
  const server = await startServer({ DATA_DIR: dataDir });
  const runs: Run[] = [];
  try {
    // One unmeasured visit, so the server's first-request work (demo media, query plans) is not in run 1.
    await fetch(`${server.url}${PAGE}`);
    await fetch(`${server.url}/_api/products/list?page=1&limit=20`);
    for (let i = 0; i < RUNS; i++) {
      const r = await once(`${server.url}${PAGE}`);
      console.log(
        `run ${i + 1}: score ${r.score}, LCP ${r.lcp.toFixed(0)} ms, FCP ${r.fcp.toFixed(0)} ms, TBT ${r.tbt.toFixed(0)} ms, CLS ${r.cls.toFixed(3)}, loadavg ${r.loadavg}; flagged: ${r.flagged.join(', ') || 'nothing'}`,
      );
      runs.push(r);
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const m = {
    score: median(runs.map((r) => r.score)),
    lcp: median(runs.map((r) => r.lcp)),
    fcp: median(runs.map((r) => r.fcp)),
    tbt: median(runs.map((r) => r.tbt)),
    cls: median(runs.map((r) => r.cls)),
    si: median(runs.map((r) => r.si)),
  };
  const pass = m.score >= 90 && m.lcp <= 2500;
  const flagged = [...new Set(runs.flatMap((r) => r.flagged))];
  const md = `## Lighthouse: ${PAGE}, mobile (issue 3)

\`npm run build && npm run bench:lighthouse\` — Lighthouse ${lighthouseVersion()} default config (mobile form
factor, simulated slow 4G and 4× CPU slowdown), performance category only, ${RUNS} runs, each in a fresh headless
Debian Chromium (\`${CHROMIUM}\`), against the production server (gzip, embedded database with the demo shops) on
${os.cpus().length} cores shared with other work; ${new Date().toISOString().slice(0, 10)}.

| run | performance | LCP (ms) | FCP (ms) | TBT (ms) | CLS | Speed Index (ms) | load average (1/5/15 min) |
|---|---:|---:|---:|---:|---:|---:|---|
${runs
  .map(
    (r, i) =>
      `| ${i + 1} | ${r.score} | ${r.lcp.toFixed(0)} | ${r.fcp.toFixed(0)} | ${r.tbt.toFixed(0)} | ${r.cls.toFixed(3)} | ${r.si.toFixed(0)} | ${r.loadavg} |`,
  )
  .join('\n')}
| **median** | **${m.score}** | **${m.lcp.toFixed(0)}** | ${m.fcp.toFixed(0)} | ${m.tbt.toFixed(0)} | ${m.cls.toFixed(3)} | ${m.si.toFixed(0)} | |

Target: performance ≥ 90 and LCP ≤ 2500 ms — ${pass ? '**met**' : '**not met**'}. LCP element: ${
    runs[0]?.lcpElement ? `\`${runs[0].lcpElement.replace(/\s+/g, ' ').slice(0, 160)}\`` : 'n/a'
  }. Audits still below 0.9 in some run: ${flagged.length ? flagged.map((f) => `\`${f}\``).join(', ') : 'none'}.`;
  writeSection('lighthouse', md);
  console.log(md);
  if (!pass) process.exitCode = 1;
}

function lighthouseVersion(): string {
  const pkg = JSON.parse(
    fs.readFileSync(path.join(REPO, 'node_modules/lighthouse/package.json'), 'utf8'),
  ) as {
    version: string;
  };
  return pkg.version;
}

await main();
