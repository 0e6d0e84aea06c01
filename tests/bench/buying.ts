/**
 * Buying benchmark (issue 4): 16 concurrent customers adding to cart, listing the cart and checking out on
 * PostgreSQL with 100k products.   npm run bench:buying   (BENCH_SECONDS, BENCH_WARMUP_SECONDS to change)
 */
import crypto from 'node:crypto';
import {
  BENCH_DATABASE_URL,
  fmt,
  machineCpu,
  machineLine,
  openKnex,
  prepareData,
  runLoad,
  sessionsFor,
  startServer,
  statsTable,
  writeSection,
} from './lib/harness';
import { ensureCustomers } from './lib/users';

const CUSTOMERS = 16;
const POOL_MAX = process.env.BENCH_POOL_MAX ?? '20';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 6);

async function main() {
  const data = await prepareData({ products: Number(process.env.BENCH_PRODUCTS ?? 100_000), sellers: 2_000 });
  const knex = openKnex();
  const customers = await ensureCustomers(knex, CUSTOMERS);
  await knex('cart_items').whereIn('user_id', customers).delete();
  // A pool of public products with stock to spare, so the benchmark measures checkouts, not sold-out refusals.
  const productIds = (await knex('products as p')
    .join('seller_profiles as s', 's.user_id', 'p.seller_id')
    .where('s.is_approved', true)
    .whereNull('p.deleted_at')
    .orderByRaw('random()')
    .limit(2000)
    .pluck('p.id')) as number[];
  await knex('products').whereIn('id', productIds).update({ stock_quantity: 1_000_000 });
  const cookies = await sessionsFor(knex, customers);
  await knex.destroy();

  const server = await startServer({
    DATABASE_URL: BENCH_DATABASE_URL,
    DB_POOL_MAX: POOL_MAX,
    SEED_DEMO: 'false',
  });
  try {
    let checkouts = 0;
    // The same loop, first for WARMUP_SECONDS not counted (each pooled connection's first plans of every
    // statement, the JIT warm), then measured.
    const load = (durationMs: number) =>
      runLoad({
        url: server.url,
        concurrency: CUSTOMERS,
        durationMs,
        next: async (w, send) => {
          const cookie = cookies.get(customers[w])!;
          const pick = () => productIds[crypto.randomInt(productIds.length)];
          // Two lines, usually from two shops: the multi-order path of checkout.
          await send({
            label: 'cart/add',
            method: 'POST',
            path: '/_api/cart/add',
            body: { productId: pick(), quantity: 1 },
            headers: { Cookie: cookie },
          });
          await send({
            label: 'cart/add',
            method: 'POST',
            path: '/_api/cart/add',
            body: { productId: pick(), quantity: 2 },
            headers: { Cookie: cookie },
          });
          await send({ label: 'cart/list', path: '/_api/cart/list', headers: { Cookie: cookie } });
          checkouts++;
          return {
            label: 'checkout/create',
            method: 'POST',
            path: '/_api/checkout/create',
            headers: { Cookie: cookie, 'Idempotency-Key': crypto.randomUUID() },
            body: {
              customerName: 'Bench Customer',
              customerPhone: '9876543210',
              shippingAddress: '12 Bench Road, Anna Nagar',
              city: 'Chennai',
              state: 'Tamil Nadu',
              pinCode: '600040',
              paymentMethod: 'cash_on_delivery',
            },
          };
        },
      });
    await load(WARMUP_SECONDS * 1000);
    checkouts = 0;
    server.resetUsage();
    const cpu = machineCpu();
    const result = await load(SECONDS * 1000);
    const usage = server.usage();
    const machine = cpu.stop();
    const get = (label: string) => result.byLabel.find((r) => r.label === label)!;
    const co = get('checkout/create');
    const cl = get('cart/list');
    const md = `## Cart and checkout (issue 4)

Command: \`npm run bench:buying\` — ${CUSTOMERS} concurrent customers, each looping add two products → list cart → check out (cash on delivery, one Idempotency-Key per attempt), ${SECONDS} s after ${WARMUP_SECONDS} s of the same load not counted, on PostgreSQL with ${data.products.toLocaleString('en-IN')} products; one API process (pool ${POOL_MAX}). ${checkouts} checkouts. ${machineLine()}

| target | met | measured |
| --- | --- | --- |
| checkout p95 ≤ 60 ms at 16 customers | ${co.p95 <= 60 ? 'yes' : '**no**'} | ${fmt(co.p95)} ms |
| cart list p95 ≤ 15 ms | ${cl.p95 <= 15 ? 'yes' : '**no**'} | ${fmt(cl.p95)} ms |
| no errors | ${result.errors === 0 ? 'yes' : '**no**'} | ${result.errors} |

${statsTable(result.byLabel)}

Server CPU ${fmt(usage.cpuSeconds)} s over ${fmt(result.durationMs / 1000)} s, peak RSS ${fmt(usage.rssMb, 0)} MB. Whole machine (server, database and load tool): ${fmt(machine.busyShare * 100, 0)}% of all cores busy, ${fmt((machine.busySeconds * 1000) / checkouts, 1)} ms of CPU per checkout round (two adds, a list, a checkout), ${fmt(machine.stealShare * 100, 1)}% stolen by the host.
`;
    writeSection('buying', md);
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
