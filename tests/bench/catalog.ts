/**
 * Catalogue benchmark (issue 3): products/list and search/suggestions on PostgreSQL with 100k products and
 * 2,000 sellers, measured through the API under load and against the same SQL run raw through pg.
 *   npm run bench:catalog            (BENCH_PRODUCTS / BENCH_SELLERS / BENCH_SECONDS to change the size)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import pino from 'pino';
import { createApp } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import {
  BENCH_DATABASE_URL,
  fmt,
  machineCpu,
  machineLine,
  openKnex,
  prepareData,
  runLoad,
  startServer,
  statsTable,
  summarize,
  timeRawSql,
  timeSequential,
  writeSection,
} from './lib/harness';
import { browsingMix, typingMix } from './lib/traffic';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const SELLERS = Number(process.env.BENCH_SELLERS ?? 2_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARM_UP_MS = 5_000;

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
const DIRECTORY_TERMS = ['lakshmi', 'balaj', 'chennai', 'kaveri jewls', ZERO_HIT];

/** Share of answers served from the server's catalogue cache, from the X-Cache header of each answer. */
function hitRate(result: { cacheHits: number; cacheTotal: number }): string {
  return result.cacheTotal ? `${((100 * result.cacheHits) / result.cacheTotal).toFixed(1)}%` : '–';
}

/**
 * Captures the SQL one request runs, through an in-process app (not under load): every statement sent on a
 * pg client, whether knex built it or the catalogue wrote it directly.
 */
async function captureSql(path: string): Promise<{ sql: string; bindings: unknown[] }[]> {
  const knex = openKnex();
  const captured: { sql: string; bindings: unknown[] }[] = [];
  const original = pg.Client.prototype.query;
  const recording = function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === 'string') captured.push({ sql: first, bindings: (second as unknown[]) ?? [] });
    else if (first && typeof first === 'object' && 'text' in first) {
      const q = first as { text: string; values?: unknown[] };
      captured.push({ sql: q.text, bindings: q.values ?? (second as unknown[]) ?? [] });
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  const { app } = createApp({
    db: knex,
    dbKind: 'pg',
    config: loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: BENCH_DATABASE_URL,
      CATALOG_CACHE_TTL_MS: '0',
    }),
    logger: pino({ level: 'silent' }),
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    // The second request is the one captured: the first fills the per-process cache of large totals, as
    // it is filled for every request of the load phase, so the raw SQL is what a warm server runs.
    for (let i = 0; i < 2; i++) {
      captured.length = 0;
      pg.Client.prototype.query = recording as typeof original;
      try {
        const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
        await res.arrayBuffer();
      } finally {
        pg.Client.prototype.query = original;
      }
    }
  } finally {
    server.close();
    await knex.destroy();
  }
  return captured;
}

async function rawMedian(path: string, n: number): Promise<number> {
  const queries = await captureSql(path);
  let total = 0;
  for (const q of queries) total += (await timeRawSql(BENCH_DATABASE_URL, q.sql, q.bindings, n)).p50;
  return total;
}

/** Searches customers type (issue #35): Tamil script, romanised Tamil and Hindi, misspelt, combined. */
const CUSTOMER_SEARCHES = [
  'ஜிமிக்கி',
  'தங்க வளையல்',
  'கொலுசு',
  'jimikki',
  'kammal',
  'sangili',
  'dollar',
  'mothiram',
  'payal',
  '22k gold chain',
  'silver kolusu',
  'gold jhumka',
  'neckless',
  'lakshmi pendant',
  'temple chian',
  'மயில்',
];

/**
 * What a search costs against a plain catalogue page (issue #35): the server process's CPU over the same
 * number of requests, one at a time on a keep-alive connection, cache off, and each kind's latency.
 */
