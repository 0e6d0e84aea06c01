/**
 * Incoming-call polling benchmark (issue 6): 5,000 online sellers each polling GET /_api/call/incoming every
 * 4 s (1,250 req/s, open loop) against one API process on PostgreSQL, while customers place, and sellers
 * answer and end, a few calls.   npm run bench:calls   (BENCH_SELLERS_ONLINE, BENCH_SECONDS to change)
 */
import {
  BENCH_DATABASE_URL,
  fmt,
  machineLine,
  openKnex,
  prepareData,
  runOpenLoop,
  sessionsFor,
  startServer,
  statsTable,
  writeSection,
} from './lib/harness';
import { ensureCustomers, ensureVideoSellers } from './lib/users';

const ONLINE = Number(process.env.BENCH_SELLERS_ONLINE ?? 5_000);
const POLL_MS = 4_000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = 8;

async function main() {
  await prepareData({ products: Number(process.env.BENCH_PRODUCTS ?? 100_000), sellers: 2_000 });
  const knex = openKnex();
  const sellers = await ensureVideoSellers(knex, ONLINE);
  const customers = await ensureCustomers(knex, 40);
  // Old bench calls must not leave customers with a live call.
  await knex('calls')
    .whereIn('caller_id', customers)
    .whereIn('status', ['pending', 'ringing', 'active'])
    .update({ status: 'ended', ended_at: new Date() });
  const sellerCookies = await sessionsFor(knex, sellers);
  const customerCookies = await sessionsFor(knex, customers);
  await knex.destroy();

  const server = await startServer({
    DATABASE_URL: BENCH_DATABASE_URL,
    DB_POOL_MAX: '20',
    SEED_DEMO: 'false',
  });
  try {
    const rate = ONLINE / (POLL_MS / 1000);
    let callsPlaced = 0;
    let callsAnswered = 0;
    // A few real calls during the run: a customer rings a seller, the seller answers, then hangs up.
    const callTraffic = (async () => {
      const deadline = Date.now() + (WARMUP_SECONDS + SECONDS) * 1000 - 3000;
      let k = 0;
      while (Date.now() < deadline) {
        const customer = customers[k % customers.length];
        const seller = sellers[(k * 97) % sellers.length];
        k++;
        const post = (path: string, cookie: string, body: unknown) =>
          fetch(server.url + path, {
            method: 'POST',
            headers: { Origin: server.url, 'Content-Type': 'application/json', Cookie: cookie },
            body: JSON.stringify(body),
          }).then(async (r) => ({ status: r.status, body: (await r.json()) as { callId?: number } }));
        const init = await post('/_api/call/initiate', customerCookies.get(customer)!, { sellerId: seller });
        if (init.status === 201 && init.body.callId) {
          callsPlaced++;
          const ans = await post('/_api/call/respond', sellerCookies.get(seller)!, {
            callId: init.body.callId,
            response: 'accept',
          });
          if (ans.status === 200) callsAnswered++;
          await new Promise((r) => setTimeout(r, 500));
          await post('/_api/call/end', customerCookies.get(customer)!, { callId: init.body.callId });
        }
        await new Promise((r) => setTimeout(r, 700));
      }
    })();

    const poll = (i: number) => ({
      label: 'call/incoming',
      path: '/_api/call/incoming',
      headers: { Cookie: sellerCookies.get(sellers[i % sellers.length])! },
    });
    // Warm-up at the same rate, not counted: every seller's first polls, the sockets opened and the JIT warm,
    // so the figures are the steady state of sellers who stay online.
    await runOpenLoop({
      url: server.url,
      ratePerSecond: rate,
      durationMs: WARMUP_SECONDS * 1000,
      next: poll,
    });

    server.resetUsage();
    const result = await runOpenLoop({
      url: server.url,
      ratePerSecond: rate,
      durationMs: SECONDS * 1000,
      next: poll,
    });
    const usage = server.usage();
    await callTraffic;

    const stats = result.byLabel[0];
    const achieved = result.total / (result.durationMs / 1000);
    const md = `## Incoming-call polling (issue 6)

Command: \`npm run bench:calls\` — ${ONLINE.toLocaleString('en-IN')} signed-in sellers each polling \`GET /_api/call/incoming\` every ${POLL_MS / 1000} s (open loop, offered ${fmt(rate, 0)} req/s) for ${SECONDS} s, after ${WARMUP_SECONDS} s of the same load not counted (each seller's first polls, sockets opened, JIT warm), against one API process on PostgreSQL (pool 20), while ${callsPlaced} calls were placed, ${callsAnswered} answered and all ended. ${machineLine()}

| target | met | measured |
| --- | --- | --- |
| call/incoming p95 ≤ 15 ms at ${fmt(rate, 0)} req/s | ${stats.p95 <= 15 ? 'yes' : '**no**'} | ${fmt(stats.p95)} ms (achieved ${fmt(achieved, 0)} req/s) |
| no errors | ${result.errors === 0 ? 'yes' : '**no**'} | ${result.errors} |

${statsTable(result.byLabel)}

Server CPU ${fmt(usage.cpuSeconds)} s over ${fmt(result.durationMs / 1000)} s (${fmt((100 * usage.cpuSeconds) / (result.durationMs / 1000), 0)}% of one core), peak RSS ${fmt(usage.rssMb, 0)} MB.
`;
    writeSection('calls-incoming', md);
    console.log(md);
    if (result.errors) {
      console.error(result.errorSamples);
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
