import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../api/contract/orders';
import { buildProduct, buildSeller } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { checkoutBody, newCustomer, payOnline, postCheckout, productState, signIn } from './checkout-support';

/**
 * Stock frozen by a stranger (issue #46, item 3): most pieces are single units, so a cap per product froze
 * nothing. One fresh account, whatever it tries (UPI orders across products, cash on delivery, again after
 * lapses and cancels), never keeps more than UNPAID_UNITS_MAX_PER_SHOP (5) units of one shop from others; a real
 * customer still buys a set of single pieces.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api?.close());

const WINDOW_MS = 15 * 60_000;

/** A shop with `singles` one-unit pieces and two pieces of 10 units each, all at ₹2,000. */
async function shopOf(singles: number) {
  const shop = await buildSeller(api.db.knex);
  const pieces: { id: number }[] = [];
  for (let i = 0; i < singles; i++)
    pieces.push(await buildProduct(api.db.knex, shop.id, { price: '2000.00', stockQuantity: 1 }));
  const stocked = await buildProduct(api.db.knex, shop.id, { price: '2000.00', stockQuantity: 10 });
  const stocked2 = await buildProduct(api.db.knex, shop.id, { price: '2000.00', stockQuantity: 10 });
  const initial = singles + 20;
  /** Units of the shop's stock that others cannot buy now (only the customer under test orders here). */
  const unavailable = async () => {
    let left = 0;
    for (const p of [...pieces, stocked, stocked2])
      left += (await productState(api, p.id)).stock_quantity ?? 0;
    return initial - left;
  };
  return { shop, asShop: await signIn(api, shop), pieces, stocked, stocked2, unavailable };
}

async function emptyCart(client: ApiClient) {
  const cart = await client.get<{ items: { cartItemId: number }[] }>('/_api/cart/list');
  for (const item of cart.body.items)
    expect((await client.post('/_api/cart/remove', { cartItemId: item.cartItemId })).status).toBe(200);
}

/** Empties the cart, fills it with these products (one unit each unless said), and checks out. */
async function order(client: ApiClient, products: { id: number }[], paymentMethod: string, quantity = 1) {
  await emptyCart(client);
  for (const p of products)
    expect((await client.post('/_api/cart/add', { productId: p.id, quantity })).status).toBe(200);
  return postCheckout(client, checkoutBody({ paymentMethod }));
}

const cancel = (asShop: ApiClient, orderId: number) =>
  asShop.post<{ order: Order }>('/_api/orders/update-status', {
    orderId,
    status: 'cancelled',
    cancelReason: 'out_of_stock',
  });

describe('one fresh account cannot freeze a shop’s single pieces', () => {
  it('keeps at most 5 units of one shop from others: UPI across products, cash on delivery, after lapses and cancels', async () => {
    const { pieces, stocked, stocked2, asShop, unavailable } = await shopOf(12);
    const { client } = await newCustomer(api);
    const refused = async (res: Awaited<ReturnType<typeof order>>) => {
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('too_many_unpaid_shop_units');
      expect(res.body.error).toContain('at most 5 pieces');
      expect(await unavailable()).toBeLessThanOrEqual(5);
    };

    // Every single piece in one unpaid UPI order (the attack that emptied five products): nothing placed.
    await refused(await order(client, pieces, 'upi'));
    expect(await unavailable()).toBe(0);
    // Six pieces by cash on delivery: nothing placed either.
    await refused(await order(client, pieces.slice(0, 6), 'cash_on_delivery'));
    // Units of stocked pieces count alike: 3 + 3 of two products is six.
    await refused(await order(client, [stocked, stocked2], 'upi', 3));
    expect(await unavailable()).toBe(0);

    // Split across orders: three, then three more refused (online or cash), two more fit: five in all.
    expect((await order(client, pieces.slice(0, 3), 'upi')).status).toBe(201);
    expect(await unavailable()).toBe(3);
    await refused(await order(client, pieces.slice(3, 6), 'upi'));
    await refused(await order(client, pieces.slice(3, 6), 'cash_on_delivery'));
    expect((await order(client, pieces.slice(3, 5), 'cash_on_delivery')).status).toBe(201);
    expect(await unavailable()).toBe(5);
    await refused(await order(client, [pieces[5]], 'upi'));
    await refused(await order(client, [stocked], 'cash_on_delivery'));

    // The account's two open orders, neither paid.
    const online = (await client.get<{ orders: Order[] }>('/_api/orders/customer?page=1&pageSize=20')).body
      .orders;
    expect(online.filter((o) => o.paymentStatus !== 'paid')).toHaveLength(2);

    // The shop cancels the cash order: its two units are back, and only two more can be taken.
    const cash = online.find((o) => o.paymentMethod === 'cash_on_delivery')!;
    expect((await cancel(asShop, cash.id)).status).toBe(200);
    expect(await unavailable()).toBe(3);
    await refused(await order(client, pieces.slice(5, 8), 'cash_on_delivery'));
    expect((await order(client, pieces.slice(5, 7), 'cash_on_delivery')).status).toBe(201);
    expect(await unavailable()).toBe(5);

    // The UPI order lapses unpaid: its three units come back, and three more may be taken, no more.
    api.clock.advance(WINDOW_MS + 60_000);
    await api.handle.background.runNow('orders:release-unpaid');
    expect(await unavailable()).toBe(2);
    await refused(await order(client, pieces.slice(7, 11), 'upi'));
    expect((await order(client, pieces.slice(7, 10), 'upi')).status).toBe(201);
    expect(await unavailable()).toBe(5);
    await refused(await order(client, [stocked], 'upi'));
    expect(await unavailable()).toBe(5);
  });

  it('a customer still buys a set of five single pieces, pays online, and buys another set', async () => {
    const { pieces, unavailable } = await shopOf(10);
    const other = await shopOf(5);
    const { client } = await newCustomer(api);

    // A bridal set of five single pieces in one order, paid online at once.
    const set = await order(client, pieces.slice(0, 5), 'upi');
    expect(set.status).toBe(201);
    expect(set.body.orders[0].items).toHaveLength(5);
    expect((await payOnline(api, client, set.body.payment!)).verify?.status).toBe(200);
    expect(await unavailable()).toBe(5);

    // Paid orders do not count: a second set of five from the same shop, by cash on delivery.
    const second = await order(client, pieces.slice(5, 10), 'cash_on_delivery');
    expect(second.status).toBe(201);
    expect(await unavailable()).toBe(10);

    // The cap is per shop: five pieces of another shop, unpaid, in the same account.
    expect((await order(client, other.pieces, 'upi')).status).toBe(201);
    expect(await other.unavailable()).toBe(5);
  });
});
