import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HoldResponse } from '../../api/contract/call-selling';
import { buildProduct, buildSeller, buildUser, type BuiltSeller } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { createTestDatabase } from '../support/db';
import { postCheckout, signIn } from './checkout-support';

// Holds are stock: only a real PostgreSQL server, with requests that truly overlap, can show that holds,
// releases, expiry and checkouts of the same product never sell a unit twice. This file runs on api-pg only.

const STOCK = 5;
const HOLDERS = 10;
const BUYERS = 20;
const ROUNDS = 5;

let api: TestApi;
let shop: BuiltSeller;
let asShop: ApiClient;
beforeAll(async () => {
  const db = await createTestDatabase('pg', { poolMax: 20, connectionTimeoutMs: 20_000 });
  api = await startTestApi({ db, env: { UNPAID_ORDERS_MAX_PER_CUSTOMER: '1000' } });
  shop = await buildSeller(api.db.knex);
  asShop = await signIn(api, shop);
});
afterAll(async () => api?.close());

const knex = () => api.db.knex;

/** A customer who just had a call with the shop in which the product was shown (the call has ended). */
async function shownCustomer(productId: number): Promise<{ id: number; client: ApiClient; callId: number }> {
  const user = await buildUser(knex(), { role: 'customer' });
  const now = api.clock.now();
  const [call] = (await knex()('calls')
    .insert({
      caller_id: user.id,
      seller_id: shop.id,
      status: 'ended',
      created_at: new Date(now.getTime() - 120_000),
      answered_at: new Date(now.getTime() - 110_000),
      ended_at: now,
      end_reason: 'hangup',
    })
    .returning('id')) as { id: number }[];
  await knex()('call_items').insert({
    call_id: call.id,
    from_user_id: shop.id,
    kind: 'product',
    product_id: productId,
  });
  return { id: user.id, client: await signIn(api, user), callId: call.id };
}

/** Units of the product in orders that still hold their stock (not cancelled and put back). */
async function unitsInOrders(productId: number): Promise<number> {
  const [row] = (await knex()('order_items as oi')
    .join('orders as o', 'o.id', 'oi.order_id')
    .where('oi.product_id', productId)
    .where('o.stock_restored', false)
    .sum({ n: 'oi.quantity' })) as { n: unknown }[];
  return Number(row.n ?? 0);
}

async function stockOf(productId: number): Promise<number> {
  const row = (await knex()('products').where({ id: productId }).first('stock_quantity')) as {
    stock_quantity: number;
  };
  return row.stock_quantity;
}

async function holdsOf(
  productId: number,
): Promise<{ id: number; status: string; order_id: number | null }[]> {
  return (await knex()('product_holds')
    .where({ product_id: productId })
    .select('id', 'status', 'order_id')) as { id: number; status: string; order_id: number | null }[];
}