async function searchCost(url: string, server: { usage(): { cpuSeconds: number }; resetUsage(): void }) {
  const ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 20);
  const measure = async (paths: string[]) => {
    for (const path of paths) await timeSequential(url, path, 1); // warm: prepared statements, plans
    server.resetUsage();
    const stats = [];
    for (const path of paths) stats.push(await timeSequential(url, path, ROUNDS));
    const cpuMs = (server.usage().cpuSeconds * 1000) / (paths.length * (ROUNDS + 5));
    return { cpuMs, stats };
  };
  const plain = await measure(TYPICAL_LISTS);
  const searches = await measure(
    CUSTOMER_SEARCHES.map((q) => `/_api/products/list?page=1&limit=20&query=${encodeURIComponent(q)}`),
  );
  return { plain, searches };
}

async function main() {
  const data = await prepareData({ products: PRODUCTS, sellers: SELLERS });
  if (process.env.BENCH_ONLY === 'search') return searchOnly(data);
  console.log(`data: ${JSON.stringify(data)}`);
  const knex = openKnex();
  const common = (
    await knex.raw(
      `select word from (select unnest(regexp_split_to_array(lower(name), '\\s+')) as word from products) w
     where length(word) >= 4 group by word order by count(*) desc limit 1`,
    )
  ).rows[0].word as string;
  await knex.destroy();

  // One server as deployed (catalogue cache on, its default TTL) and one with the cache off: the SQL
  // comparisons and plan checks run on the second, so every one of their requests reaches the database.
  const server = await startServer({
    DATABASE_URL: BENCH_DATABASE_URL,
    DB_POOL_MAX: '20',
    SEED_DEMO: 'false',
  });
  const uncached = await startServer({
    DATABASE_URL: BENCH_DATABASE_URL,
    DB_POOL_MAX: '20',
    SEED_DEMO: 'false',
    CATALOG_CACHE_TTL_MS: '0',
  });
  try {
    const load = async (url: string, label: string, next: () => string, warmUpMs = 0) => {
      if (warmUpMs)
        await runLoad({ url, concurrency: 32, durationMs: warmUpMs, next: () => ({ label, path: next() }) });
      return runLoad({
        url,
        concurrency: 32,
        durationMs: SECONDS * 1000,
        next: () => ({ label, path: next() }),
      });
    };
    // 1. Visitors browsing: many different list pages under 32 concurrent connections, with the cache as
    // deployed (after a warm-up of the same traffic), then the same traffic with the cache off.
    server.resetUsage();
    const cpu = machineCpu();
    const mix = await load(server.url, 'products/list (browsing mix)', browsingMix(1), WARM_UP_MS);
    const listUsage = server.usage();
    const mixCold = await load(uncached.url, 'products/list (browsing mix, cache off)', browsingMix(1));
    // 2. The eight typical pages alone (served almost only from memory).
    let i = 0;
    const typical = await load(
      server.url,
      'products/list (8 typical pages)',
      () => TYPICAL_LISTS[i++ % TYPICAL_LISTS.length],
    );

    // 3. Suggestions for 3+ characters as people type, then with the cache off.
    const sugg = await load(server.url, 'search/suggestions (typing mix)', typingMix(2), WARM_UP_MS);
    const suggCold = await load(uncached.url, 'search/suggestions (typing mix, cache off)', typingMix(2));
    const machine = cpu.stop();

    // 4. API vs raw SQL medians, sequential, for each typical list page (cache off).
    const n = 60;
    const ratios: string[] = [];
    let worstRatio = 0;
    for (const path of TYPICAL_LISTS) {
      const api = await timeSequential(uncached.url, path, n);
      const raw = await rawMedian(path, n);
      const ratio = api.p50 / raw;
      worstRatio = Math.max(worstRatio, ratio);
      ratios.push(
        `| \`${path.replace('/_api/products/list?', '')}\` | ${fmt(api.p50, 2)} | ${fmt(raw, 2)} | ${fmt(ratio, 2)} |`,
      );
    }

    // 5. Pathological search plans: zero-hit and most-common term vs typical terms (cache off).
    const typicalSugg = await Promise.all(
      TYPICAL_TERMS.slice(0, 5).map((t) =>
        timeSequential(uncached.url, `/_api/search/suggestions?query=${encodeURIComponent(t)}`, 30),
      ),
    );
    const typicalMedian = summarize(
      'typical',
      typicalSugg.map((s) => s.p50),
    ).p50;
    const zero = await timeSequential(uncached.url, `/_api/search/suggestions?query=${ZERO_HIT}`, 30);
    const mostCommon = await timeSequential(
      uncached.url,
      `/_api/search/suggestions?query=${encodeURIComponent(common)}`,
      30,
    );
    const zeroList = await timeSequential(uncached.url, `/_api/products/list?limit=20&query=${ZERO_HIT}`, 30);
    const commonList = await timeSequential(
      uncached.url,
      `/_api/products/list?limit=20&query=${encodeURIComponent(common)}`,
      30,
    );
    const typicalList = await timeSequential(uncached.url, `/_api/products/list?limit=20&query=jhumka`, 30);

    // 6. Deep pages (cache off).
    const page1 = await timeSequential(uncached.url, '/_api/products/list?page=1&limit=20', 60);
    const page400 = await timeSequential(uncached.url, '/_api/products/list?page=400&limit=20', 60);

    // 7. The jeweller directory's search, one request at a time (cache off): names, a city, a misspelling.
    const directory = [];
    for (const term of DIRECTORY_TERMS) {
      directory.push(
        await timeSequential(uncached.url, `/_api/sellers/list?searchQuery=${encodeURIComponent(term)}`, 30),
      );
    }

    const rate = (r: { total: number; durationMs: number }) => fmt(r.total / (r.durationMs / 1000), 0);
    const cacheShare = new Map(
      [mix, mixCold, typical, sugg, suggCold].map((r) => [r.byLabel[0].label, hitRate(r)] as const),
    );
    const checks = [
      [
        'products/list p95 at 32 connections ≤ 25 ms (browsing mix)',
        mix.byLabel[0].p95 <= 25,
        `${fmt(mix.byLabel[0].p95)} ms (${hitRate(mix)} from the cache)`,
      ],
      [
        'products/list p95 at 32 connections ≤ 25 ms (the 8 typical pages)',
        typical.byLabel[0].p95 <= 25,
        `${fmt(typical.byLabel[0].p95)} ms (${hitRate(typical)} from the cache)`,
      ],
      ['products/list median API ≤ 1.5× raw SQL (worst page)', worstRatio <= 1.5, `${fmt(worstRatio, 2)}×`],
      [
        'search/suggestions p95 at 32 connections ≤ 30 ms (typing mix)',
        sugg.byLabel[0].p95 <= 30,
        `${fmt(sugg.byLabel[0].p95)} ms (${hitRate(sugg)} from the cache)`,
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

Command: \`npm run bench:catalog\` — ${data.products.toLocaleString('en-IN')} products, ${data.sellers.toLocaleString('en-IN')} sellers on PostgreSQL; one API process (pool 20) with the catalogue cache as deployed (\`CATALOG_CACHE_TTL_MS\` 5 s) and one with it off (\`CATALOG_CACHE_TTL_MS=0\`) for the SQL comparisons and plan checks; ${SECONDS} s per load phase, the mixes after ${WARM_UP_MS / 1000} s of the same traffic not counted. ${machineLine()}

The browsing mix draws list pages the way visitors browse (fixed seed): page 1 60%, 2 20%, 3 10%, 4–10 10%; a category 65% of the time (the common ones most), a material 30%, a price band 15%, a search word 15%, and the default order 55% (popularity 15, rating 10, price up 12, price down 8), so tens of thousands of different pages can come up. The typing mix sends the 3+ letter prefixes of twenty common search words (the common ones most), 15% with a swapped pair of letters and 10% after another word.

| target | met | measured |
| --- | --- | --- |
${checks.map(([name, ok, v]) => `| ${name} | ${ok ? 'yes' : '**no**'} | ${v} |`).join('\n')}

Under load (32 connections, closed loop): ${rate(mix)} req/s on the browsing mix (${rate(mixCold)} with the cache off), ${rate(typical)} on the typical pages, ${rate(sugg)} req/s on suggestions (${rate(suggCold)} with the cache off); the cached server's CPU ${fmt(listUsage.cpuSeconds)} s over the browsing phase (with its warm-up), peak RSS ${fmt(listUsage.rssMb, 0)} MB. Over the load phases ${fmt(machine.stealShare * 100)}% of the machine's CPU was stolen by the host (a shared host: runs with more steal are slower throughout).

${statsTable(
  [mix, mixCold, typical, sugg, suggCold].map((r) => r.byLabel[0]),
  (r) => [cacheShare.get(r.label) ?? '–'],
  ['from the cache'],
)}

API median (one request at a time on a keep-alive connection through the load phases' client, no compression asked for) vs the same SQL run raw through \`pg\` (cache off, ${n} runs each):

| list page | API median ms | raw SQL median ms | ratio |
| --- | --- | --- | --- |
${ratios.join('\n')}

Directory search (\`sellers/list?searchQuery=\`, one request at a time, cache off, 30 runs each), median ms: ${directory.map((d) => `${decodeURIComponent(d.label.split('=')[1])} ${fmt(d.p50, 2)}`).join(', ')}.
`;
    writeSection('catalog', md);
    console.log(md);
    const runs = [mix, mixCold, typical, sugg, suggCold];
    if (runs.some((r) => r.errors > 0)) {
      console.error(
        'errors:',
        runs.flatMap((r) => r.errorSamples),
      );
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
    await uncached.stop();
  }
}

/** `BENCH_ONLY=search`: only the cost of customers' searches against plain pages (issue #35). */
async function searchOnly(data: { products: number; sellers: number }) {
  const uncached = await startServer({
    DATABASE_URL: BENCH_DATABASE_URL,
    DB_POOL_MAX: '4',
    SEED_DEMO: 'false',
    CATALOG_CACHE_TTL_MS: '0',
    SEARCH_LIMIT_PER_IP_PER_MINUTE: '1000000',
  });
  try {
    const { plain, searches } = await searchCost(uncached.url, uncached);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const worst = (xs: number[]) => Math.max(...xs);
    const rows = searches.stats.map(
      (s) =>
        `| \`${decodeURIComponent(s.label.split('query=')[1])}\` | ${fmt(s.p50, 2)} | ${fmt(s.p95, 2)} |`,
    );
    const md = `## Search in the customer's own words (issue #35)

Command: \`BENCH_ONLY=search npm run bench:catalog\` — ${data.products.toLocaleString('en-IN')} products, ${data.sellers.toLocaleString('en-IN')} sellers on PostgreSQL; one API process with the catalogue cache off; each page requested one at a time on a keep-alive connection, ${Number(process.env.BENCH_SEARCH_ROUNDS ?? 20)} times after 5 not counted. The server process's CPU is read from /proc over all requests of a kind (the database's CPU is not in it). ${machineLine()}

| figure | measured |
| --- | --- |
| server CPU per request, the 8 typical catalogue pages | ${fmt(plain.cpuMs, 2)} ms |
| server CPU per request, ${CUSTOMER_SEARCHES.length} customers' searches | ${fmt(searches.cpuMs, 2)} ms |
| search CPU ÷ plain page CPU (target ≤ 3×) | ${fmt(searches.cpuMs / plain.cpuMs, 2)}× |
| plain pages: median of the pages' p50 / worst page's p95 | ${fmt(median(plain.stats.map((x) => x.p50)), 2)} / ${fmt(worst(plain.stats.map((x) => x.p95)), 2)} ms |
| searches: median of the searches' p50 / worst search's p95 | ${fmt(median(searches.stats.map((x) => x.p50)), 2)} / ${fmt(worst(searches.stats.map((x) => x.p95)), 2)} ms |

| search | p50 ms | p95 ms |
| --- | --- | --- |
${rows.join('\n')}
`;
    writeSection('search', md);
    console.log(md);
  } finally {
    await uncached.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
