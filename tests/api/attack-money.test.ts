import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../api/contract/orders';
import type { AdminLedgerResponse, SellerLedgerResponse } from '../../api/contract/payments';
import { buildProduct, buildSeller, buildUser } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { checkoutBody, newCustomer, payOnline, postCheckout, productState, signIn } from './checkout-support';

/**
 * Money and stock that cannot be gamed (issue #34): units per customer in unpaid orders, customers whose orders
 * keep lapsing, payouts only of what was earned, and refunds that cannot 500.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ env: { PLATFORM_COMMISSION_PERCENT: '2.5' } });
});
afterAll(async () => api?.close());

const WINDOW_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

async function shopWithProduct(price: string, stock: number | null = 100) {
  const shop = await buildSeller(api.db.knex);
  const product = await buildProduct(api.db.knex, shop.id, { price, stockQuantity: stock });
  return { shop, asShop: await signIn(api, shop), product };
}

async function checkout(
  client: ApiClient,
  lines: { productId: number; quantity: number }[],
  body: Record<string, unknown> = { paymentMethod: 'upi' },
) {
  for (const line of lines) expect((await client.post('/_api/cart/add', line)).status).toBe(200);
  return postCheckout(client, checkoutBody(body));
}

const setStatus = (client: ApiClient, orderId: number, status: string) =>
  client.post<{ order: Order; error?: string; code?: string }>('/_api/orders/update-status', {
    orderId,
    status,
    ...(status === 'cancelled' ? { cancelReason: 'out_of_stock' } : {}),
  });

async function emptyCart(client: ApiClient) {
  const cart = await client.get<{ items: { cartItemId: number }[] }>('/_api/cart/list');
  for (const item of cart.body.items)
    expect((await client.post('/_api/cart/remove', { cartItemId: item.cartItemId })).status).toBe(200);
}

describe('one unpaid order cannot freeze a shop’s stock', () => {
  it('caps the units of one product a customer has in unpaid orders (default 5)', async () => {
    const { product } = await shopWithProduct('1500.00', 1000);
    const c = await newCustomer(api);
    const all = await checkout(c.client, [{ productId: product.id, quantity: 1000 }]);
    expect(all.status).toBe(409);
    expect(all.body).toMatchObject({ code: 'too_many_unpaid_units' });
    expect((await productState(api, product.id)).stock_quantity).toBe(1000);

    // Nothing was placed; the cart keeps its line.
    await emptyCart(c.client);
    const three = await checkout(c.client, [{ productId: product.id, quantity: 3 }]);
    expect(three.status).toBe(201);
    // 3 unpaid + 3 more is over 5, by cash on delivery too; 2 more fits.
    const more = await checkout(c.client, [{ productId: product.id, quantity: 3 }], {
      paymentMethod: 'cash_on_delivery',
    });
    expect(more.status).toBe(409);
    expect(more.body.code).toBe('too_many_unpaid_units');
    await emptyCart(c.client);
    expect((await checkout(c.client, [{ productId: product.id, quantity: 2 }])).status).toBe(201);
    expect((await productState(api, product.id)).stock_quantity).toBe(995);
    // Made-to-order pieces (no counted stock) cannot be frozen: no cap.
    const { product: open } = await shopWithProduct('100.00', null);
    expect((await checkout(c.client, [{ productId: open.id, quantity: 50 }])).status).toBe(201);
  });

  it('makes a customer whose orders keep lapsing unpaid wait before ordering again, longer each time', async () => {
    const { product } = await shopWithProduct('800.00', 100);
    const c = await newCustomer(api);
    const lapse = async () => {
      const placed = await checkout(c.client, [{ productId: product.id, quantity: 1 }]);
      expect(placed.status).toBe(201);
      api.clock.advance(WINDOW_MS + 60_000);
      await api.handle.background.runNow('orders:release-unpaid');
      expect((await productState(api, product.id)).stock_quantity).toBe(100);
    };
    // Two lapses in a day are free (a phone that lost its network, a card that failed).
    await lapse();
    await lapse();
    await lapse();
    // After the third lapse in a day: 30 minutes' wait from it.
    const waiting = await checkout(c.client, [{ productId: product.id, quantity: 1 }]);
    expect(waiting.status).toBe(429);
    expect(waiting.body).toMatchObject({ code: 'unpaid_orders_lapsed' });
    expect(Number(waiting.headers.get('retry-after'))).toBeGreaterThan(60);
    expect((await productState(api, product.id)).stock_quantity).toBe(100);
    api.clock.advance(30 * 60_000);
    const after = await postCheckout(c.client, checkoutBody({ paymentMethod: 'upi' }));
    expect(after.status).toBe(201);
    api.clock.advance(WINDOW_MS + 60_000);
    await api.handle.background.runNow('orders:release-unpaid');
    // The fourth lapse doubles the wait: still refused after 30 minutes, placed after 60.
    api.clock.advance(30 * 60_000);
    expect((await checkout(c.client, [{ productId: product.id, quantity: 1 }])).status).toBe(429);
    api.clock.advance(30 * 60_000);
    expect((await postCheckout(c.client, checkoutBody({ paymentMethod: 'upi' }))).status).toBe(201);
    // Another customer is not slowed down.
    const other = await newCustomer(api);
    expect((await checkout(other.client, [{ productId: product.id, quantity: 1 }])).status).toBe(201);
    api.clock.advance(DAY_MS);
  });
});

describe('payouts only of what was earned', () => {
  it('pays out an order only once delivered and past the return window; a refund after a payout is recovered from the next', async () => {
    const { shop, asShop, product } = await shopWithProduct('1000.00', 100);
    const admin = await signIn(api, await buildUser(api.db.knex, { role: 'admin' }));
    const ledgerOf = async () => (await asShop.get<SellerLedgerResponse>('/_api/seller/ledger')).body;
    const payout = (amountPaise: number, reference: string) =>
      admin.post<{ ledger: SellerLedgerResponse['ledger']; code?: string }>('/_api/admin/payouts', {
        sellerId: shop.id,
        amountPaise,
        reference,
      });
    const c = await newCustomer(api);
    const paidOrder = async (quantity: number) => {
      const res = await checkout(c.client, [{ productId: product.id, quantity }]);
      expect(res.status).toBe(201);
      expect((await payOnline(api, c.client, res.body.payment!)).verify?.status).toBe(200);
      return res.body.orders[0].id;
    };
    const net = 100_000 - 2_500; // ₹1,000 less 2.5% commission

    // Paid, not shipped: owed, but pending; nothing can be paid out.
    const a = await paidOrder(1);
    expect((await ledgerOf()).ledger).toMatchObject({ owedPaise: net, pendingPaise: net, balancePaise: 0 });
    expect((await payout(net, 'UTR-EARLY')).body).toMatchObject({ code: 'payout_too_large' });

    // Delivered: still pending for the return window (7 days), then payable.
    for (const s of ['confirmed', 'shipped', 'delivered'])
      expect((await setStatus(asShop, a, s)).status).toBe(200);
    expect((await ledgerOf()).ledger).toMatchObject({ pendingPaise: net, balancePaise: 0 });
    api.clock.advance(6 * DAY_MS);
    expect((await payout(1, 'UTR-6DAYS')).status).toBe(400);
    api.clock.advance(DAY_MS + 60_000);
    expect((await ledgerOf()).ledger).toMatchObject({ pendingPaise: 0, balancePaise: net });
    expect((await payout(net, 'UTR-A')).status).toBe(201);
    // Nothing is paid out twice.
    expect((await payout(1, 'UTR-AGAIN')).body).toMatchObject({ code: 'payout_too_large' });

    // The attack: a paid order, unshipped, cancelled after "a payout of the whole balance": the balance never
    // went past what was earned, so the refund leaves the shop at 0, not below.
    const b = await paidOrder(2);
    expect((await ledgerOf()).ledger).toMatchObject({ pendingPaise: 2 * net, balancePaise: 0 });
    expect((await setStatus(asShop, b, 'cancelled')).status).toBe(200);
    expect((await ledgerOf()).ledger).toMatchObject({ pendingPaise: 0, balancePaise: 0 });

    // A payout recorded under the old rule (before delivery), then a refund: the balance goes negative, the
    // refund says it is recovered from the next payouts, and the next delivered order pays it back first.
    const c3 = await paidOrder(1);
    await api.db.knex('ledger_entries').insert({
      seller_id: shop.id,
      kind: 'payout',
      amount_paise: net,
      reference: 'UTR-OLD-RULE',
    });
    expect((await setStatus(asShop, c3, 'cancelled')).status).toBe(200);
    const after = await ledgerOf();
    expect(after.ledger).toMatchObject({ balancePaise: -net, pendingPaise: 0 });
    const refund = after.entries.find((e) => e.kind === 'refund' && e.orderId === c3)!;
    expect(refund.recoveredFromPayouts).toBe(true);
    expect(after.entries.find((e) => e.kind === 'refund' && e.orderId === b)!.recoveredFromPayouts).toBe(
      false,
    );
    const d = await paidOrder(3);
    for (const s of ['confirmed', 'shipped', 'delivered'])
      expect((await setStatus(asShop, d, s)).status).toBe(200);
    api.clock.advance(8 * DAY_MS);
    expect((await ledgerOf()).ledger).toMatchObject({ balancePaise: 3 * 100_000 - 7_500 - net });
    expect((await payout(3 * 100_000 - 7_500, 'UTR-TOO-MUCH')).status).toBe(400);
    expect((await payout(3 * 100_000 - 7_500 - net, 'UTR-D')).status).toBe(201);
    const all = (await admin.get<AdminLedgerResponse>('/_api/admin/ledger')).body;
    expect(all.shops.find((s) => s.sellerId === shop.id)).toMatchObject({ balancePaise: 0, pendingPaise: 0 });
  });
});