describe('holds under concurrency', () => {
  it(`${HOLDERS} holds and ${BUYERS} cart-and-checkouts racing for ${STOCK} units never oversell — ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const p = await buildProduct(knex(), shop.id, { stockQuantity: STOCK });
      const holders = await Promise.all(Array.from({ length: HOLDERS }, () => shownCustomer(p.id)));
      const buyers = await Promise.all(
        Array.from({ length: BUYERS }, async () =>
          signIn(api, await buildUser(knex(), { role: 'customer' })),
        ),
      );
      const held: number[] = [];
      const statuses: string[] = [];
      const ops: Promise<void>[] = [
        ...holders.map(async (h, i) => {
          const res = await h.client.post<HoldResponse>('/_api/holds', {
            callId: h.callId,
            productId: p.id,
          });
          statuses.push(`hold ${res.status}`);
          expect([201, 409], JSON.stringify(res.body)).toContain(res.status);
          if (res.status !== 201) return;
          held.push(res.body.hold.id);
          // Half the holders buy at once, racing the other buyers for what is left (their unit is theirs).
          if (i % 2 === 0) {
            const bought = await postCheckout(h.client);
            statuses.push(`holder checkout ${bought.status}`);
            expect(bought.status, JSON.stringify(bought.body)).toBe(201);
          }
        }),
        ...buyers.map(async (client) => {
          const added = await client.post('/_api/cart/add', { productId: p.id, quantity: 1 });
          statuses.push(`add ${added.status}`);
          expect([200, 400], JSON.stringify(added.body)).toContain(added.status);
          if (added.status !== 200) return;
          const bought = await postCheckout(client);
          statuses.push(`checkout ${bought.status}`);
          expect([201, 409], JSON.stringify(bought.body)).toContain(bought.status);
        }),
        // A sweep and the shop's list running alongside (nothing is due: they must not disturb anything).
        api.handle.background.runNow('selling:expire-holds'),
        asShop.get('/_api/holds/seller').then((r) => void expect(r.status).toBe(200)),
      ];
      await Promise.all(ops);

      const label = `round ${round}: ${JSON.stringify(statuses)}`;
      const stock = await stockOf(p.id);
      const holds = await holdsOf(p.id);
      const active = holds.filter((h) => h.status === 'active').length;
      const inOrders = await unitsInOrders(p.id);
      expect(stock, label).toBeGreaterThanOrEqual(0);
      expect(stock + active + inOrders, label).toBe(STOCK);
      // Every hold that was granted is still the customer's, or became their order; none was lost.
      expect(holds.map((h) => h.id).sort(), label).toEqual([...held].sort());
      for (const h of holds) {
        expect(['active', 'consumed'], label).toContain(h.status);
        expect(h.status === 'consumed', label).toBe(h.order_id !== null);
      }
      // With 30 customers after 5 units, every unit went somewhere.
      expect(stock, label).toBe(0);
    }
  }, 600_000);

  it('expiry, release and checkout of the same holds at once give each unit back exactly once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const p = await buildProduct(knex(), shop.id, { stockQuantity: HOLDERS });
      const holders = await Promise.all(Array.from({ length: HOLDERS }, () => shownCustomer(p.id)));
      const granted = await Promise.all(
        holders.map((h) => h.client.post<HoldResponse>('/_api/holds', { callId: h.callId, productId: p.id })),
      );
      expect(granted.map((g) => g.status)).toEqual(Array(HOLDERS).fill(201));
      expect(await stockOf(p.id)).toBe(0);

      // Half the holds have run out; the sweep (twice, as two processes would), the holders' checkouts, the
      // customers' and the shop's releases all race for them.
      const expired = granted.filter((_, i) => i % 2 === 0).map((g) => g.body.hold.id);
      await knex()('product_holds')
        .whereIn('id', expired)
        .update({ expires_at: new Date(api.clock.now().getTime() - 1000) });
      const results = await Promise.all([
        api.handle.background.runNow('selling:expire-holds'),
        api.handle.background.runNow('selling:expire-holds'),
        ...holders.map(async (h, i) => {
          const hold = granted[i].body.hold.id;
          const res =
            i % 3 === 0
              ? await postCheckout(h.client)
              : await (i % 3 === 1 ? h.client : asShop).post('/_api/holds/release', { holdId: hold });
          expect([200, 201, 409], JSON.stringify(res.body)).toContain(res.status);
          return res.status;
        }),
      ]);
      const label = `round ${round}: ${JSON.stringify(results)}`;
      const holds = await holdsOf(p.id);
      const active = holds.filter((h) => h.status === 'active').length;
      const stock = await stockOf(p.id);
      const inOrders = await unitsInOrders(p.id);
      expect(stock + active + inOrders, label).toBe(HOLDERS);
      for (const h of holds) {
        if (expired.includes(h.id)) expect(['expired', 'released'], label).toContain(h.status);
      }
      expect(active, label).toBe(0);
    }
  }, 600_000);
});
