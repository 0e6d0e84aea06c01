import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, RateProductResponse } from '../../api/contract/orders';
import { buildProduct, buildSeller, type BuiltSeller } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { buy, newCustomer, signIn } from './checkout-support';

let api: TestApi;
let shop: BuiltSeller;
beforeAll(async () => {
  api = await startTestApi();
  shop = await buildSeller(api.db.knex);
});
afterAll(async () => api?.close());

const rate = (client: ApiClient, body: Record<string, unknown>) =>
  client.post<RateProductResponse & { error?: string; code?: string }>('/_api/orders/rate', body);

/** A customer's order of the given products, moved to `status` by its seller (delivered: and paid). */
async function orderOf(productIds: number[], status = 'delivered') {
  const c = await newCustomer(api);
  const [order] = await buy(
    c.client,
    productIds.map((productId) => ({ productId, quantity: 1 })),
  );
  await api.db
    .knex('orders')
    .where({ id: order.id })
    .update({ status, ...(status === 'delivered' ? { payment_status: 'paid', paid_at: new Date() } : {}) });
  return { ...c, order };
}

const productRating = async (id: number) =>
  (await api.db.knex('products').where({ id }).first('rating_avg', 'rating_count')) as {
    rating_avg: string;
    rating_count: number;
  };

describe('ratings', () => {
  it('lets the customer rate each product of a delivered order once and updates both averages', async () => {
    const s = await buildSeller(api.db.knex);
    const p1 = await buildProduct(api.db.knex, s.id);
    const p2 = await buildProduct(api.db.knex, s.id);
    const first = await orderOf([p1.id, p2.id]);

    const r1 = await rate(first.client, {
      orderId: first.order.id,
      productId: p1.id,
      stars: 5,
      review: ' Lovely work ',
    });
    expect(r1.status).toBe(200);
    expect(r1.body).toMatchObject({
      success: true,
      rating: { orderId: first.order.id, productId: p1.id, stars: 5, review: 'Lovely work' },
      product: { id: p1.id, averageRating: 5, ratingCount: 1 },
      seller: { id: s.id, averageRating: 5, ratingCount: 1 },
    });
    const r2 = await rate(first.client, { orderId: first.order.id, productId: p2.id, stars: 2 });
    expect(r2.body.seller).toEqual({ id: s.id, averageRating: 3.5, ratingCount: 2 });
    expect(r2.body.rating.review).toBeNull();

    const second = await orderOf([p1.id]);
    const r3 = await rate(second.client, { orderId: second.order.id, productId: p1.id, stars: 3 });
    expect(r3.body.product).toEqual({ id: p1.id, averageRating: 4, ratingCount: 2 });
    expect(r3.body.seller).toEqual({ id: s.id, averageRating: 3.33, ratingCount: 3 });
    expect(await productRating(p1.id)).toEqual({ rating_avg: '4.00', rating_count: 2 });
    const shopRow = (await api.db
      .knex('seller_profiles')
      .where({ user_id: s.id })
      .first('rating_avg', 'rating_count')) as {
      rating_avg: string;
      rating_count: number;
    };
    expect(shopRow).toEqual({ rating_avg: '3.33', rating_count: 3 });

    // The order now shows the ratings and nothing left to rate.
    const details = await first.client.get<{ order: Order }>(`/_api/order/details?orderId=${first.order.id}`);
    expect(details.body.order.canRate).toBe(false);
    const item = details.body.order.items.find((i) => i.product.id === p1.id)!;
    expect(item.rating).toMatchObject({ stars: 5, review: 'Lovely work' });
    expect(item.canRate).toBe(false);
  });

  it('refuses a second rating of the same product for the same order', async () => {
    const p = await buildProduct(api.db.knex, shop.id);
    const { client, order } = await orderOf([p.id]);
    expect((await rate(client, { orderId: order.id, productId: p.id, stars: 4 })).status).toBe(200);
    const again = await rate(client, { orderId: order.id, productId: p.id, stars: 1 });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error: 'You have already rated this product for this order.',
      code: 'already_rated',
    });
    expect(await productRating(p.id)).toEqual({ rating_avg: '4.00', rating_count: 1 });
  });

  it('refuses orders that are not delivered', async () => {
    const p = await buildProduct(api.db.knex, shop.id);
    for (const status of ['pending', 'confirmed', 'shipped', 'cancelled']) {
      const { client, order } = await orderOf([p.id], status);
      const res = await rate(client, { orderId: order.id, productId: p.id, stars: 4 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'You can rate a product only after the order is delivered.',
        code: 'order_not_delivered',
      });
      const details = await client.get<{ order: Order }>(`/_api/order/details?orderId=${order.id}`);
      expect(details.body.order.canRate).toBe(false);
    }
  });

  it("refuses another customer's order and products not in the order", async () => {
    const p = await buildProduct(api.db.knex, shop.id);
    const q = await buildProduct(api.db.knex, shop.id);
    const { order } = await orderOf([p.id]);
    const stranger = await newCustomer(api);
    const res = await rate(stranger.client, { orderId: order.id, productId: p.id, stars: 5 });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Order Not Found');
    const own = await orderOf([p.id]);
    const notIn = await rate(own.client, { orderId: own.order.id, productId: q.id, stars: 5 });
    expect(notIn.status).toBe(404);
    expect(notIn.body.error).toBe('This product is not part of this order.');
  });

  it('only customers rate, stars are 1–5 and a review at most 500 characters', async () => {
    const p = await buildProduct(api.db.knex, shop.id);
    const { client, order } = await orderOf([p.id]);
    const asSeller = await signIn(api, shop);
    expect((await rate(asSeller, { orderId: order.id, productId: p.id, stars: 5 })).status).toBe(403);
    for (const stars of [0, 6, 3.5, '4', undefined]) {
      const res = await rate(client, { orderId: order.id, productId: p.id, stars });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Stars must be a whole number from 1 to 5.');
    }
    const long = await rate(client, {
      orderId: order.id,
      productId: p.id,
      stars: 5,
      review: 'x'.repeat(501),
    });
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('Review cannot exceed 500 characters.');
    const ok = await rate(client, { orderId: order.id, productId: p.id, stars: 5, review: 'x'.repeat(500) });
    expect(ok.status).toBe(200);
  });
});
