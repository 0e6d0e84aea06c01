import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATING_PRIOR } from '../../api/contract/constants';
import { CHECKOUT_MESSAGES } from '../../api/contract/checkout';
import { ORDER_MESSAGES, type Order } from '../../api/contract/orders';
import type { SellerCard } from '../../api/contract/catalog';
import { buildProduct, buildSeller } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { PAYMENT_MESSAGES } from '../../api/contract/payments';
import {
  buy,
  checkoutBody,
  newCustomer,
  payOnline,
  postCheckout,
  productState,
  signIn,
} from './checkout-support';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ env: { UNPAID_ORDERS_MAX_PER_CUSTOMER: '3', UNPAID_ORDER_HOLD_MINUTES: '30' } });
});
afterAll(async () => api?.close());

const setStatus = (seller: ApiClient, orderId: number, status: string) =>
  seller.post<{ order: Order }>('/_api/orders/update-status', {
    orderId,
    status,
    ...(status === 'cancelled' ? { cancelReason: 'out_of_stock' } : {}),
  });

async function deliver(seller: ApiClient, orderId: number): Promise<Order> {
  let order!: Order;
  for (const status of ['confirmed', 'shipped', 'delivered']) {
    const res = await setStatus(seller, orderId, status);
    expect(res.status, status).toBe(200);
    order = res.body.order;
  }
  return order;
}

async function place(client: ApiClient, productId: number, paymentMethod: string) {
  const add = await client.post('/_api/cart/add', { productId, quantity: 1 });
  expect(add.status).toBe(200);
  const res = await postCheckout(client, checkoutBody({ paymentMethod }));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...res.body.orders[0], payment: res.body.payment };
}

describe('rating needs a delivered order that was paid', () => {
  it('refuses a delivered but unpaid order; delivering cash on delivery collects the cash', async () => {
    const shop = await buildSeller(api.db.knex);
    const asShop = await signIn(api, shop);
    const product = await buildProduct(api.db.knex, shop.id, { stockQuantity: 10 });
    const c = await newCustomer(api);

    // Paid online: the shop cannot ship it before it is paid.
    const card = await place(c.client, product.id, 'card');
    expect((await setStatus(asShop, card.id, 'confirmed')).status).toBe(200);
    const early = await setStatus(asShop, card.id, 'shipped');
    expect(early.status).toBe(409);
    expect(early.body).toEqual({ error: PAYMENT_MESSAGES.notPaidYet, code: 'order_not_paid' });
    // The rating rule holds for any delivered order that was not paid (one from before payments, say).
    await api.db.knex('orders').where({ id: card.id }).update({ status: 'delivered' });
    const details = await c.client.get<{ order: Order }>(`/_api/order/details?orderId=${card.id}`);
    expect(details.body.order.canRate).toBe(false);
    const refused = await c.client.post('/_api/orders/rate', {
      orderId: card.id,
      productId: product.id,
      stars: 5,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: ORDER_MESSAGES.notPaid, code: 'order_not_paid' });

    // Paid through the gateway (the test double), it ships, is delivered and can be rated.
    const paid = await place(c.client, product.id, 'upi');
    const { verify } = await payOnline(api, c.client, paid.payment!);
    expect(verify?.status).toBe(200);
    expect(verify?.body.orders[0]).toMatchObject({ id: paid.id, paymentStatus: 'paid' });
    expect(await deliver(asShop, paid.id)).toMatchObject({ status: 'delivered', paymentStatus: 'paid' });
    const ratedOnline = await c.client.post('/_api/orders/rate', {
      orderId: paid.id,
      productId: product.id,
      stars: 4,
    });
    expect(ratedOnline.status).toBe(200);

    // Cash on delivery: the seller delivers it, the cash is collected, and it can be rated.
    const cod = await place(c.client, product.id, 'cash_on_delivery');
    const confirmed = await setStatus(asShop, cod.id, 'confirmed');
    expect(confirmed.body.order).toMatchObject({ paymentStatus: 'cash_due', paidAt: null });
    expect((await setStatus(asShop, cod.id, 'shipped')).body.order).toMatchObject({
      paymentStatus: 'cash_due',
    });
    expect((await setStatus(asShop, cod.id, 'delivered')).status).toBe(200);
    const after = (await c.client.get<{ order: Order }>(`/_api/order/details?orderId=${cod.id}`)).body.order;
    expect(after).toMatchObject({ status: 'delivered', paymentStatus: 'cash_collected', canRate: true });
    expect(Date.parse(after.paidAt!)).toBeGreaterThan(Date.now() - 60_000);
    const rated = await c.client.post('/_api/orders/rate', {
      orderId: cod.id,
      productId: product.id,
      stars: 5,
    });
    expect(rated.status).toBe(200);
  });
});

