import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { financialYear } from '../../api/contract/pricing';
import { buildProduct, buildSeller, buildUser, type BuiltSeller, type BuiltUser } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { createTestDatabase } from '../support/db';
import { checkoutBody, checkoutPaid, postCheckout, signIn } from './checkout-support';

// Row-lock concurrency can only be proven on a real PostgreSQL server: this file runs on api-pg only.

const CUSTOMERS = 50;

let api: TestApi;
let shop: BuiltSeller;
let asShop: ApiClient;
let customers: { user: BuiltUser; client: ApiClient }[] = [];
beforeAll(async () => {
  const db = await createTestDatabase('pg', { poolMax: 20, connectionTimeoutMs: 20_000 });
  api = await startTestApi({ db, env: { UNPAID_ORDERS_MAX_PER_CUSTOMER: '1000' } });
  shop = await buildSeller(api.db.knex, { shopName: 'Lakshmi Jewellers' });
  asShop = await signIn(api, shop);
  customers = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const user = await buildUser(api.db.knex, { role: 'customer' });
    customers.push({ user, client: await signIn(api, user) });
  }
});
afterAll(async () => api?.close());

/** The seller moves an order on (the invoice of a cash-on-delivery order is issued when it ships). */
const setStatus = (orderId: number, status: string) =>
  asShop.post('/_api/orders/update-status', {
    orderId,
    status,
    ...(status === 'cancelled' ? { cancelReason: 'out_of_stock' } : {}),
  });

describe('invoice numbers under concurrency', () => {
  it(`${CUSTOMERS} concurrent payments, then ${CUSTOMERS} concurrent shipments, at one shop get consecutive numbers`, async () => {
    const fy = financialYear(api.clock.now());
    for (let round = 0; round < 2; round++) {
      // Some customers buy the same piece, others their own: contended and uncontended product locks.
      const shared = await buildProduct(api.db.knex, shop.id, { stockQuantity: null });
      for (const [i, c] of customers.entries()) {
        const own = i % 2 ? await buildProduct(api.db.knex, shop.id, { stockQuantity: null }) : shared;
        await api.db.knex('cart_items').insert({ user_id: c.user.id, product_id: own.id, quantity: 1 });
      }
      if (round === 0) {
        // Paid online: each invoice is issued with its payment, all at once.
        const results = await Promise.all(customers.map((c) => checkoutPaid(api, c.client, checkoutBody())));
        expect(results.map((r) => r.status)).toEqual(customers.map(() => 201));
      } else {
        // Cash on delivery: no number at checkout; each is issued when the shop ships it, all at once.
        const results = await Promise.all(customers.map((c) => postCheckout(c.client, checkoutBody())));
        expect(results.map((r) => r.status)).toEqual(customers.map(() => 201));
        const ids = results.map((r) => r.body.orders[0].id);
        expect(await api.db.knex('invoices').whereIn('order_id', ids).pluck('id')).toEqual([]);
        const confirmed = await Promise.all(ids.map((id) => setStatus(id, 'confirmed')));
        expect(confirmed.map((r) => r.status)).toEqual(ids.map(() => 200));
        const shipped = await Promise.all(ids.map((id) => setStatus(id, 'shipped')));
        expect(shipped.map((r) => r.status)).toEqual(ids.map(() => 200));
      }
    }
    const numbers = (await api.db
      .knex('invoices')
      .where({ seller_id: shop.id, kind: 'invoice' })
      .orderBy('seq')
      .select('seq', 'number', 'order_id')) as { seq: number; number: string; order_id: number }[];
    expect(numbers).toHaveLength(2 * CUSTOMERS);
    expect(numbers.map((n) => n.seq)).toEqual(Array.from({ length: 2 * CUSTOMERS }, (_, i) => i + 1));
    expect(numbers[41].number).toBe(`LAK/${fy}/000042`);
    expect(new Set(numbers.map((n) => n.order_id)).size).toBe(2 * CUSTOMERS);
    const counter = (await api.db
      .knex('document_counters')
      .where({ seller_id: shop.id, kind: 'invoice', fy })
      .first('last_seq')) as { last_seq: number };
    expect(counter.last_seq).toBe(2 * CUSTOMERS);
  });

  it('a failed checkout and an order never paid leave no gap', async () => {
    const fy = financialYear(api.clock.now());
    const before = (await api.db
      .knex('document_counters')
      .where({ seller_id: shop.id, fy })
      .first('last_seq')) as {
      last_seq: number;
    };
    // Ten customers race for 3 units: 7 fail, and take no number.
    const scarce = await buildProduct(api.db.knex, shop.id, { stockQuantity: 3 });
    const racers = customers.slice(0, 10);
    for (const c of racers) {
      await api.db.knex('cart_items').insert({ user_id: c.user.id, product_id: scarce.id, quantity: 1 });
    }
    const results = await Promise.all(racers.map((c) => checkoutPaid(api, c.client, checkoutBody())));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    // An order left unpaid (online, awaiting payment) takes no number either.
    const unpaidProduct = await buildProduct(api.db.knex, shop.id, { stockQuantity: null });
    await api.db
      .knex('cart_items')
      .insert({ user_id: customers[20].user.id, product_id: unpaidProduct.id, quantity: 1 });
    const unpaid = await postCheckout(customers[20].client, checkoutBody({ paymentMethod: 'upi' }));
    expect(unpaid.status).toBe(201);
    expect(await api.db.knex('invoices').where({ order_id: unpaid.body.orders[0].id }).pluck('id')).toEqual(
      [],
    );
    const seqs = (await api.db
      .knex('invoices')
      .where({ seller_id: shop.id, kind: 'invoice' })
      .where('seq', '>', before.last_seq)
      .orderBy('seq')
      .pluck('seq')) as number[];
    expect(seqs).toEqual([before.last_seq + 1, before.last_seq + 2, before.last_seq + 3]);
    await api.db.knex('cart_items').delete();
  });
});
