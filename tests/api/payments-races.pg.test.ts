import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutResponse } from '../../api/contract/checkout';
import { buildProduct, buildSeller, buildUser } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { createTestDatabase } from '../support/db';
import { checkoutBody, postCheckout, productState, razorpayDouble, signIn } from './checkout-support';

// Row-lock concurrency can only be proven on a real PostgreSQL server: this file runs on api-pg only.

const CUSTOMERS = 20;
const STOCK = 14;
const WINDOW_MS = 15 * 60_000;

let api: TestApi;
beforeAll(async () => {
  const db = await createTestDatabase('pg', { poolMax: 20, connectionTimeoutMs: 20_000 });
  api = await startTestApi({ db });
});
afterAll(async () => api?.close());

describe('payments under concurrency', () => {
  it(`${CUSTOMERS} checkouts racing for ${STOCK} units, half the payments failing: the stock is exact after the window`, async () => {
    const shop = await buildSeller(api.db.knex);
    const product = await buildProduct(api.db.knex, shop.id, { price: '2100.00', stockQuantity: STOCK });
    const clients: ApiClient[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const user = await buildUser(api.db.knex, { role: 'customer' });
      const client = await signIn(api, user);
      await client.post('/_api/cart/add', { productId: product.id, quantity: 1 });
      clients.push(client);
    }

    const placed = await Promise.all(
      clients.map((c) => postCheckout(c, checkoutBody({ paymentMethod: 'upi' }))),
    );
    const won = placed
      .filter((r) => r.status === 201)
      .map((r) => ({ ...r.body, client: clients[placed.indexOf(r)] }));
    expect(won).toHaveLength(STOCK);
    expect(placed.filter((r) => r.status !== 201).every((r) => r.status === 409)).toBe(true);
    expect((await productState(api, product.id)).stock_quantity).toBe(0);

    // Every other customer's payment fails; the rest pay, all at once, through the page and the webhooks.
    const double = await razorpayDouble(api);
    const pay = async (r: CheckoutResponse & { client: ApiClient }, i: number) => {
      const result = await double.pay(r.payment!.gatewayOrderId, i % 2 === 0 ? 'success' : 'failure');
      if ('error' in result) return 'failed';
      const verify = await r.client.post('/_api/payments/verify', result);
      expect(verify.status).toBe(200);
      return 'paid';
    };
    const outcomes = await Promise.all(won.map(pay));
    const paid = outcomes.filter((o) => o === 'paid').length;
    expect(paid).toBe(STOCK / 2);

    // The window ends: the release runs while the customers whose payment failed try again at that moment.
    api.clock.advance(WINDOW_MS + 60_000);
    const late = won.filter((_, i) => outcomes[i] === 'failed');
    const [, ...retries] = await Promise.all([
      api.handle.background.runNow('orders:release-unpaid'),
      ...late.map((r) => double.pay(r.payment!.gatewayOrderId, 'success')),
    ]);
    await api.handle.background.runNow('orders:release-unpaid');
    await api.handle.background.runNow('payments:send-refunds');

    const orders = (await api.db
      .knex('orders')
      .whereIn(
        'checkout_ref',
        won.map((r) => r.checkoutRef),
      )
      .select('id', 'status', 'payment_status', 'gateway_order_id')) as {
      id: number;
      status: string;
      payment_status: string;
      gateway_order_id: string;
    }[];
    const paidOrders = orders.filter((o) => o.payment_status === 'paid');
    const cancelled = orders.filter((o) => o.status === 'cancelled');
    // Each order is either paid (and kept) or cancelled unpaid; nothing in between.
    expect(paidOrders.length + cancelled.length).toBe(STOCK);
    expect(paidOrders.every((o) => o.status === 'pending')).toBe(true);
    expect(cancelled.every((o) => o.payment_status === 'failed')).toBe(true);
    // The stock is exact: the units of the paid orders are sold, every other unit is back.
    expect((await productState(api, product.id)).stock_quantity).toBe(STOCK - paidOrders.length);
    // Each retry either paid its order or, finding it cancelled, was refunded whole.
    for (const [i, r] of late.entries()) {
      const result = retries[i] as { razorpay_payment_id: string };
      const order = orders.find((o) => o.gateway_order_id === r.payment!.gatewayOrderId)!;
      const refunded = [...double.refunds.values()].filter(
        (x) => x.payment_id === result.razorpay_payment_id,
      );
      if (order.payment_status === 'paid') expect(refunded).toEqual([]);
      else expect(refunded.map((x) => x.amount)).toEqual([210_000]);
    }
    // A second release changes nothing.
    await api.handle.background.runNow('orders:release-unpaid');
    expect((await productState(api, product.id)).stock_quantity).toBe(STOCK - paidOrders.length);
  });
});