describe('unpaid orders cannot freeze a shop’s stock', () => {
  it('caps a customer’s open unpaid orders (UNPAID_ORDERS_MAX_PER_CUSTOMER)', async () => {
    const shop = await buildSeller(api.db.knex);
    const asShop = await signIn(api, shop);
    const product = await buildProduct(api.db.knex, shop.id, { stockQuantity: 20 });
    const c = await newCustomer(api);
    const orders = [];
    for (let i = 0; i < 3; i++) orders.push(await place(c.client, product.id, 'upi'));

    await c.client.post('/_api/cart/add', { productId: product.id, quantity: 1 });
    const refused = await postCheckout(c.client);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: CHECKOUT_MESSAGES.tooManyUnpaid.replace('{n}', '3'),
      code: 'too_many_unpaid_orders',
    });
    expect((await productState(api, product.id)).stock_quantity).toBe(17);

    // Another customer is not affected.
    const other = await newCustomer(api);
    await place(other.client, product.id, 'cash_on_delivery');

    // A confirmed order still awaiting payment counts; once the customer pays one, they may order again.
    expect((await setStatus(asShop, orders[0].id, 'confirmed')).status).toBe(200);
    expect((await postCheckout(c.client)).status).toBe(409);
    expect((await payOnline(api, c.client, orders[1].payment!)).verify?.status).toBe(200);
    expect((await postCheckout(c.client)).status).toBe(201);
  });

  it('releases the stock of orders left unpaid past UNPAID_ORDER_HOLD_MINUTES', async () => {
    const shop = await buildSeller(api.db.knex);
    const asShop = await signIn(api, shop);
    const product = await buildProduct(api.db.knex, shop.id, { stockQuantity: 5 });
    const hoarder = await newCustomer(api);
    const [held] = await buy(hoarder.client, [{ productId: product.id, quantity: 4 }]);
    const buyer = await newCustomer(api);
    const [taken] = await buy(buyer.client, [{ productId: product.id, quantity: 1 }]);
    expect(await setStatus(asShop, taken.id, 'confirmed')).toMatchObject({ status: 200 });
    expect((await productState(api, product.id)).stock_quantity).toBe(0);

    // Not yet: within the hold nothing moves.
    api.clock.advance(29 * 60_000);
    await api.handle.background.runNow('orders:release-unpaid');
    expect((await productState(api, product.id)).stock_quantity).toBe(0);

    api.clock.advance(2 * 60_000);
    await api.handle.background.runNow('orders:release-unpaid');
    expect((await productState(api, product.id)).stock_quantity).toBe(4);
    const seen = await hoarder.client.get<{ order: Order }>(`/_api/order/details?orderId=${held.id}`);
    expect(seen.body.order.status).toBe('cancelled');
    // The order the shop confirmed keeps its stock and its status.
    const kept = await buyer.client.get<{ order: Order }>(`/_api/order/details?orderId=${taken.id}`);
    expect(kept.body.order.status).toBe('confirmed');
    // A second run changes nothing (the stock is put back once).
    await api.handle.background.runNow('orders:release-unpaid');
    expect((await productState(api, product.id)).stock_quantity).toBe(4);
  });
});

describe('ranking by rating needs real volume (Bayesian average)', () => {
  it('one 5-star rating does not outrank 500 ratings at 4.9, for products and for shops', async () => {
    const a = await buildSeller(api.db.knex, { shopName: 'One Review Gold' });
    const b = await buildSeller(api.db.knex, { shopName: 'Five Hundred Reviews Gold' });
    const lone = await buildProduct(api.db.knex, a.id, { category: 'anklets', ratingAvg: 5, ratingCount: 1 });
    const proven = await buildProduct(api.db.knex, b.id, {
      category: 'anklets',
      ratingAvg: 4.9,
      ratingCount: 500,
    });
    const unrated = await buildProduct(api.db.knex, b.id, { category: 'anklets' });
    const res = await api
      .client()
      .get<{ products: { id: number }[] }>('/_api/products/list?category=anklets&sortBy=rating&limit=50');
    const order = res.body.products
      .map((p) => p.id)
      .filter((id) => [lone.id, proven.id, unrated.id].includes(id));
    expect(order).toEqual([proven.id, lone.id, unrated.id]);
    // The score is the documented formula.
    const { mean, weight } = RATING_PRIOR;
    const score = async (id: number) =>
      Number((await api.db.knex('products').where({ id }).first('rating_score')).rating_score);
    expect(await score(lone.id)).toBeCloseTo((5 * 1 + mean * weight) / (1 + weight), 4);
    expect(await score(proven.id)).toBeCloseTo((4.9 * 500 + mean * weight) / (500 + weight), 4);
    // The averages shown stay the plain averages.
    const shown = await api
      .client()
      .get<{ product: { averageRating: number } }>(`/_api/products/get?id=${lone.id}`);
    expect(shown.body.product.averageRating).toBe(5);

    await api.db.knex('seller_profiles').where({ user_id: a.id }).update({ rating_avg: 5, rating_count: 1 });
    await api.db
      .knex('seller_profiles')
      .where({ user_id: b.id })
      .update({ rating_avg: 4.9, rating_count: 500 });
    const top = await api.client().get<{ sellers: SellerCard[] }>('/_api/sellers/top?limit=50');
    const tops = top.body.sellers.map((s) => s.sellerId).filter((id) => id === a.id || id === b.id);
    // A lone 5★ does not make a top jeweller at all (fewer than TOP_SELLER_MIN_RATINGS, §20.4).
    expect(tops).toEqual([b.id]);
    const list = await api.client().get<{ sellers: SellerCard[] }>('/_api/sellers/list?limit=100');
    const listed = list.body.sellers.map((s) => s.sellerId).filter((id) => id === a.id || id === b.id);
    expect(listed).toEqual([b.id, a.id]);
  });
});
