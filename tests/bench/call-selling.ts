/**
 * Selling in the call, measured over the default signalling path: the production server (embedded database,
 * demo data, as `npm start` runs it), a call about a piece between the demo
 * jeweller and a new customer, both with their event streams open. RUNS times each:
 *
 *   - the jeweller shows a product (POST /_api/call/share) → the 'item' event reaches the customer's stream;
 *   - the customer sends a chat message (POST /_api/call/message) → the 'item' event reaches the jeweller's.
 *
 * The time is from just before the request is sent to the event's arrival on the other side's stream.
 * Run: npm run bench:call-selling   (RUNS=100)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiClient } from '../support/api';
import { EventStreamReader } from '../support/sse';
import { DEMO_PASSWORD, fmt, startServer, writeSection } from './lib/harness';

const RUNS = Number(process.env.RUNS ?? 100);

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
  return { n: s.length, median: q(0.5), p95: q(0.95), max: s[s.length - 1]! };
}

async function must<T>(res: Promise<{ status: number; body: T }>, want: number, what: string): Promise<T> {
  const r = await res;
  if (r.status !== want) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nagai-bench-selling-'));
  const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '' });
  try {
    const seller = new ApiClient(server.url);
    const me = await must(
      seller.post<{ user: { id: number } }>('/_api/auth/login_with_password', {
        email: 'seller@nagai.test',
        password: DEMO_PASSWORD,
      }),
      200,
      'seller login',
    );
    const customer = new ApiClient(server.url);
    await must(
      customer.post('/_api/auth/register_with_password', {
        email: `bench-selling-${Date.now()}@example.test`,
        password: 'Secret#2026',
        displayName: 'Bench Customer',
      }),
      201,
      'register',
    );
    const sellerStream = await EventStreamReader.open(seller);
    const customerStream = await EventStreamReader.open(customer);
    await sellerStream.waitFor((e) => e.event === 'hello');
    await customerStream.waitFor((e) => e.event === 'hello');

    const { callId } = await must(
      customer.post<{ callId: number }>('/_api/call/initiate', { sellerId: me.user.id }),
      201,
      'initiate',
    );
    await must(seller.post('/_api/call/respond', { callId, response: 'accept' }), 200, 'accept');
    const { products } = await must(
      seller.get<{ products: { id: number }[] }>(`/_api/call/products?callId=${callId}&q=`),
      200,
      'search',
    );
    if (!products.length) throw new Error('the demo shop has no products');

    const share: number[] = [];
    const chat: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const product = products[i % products.length]!;
      let from = customerStream.events.length;
      let t0 = performance.now();
      const shared = await must(
        seller.post<{ items: { id: number }[] }>('/_api/call/share', { callId, productIds: [product.id] }),
        201,
        'share',
      );
      const shareId = shared.items[0]!.id;
      await customerStream.waitFor(
        (e) => e.event === 'item' && (e.data as { id: number }).id === shareId,
        10_000,
        from,
      );
      share.push(performance.now() - t0);

      from = sellerStream.events.length;
      t0 = performance.now();
      const sent = await must(
        customer.post<{ items: { id: number }[] }>('/_api/call/message', { callId, text: `Message ${i}` }),
        201,
        'message',
      );
      const messageId = sent.items[0]!.id;
      await sellerStream.waitFor(
        (e) => e.event === 'item' && (e.data as { id: number }).id === messageId,
        10_000,
        from,
      );
      chat.push(performance.now() - t0);
      // As a person would: not a burst.
      await new Promise((r) => setTimeout(r, 50));
    }
    await seller.post('/_api/call/end', { callId });
    sellerStream.close();
    customerStream.close();

    const s = stats(share);
    const c = stats(chat);
    const load = os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
    const table = [
      `Command: \`npm run bench:call-selling\` (RUNS=${RUNS}, embedded database), ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, load average ${load}.`,
      '',
      'From just before the request is sent to the event on the other side’s open event stream (GET /_api/events),',
      'through the server’s store, its trigger and LISTEN/NOTIFY; target median ≤ 1 s, p95 ≤ 2 s.',
      '',
      '| what reaches the other side | n | median | p95 | max |',
      '| --- | ---: | ---: | ---: | ---: |',
      `| a product the jeweller shows | ${s.n} | ${fmt(s.median)} ms | ${fmt(s.p95)} ms | ${fmt(s.max)} ms |`,
      `| a chat message from the customer | ${c.n} | ${fmt(c.median)} ms | ${fmt(c.p95)} ms | ${fmt(c.max)} ms |`,
    ].join('\n');
    console.log(table);
    writeSection('call-selling', `## Selling in the call: items over the event stream\n\n${table}`);
  } finally {
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
