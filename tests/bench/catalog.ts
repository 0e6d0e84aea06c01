/**
 * Catalogue benchmark (issue 3): products/list and search/suggestions on PostgreSQL with 100k products and
 * 2,000 sellers, measured through the API under load and against the same SQL run raw through pg.
 *   npm run bench:catalog            (BENCH_PRODUCTS / BENCH_SELLERS / BENCH_SECONDS to change the size)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import {
  BENCH_DATABASE_URL,
  fmt,
  machineLine,
  openKnex,
  prepareData,
  runLoad,
  startServer,
  statsTable,
  summarize,
  timeRawSql,
  writeSection,
  type LabelStats,
} from './lib/harness';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const SELLERS = Number(process.env.BENCH_SELLERS ?? 2_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);

const TYPICAL_LISTS = [
  '/_api/products/list?page=1&limit=20',
  '/_api/products/list?page=2&limit=20&category=necklaces',
  '/_api/products/list?page=1&limit=20&category=rings&sortBy=price-asc',
  '/_api/products/list?page=1&limit=20&material=gold&minPrice=10000&maxPrice=200000&sortBy=price-desc',
  '/_api/products/list?page=1&limit=20&category=bangles&material=silver',
  '/_api/products/list?page=1&limit=20&sortBy=rating',
  '/_api/products/list?page=1&limit=20&sortBy=popularity',
  '/_api/products/list?page=5&limit=20&material=diamond&sortBy=newest',
];
const TYPICAL_TERMS = [
  'gold',
  'neck',
  'jhum',
  'ring',
  'bangl',
  'silver ank',
  'pearl',
  'templ',
  'chian',
  'earing',
];
const ZERO_HIT = 'zzqxvw';

async function sequential(url: string, path: string, n: number): Promise<LabelStats> {
  const times: number[] = [];
  for (let i = 0; i < n + 5; i++) {
    const t0 = performance.now();
    const res = await fetch(url + path);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${path} → ${res.status}`);
    if (i >= 5) times.push(performance.now() - t0);
  }
  return summarize(path, times);
}

/** Captures the SQL one request runs, through an in-process app with a query listener (not under load). */
async function captureSql(path: string): Promise<{ sql: string; bindings: unknown[] }[]> {
  const knex = openKnex();
  const captured: { sql: string; bindings: unknown[] }[] = [];
  knex.on('query', (q: { sql: string; bindings?: unknown[] }) =>
    captured.push({ sql: q.sql, bindings: q.bindings ?? [] }),
  );
  const { app } = createApp({
    db: knex,
    dbKind: 'pg',
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: BENCH_DATABASE_URL }),
    logger: pino({ level: 'silent' }),
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    // The second request is the one captured: the first fills the per-process cache of large totals, as
    // it is filled for every request of the load phase, so the raw SQL is what a warm server runs.
    for (let i = 0; i < 2; i++) {
      captured.length = 0;
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
      await res.arrayBuffer();
    }
  } finally {
    server.close();
    await knex.destroy();
  }
  // knex uses ? placeholders; pg wants $n.
  return captured.map((q) => {
    let i = 0;
    return { sql: q.sql.replace(/\?/g, () => `$${++i}`), bindings: q.bindings };
  });
}

async function rawMedian(path: string, n: number): Promise<number> {
  const queries = await captureSql(path);
  let total = 0;
  for (const q of queries) total += (await timeRawSql(BENCH_DATABASE_URL, q.sql, q.bindings, n)).p50;
  return total;
}

