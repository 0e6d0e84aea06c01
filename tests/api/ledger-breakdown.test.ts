import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../api/contract/orders';
import type { AdminLedgerResponse, SellerLedgerResponse, ShopLedger } from '../../api/contract/payments';
import { buildProduct, buildSeller, buildUser } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { checkoutBody, newCustomer, payOnline, postCheckout, signIn } from './checkout-support';

/**
 * The Payments card's two sums (issue #48, docs/product-rules.md "Payments and the live dashboard"): paid − refunds −
 * commission = owed, and owed = awaiting delivery or the return window + paid out + balance due now, in integer
 * paise, for a shop with an order in every state.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ env: { PLATFORM_COMMISSION_PERCENT: '2.5' } });
});
afterAll(async () => api?.close());

const DAY_MS = 86_400_000;

const setStatus = (client: ApiClient, orderId: number, status: string) =>
  client.post<{ order: Order }>('/_api/orders/update-status', {
    orderId,
    status,
    // A shop's cancellation names its reason (§18).
    ...(status === 'cancelled' ? { cancelReason: 'customer_asked' } : {}),
  });

/** 2.5% of an amount in paise, rounded half up (docs/product-rules.md §10). */
const commission = (paise: number) => Math.floor((paise * 250 + 5_000) / 10_000);

function expectSums(l: Omit<ShopLedger, 'sellerId' | 'shopName'>) {
  const { paidPaise, refundsPaise, commissionPaise, owedPaise, pendingPaise, paidOutPaise, balancePaise } = l;
  for (const v of [
    paidPaise,
    refundsPaise,
    commissionPaise,
    owedPaise,
    pendingPaise,
    paidOutPaise,
    balancePaise,
  ])
    expect(Number.isInteger(v)).toBe(true);
  expect(l.paidPaise - l.refundsPaise - l.commissionPaise).toBe(l.owedPaise);
  expect(l.pendingPaise + l.paidOutPaise + l.balancePaise).toBe(l.owedPaise);
}

describe('the Payments card adds up', () => {
  it('splits what a shop is owed into awaiting, paid out and due now, with every part summing to the whole', async () => {
    const shop = await buildSeller(api.db.knex);
    // Prices whose commission rounds (₹1,234.57 → 3,086.425 paise → 3,086).
    const prices = { a: 123_457, b: 98_765, c: 45_601, d: 77_777 };
    const products = Object.fromEntries(
      await Promise.all(
        Object.entries(prices).map(async ([k, p]) => [
          k,
          await buildProduct(api.db.knex, shop.id, { price: (p / 100).toFixed(2), stockQuantity: 10 }),
        ]),
      ),
    ) as Record<keyof typeof prices, { id: number }>;
    const asShop = await signIn(api, shop);
    const admin = await signIn(api, await buildUser(api.db.knex, { role: 'admin' }));
    const paidOrder = async (key: keyof typeof prices) => {
      const c = await newCustomer(api);
      expect(
        (await c.client.post('/_api/cart/add', { productId: products[key].id, quantity: 1 })).status,
      ).toBe(200);
      const res = await postCheckout(c.client, checkoutBody({ paymentMethod: 'upi' }));
      expect(res.status).toBe(201);
      expect((await payOnline(api, c.client, res.body.payment!)).verify?.status).toBe(200);
      return res.body.orders[0].id;
    };
    const deliver = async (id: number) => {
      for (const s of ['confirmed', 'shipped', 'delivered'])
        expect((await setStatus(asShop, id, s)).status).toBe(200);
    };

    // a: delivered long ago (past the 7-day window), partly paid out.
    const a = await paidOrder('a');
    await deliver(a);
    api.clock.advance(8 * DAY_MS);
    // b: delivered today (within the return window).
    const b = await paidOrder('b');
    await deliver(b);
    // c: paid, not yet shipped.
    await paidOrder('c');
    // d: paid, then cancelled and refunded.
    const d = await paidOrder('d');
    expect((await setStatus(asShop, d, 'cancelled')).status).toBe(200);

    const netA = prices.a - commission(prices.a);
    const payout = 50_000;
    expect(
      (
        await admin.post('/_api/admin/payouts', {
          sellerId: shop.id,
          amountPaise: payout,
          reference: 'UTR-48',
        })
      ).status,
    ).toBe(201);

    const mine = (await asShop.get<SellerLedgerResponse>('/_api/seller/ledger')).body;
    expect(mine.returnWindowDays).toBe(7);
    expect(mine.commissionPercent).toBe(2.5);
    const paid = prices.a + prices.b + prices.c + prices.d;
    const kept = [prices.a, prices.b, prices.c];
    expect(mine.ledger).toEqual({
      sellerId: shop.id,
      shopName: expect.any(String) as string,
      paidPaise: paid,
      refundsPaise: prices.d,
      commissionPaise: kept.reduce((n, p) => n + commission(p), 0),
      owedPaise: kept.reduce((n, p) => n + p - commission(p), 0),
      pendingPaise: prices.b - commission(prices.b) + prices.c - commission(prices.c),
      paidOutPaise: payout,
      balancePaise: netA - payout,
    });
    expectSums(mine.ledger);

    // The admin's payout screen reads the same figures, and its totals add up the same way.
    const all = (await admin.get<AdminLedgerResponse>('/_api/admin/ledger')).body;
    expect(all.returnWindowDays).toBe(7);
    expect(all.shops.find((s) => s.sellerId === shop.id)).toEqual(mine.ledger);
    for (const s of all.shops) expectSums(s);
    expectSums(all.totals);
  });
});