async function main() {
  const data = await prepareData({ products: PRODUCTS, sellers: SELLERS });
  console.log(`data: ${JSON.stringify(data)}`);
  const knex = openKnex();
  const common = (
    await knex.raw(
      `select word from (select unnest(regexp_split_to_array(lower(name), '\\s+')) as word from products) w
     where length(word) >= 4 group by word order by count(*) desc limit 1`,
    )
  ).rows[0].word as string;
  await knex.destroy();

  const server = await startServer({
    DATABASE_URL: BENCH_DATABASE_URL,
    DB_POOL_MAX: '20',
    SEED_DEMO: 'false',
  });
  try {
    // 1. Typical list pages under 32 concurrent connections.
    let i = 0;
    server.resetUsage();
    const lists = await runLoad({
      url: server.url,
      concurrency: 32,
      durationMs: SECONDS * 1000,
      next: () => ({ label: 'products/list (typical)', path: TYPICAL_LISTS[i++ % TYPICAL_LISTS.length] }),
    });
    const listUsage = server.usage();

    // 2. Suggestions for 3+ characters under 32 connections.
    let j = 0;
    const sugg = await runLoad({
      url: server.url,
      concurrency: 32,
      durationMs: SECONDS * 1000,
      next: () => ({
        label: 'search/suggestions (typical)',
        path: `/_api/search/suggestions?query=${encodeURIComponent(TYPICAL_TERMS[j++ % TYPICAL_TERMS.length])}`,
      }),
    });

    // 3. API vs raw SQL medians, sequential, for each typical list page.
    const n = 60;
    const ratios: string[] = [];
    let worstRatio = 0;
    for (const path of TYPICAL_LISTS) {
      const api = await sequential(server.url, path, n);
      const raw = await rawMedian(path, n);
      const ratio = api.p50 / raw;
      worstRatio = Math.max(worstRatio, ratio);
      ratios.push(
        `| \`${path.replace('/_api/products/list?', '')}\` | ${fmt(api.p50, 2)} | ${fmt(raw, 2)} | ${fmt(ratio, 2)} |`,
      );
    }

    // 4. Pathological search plans: zero-hit and most-common term vs typical terms.
    const typicalSugg = await Promise.all(
      TYPICAL_TERMS.slice(0, 5).map((t) =>
        sequential(server.url, `/_api/search/suggestions?query=${encodeURIComponent(t)}`, 30),
      ),
    );
    const typicalMedian = summarize(
      'typical',
      typicalSugg.map((s) => s.p50),
    ).p50;
    const zero = await sequential(server.url, `/_api/search/suggestions?query=${ZERO_HIT}`, 30);
    const mostCommon = await sequential(
      server.url,
      `/_api/search/suggestions?query=${encodeURIComponent(common)}`,
      30,
    );
    const zeroList = await sequential(server.url, `/_api/products/list?limit=20&query=${ZERO_HIT}`, 30);
    const commonList = await sequential(
      server.url,
      `/_api/products/list?limit=20&query=${encodeURIComponent(common)}`,
      30,
    );
    const typicalList = await sequential(server.url, `/_api/products/list?limit=20&query=jhumka`, 30);

    // 5. Deep pages.
    const page1 = await sequential(server.url, '/_api/products/list?page=1&limit=20', 60);
    const page400 = await sequential(server.url, '/_api/products/list?page=400&limit=20', 60);

    const checks = [
      [
        'products/list typical p95 at 32 connections ≤ 25 ms',
        lists.byLabel[0].p95 <= 25,
        `${fmt(lists.byLabel[0].p95)} ms`,
      ],
      ['products/list median API ≤ 1.5× raw SQL (worst page)', worstRatio <= 1.5, `${fmt(worstRatio, 2)}×`],
      [
        'search/suggestions p95 at 32 connections ≤ 30 ms',
        sugg.byLabel[0].p95 <= 30,
        `${fmt(sugg.byLabel[0].p95)} ms`,
      ],
      [
        'suggestions zero-hit median ≤ 3× typical',
        zero.p50 <= 3 * typicalMedian,
        `${fmt(zero.p50, 2)} vs ${fmt(typicalMedian, 2)} ms`,
      ],
      [
        `suggestions most common term ("${common}") ≤ 3× typical`,
        mostCommon.p50 <= 3 * typicalMedian,
        `${fmt(mostCommon.p50, 2)} vs ${fmt(typicalMedian, 2)} ms`,
      ],
      [
        'list search zero-hit ≤ 3× typical ("jhumka")',
        zeroList.p50 <= 3 * typicalList.p50,
        `${fmt(zeroList.p50, 2)} vs ${fmt(typicalList.p50, 2)} ms`,
      ],
      [
        `list search most common ("${common}") ≤ 3× typical`,
        commonList.p50 <= 3 * typicalList.p50,
        `${fmt(commonList.p50, 2)} vs ${fmt(typicalList.p50, 2)} ms`,
      ],
      [
        'page 400 median ≤ 2× page 1',
        page400.p50 <= 2 * page1.p50,
        `${fmt(page400.p50, 2)} vs ${fmt(page1.p50, 2)} ms`,
      ],
    ] as const;

    const md = `## Catalogue (issue 3)

Command: \`npm run bench:catalog\` — ${data.products.toLocaleString('en-IN')} products, ${data.sellers.toLocaleString('en-IN')} sellers on PostgreSQL; one API process (pool 20); ${SECONDS} s per load phase. ${machineLine()}

| target | met | measured |
| --- | --- | --- |
${checks.map(([name, ok, v]) => `| ${name} | ${ok ? 'yes' : '**no**'} | ${v} |`).join('\n')}

Under load (32 connections, closed loop): ${fmt(lists.total / (lists.durationMs / 1000), 0)} req/s on lists, ${fmt(sugg.total / (sugg.durationMs / 1000), 0)} req/s on suggestions; server CPU ${fmt(listUsage.cpuSeconds)} s over the list phase, peak RSS ${fmt(listUsage.rssMb, 0)} MB.

${statsTable([...lists.byLabel, ...sugg.byLabel])}

API median vs the same SQL run raw through \`pg\` (sequential, ${n} runs each):

| list page | API median ms | raw SQL median ms | ratio |
| --- | --- | --- | --- |
${ratios.join('\n')}
`;
    writeSection('catalog', md);
    console.log(md);
    if (lists.errors + sugg.errors > 0) {
      console.error('errors:', lists.errorSamples, sugg.errorSamples);
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
