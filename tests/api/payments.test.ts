import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutResponse } from '../../api/contract/checkout';
import type { Order } from '../../api/contract/orders';
import {
  LARGE_ORDER_PAISE,
  PAYMENT_MESSAGES,
  type AdminLedgerResponse,
  type PaymentOptions,
  type PaymentStart,
  type SellerLedgerResponse,
} from '../../api/contract/payments';
import { loadConfig } from '../../api/src/config';
import { startRazorpayDouble } from '../../api/src/doubles/razorpay-double';
import { decryptPan } from '../../api/src/features/payments/pan';
import { buildProduct, buildSeller, buildUser } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import {
  checkoutBody,
  newCustomer,
  payOnline,
  postCheckout,
  productState,
  razorpayDouble,
  signIn,
} from './checkout-support';

/**
 * Paying for it (issue #24) through the Razorpay test double: signatures, the server's amount, webhooks once,
 * the payment window, cash on delivery and PAN rules, refunds and the ledger.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ env: { PLATFORM_COMMISSION_PERCENT: '2.5', RAZORPAY_TIMEOUT_MS: '1000' } });
});
afterAll(async () => api?.close());

const WINDOW_MS = 15 * 60_000;

async function shopWithProduct(price: string, stock: number | null = 10, cod = true) {
  const shop = await buildSeller(api.db.knex);
  if (!cod)
    await api.db.knex('seller_profiles').where({ user_id: shop.id }).update({ cash_on_delivery: false });
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

const orderOf = async (client: ApiClient, id: number) =>
  (await client.get<{ order: Order }>(`/_api/order/details?orderId=${id}`)).body.order;
const setStatus = (client: ApiClient, orderId: number, status: string) =>
  client.post<{ order: Order; error?: string; code?: string }>('/_api/orders/update-status', {
    orderId,
    status,
    ...(status === 'cancelled' ? { cancelReason: 'out_of_stock' } : {}),
  });

describe('paying online through the gateway', () => {
  it('makes one gateway order for the whole cart at the server’s amount, and pays both shops’ orders by UPI', async () => {
    const a = await shopWithProduct('1234.50');
    const b = await shopWithProduct('999.00');
    const c = await newCustomer(api);
    const res = await checkout(c.client, [
      { productId: a.product.id, quantity: 2 },
      { productId: b.product.id, quantity: 1 },
    ]);
    expect(res.status).toBe(201);
    const payment = res.body.payment!;
    expect(payment).toMatchObject({
      gateway: 'razorpay',
      keyId: 'rzp_test_double',
      amountPaise: 2 * 123_450 + 99_900,
      currency: 'INR',
      testMode: true,
    });
    expect(payment.orderIds.sort()).toEqual(res.body.orders.map((o) => o.id).sort());
    const double = await razorpayDouble(api);
    expect(payment.scriptUrl).toBe(double.checkoutScriptUrl);
    expect(double.orders.get(payment.gatewayOrderId)?.amount).toBe(payment.amountPaise);
    expect(res.body.orders.every((o) => o.paymentStatus === 'pending' && o.payBefore !== null)).toBe(true);

    const { verify } = await payOnline(api, c.client, payment);
    expect(verify?.status).toBe(200);
    expect(verify?.body.orders.map((o) => o.paymentStatus)).toEqual(['paid', 'paid']);
    expect(verify?.body.orders.every((o) => o.paidAt !== null && o.payBefore === null)).toBe(true);
    // The shop can ship it now.
    const orderA = res.body.orders.find((o) => o.seller.id === a.shop.id)!;
    for (const s of ['confirmed', 'shipped'])
      expect((await setStatus(a.asShop, orderA.id, s)).status).toBe(200);
  });

  it('offers the methods that work: UPI first, cash on delivery only where the shop offers it and under ₹2 lakh', async () => {
    const open = await shopWithProduct('500.00');
    const c = await newCustomer(api);
    await c.client.post('/_api/cart/add', { productId: open.product.id, quantity: 1 });
    const opts = (await c.client.get<PaymentOptions>('/_api/payments/options')).body;
    expect(opts).toEqual({
      methods: ['upi', 'card', 'netbanking', 'cash_on_delivery'],
      defaultMethod: 'upi',
      online: true,
      testMode: true,
      cashUnavailable: null,
      panRequired: false,
    });
    const closed = await shopWithProduct('500.00', 10, false);
    await c.client.post('/_api/cart/add', { productId: closed.product.id, quantity: 1 });
    const without = (await c.client.get<PaymentOptions>('/_api/payments/options')).body;
    expect(without.methods).toEqual(['upi', 'card', 'netbanking']);
    expect(without.cashUnavailable).toBe(
      PAYMENT_MESSAGES.cashNotOffered.replace('{shop}', closed.shop.shopName),
    );
  });

  it('refuses a forged signature and a payment of another amount; the page never sets the amount', async () => {
    const { product } = await shopWithProduct('2500.00');
    const c = await newCustomer(api);
    const res = await checkout(c.client, [{ productId: product.id, quantity: 1 }]);
    const payment = res.body.payment!;
    const [order] = res.body.orders;

    // The page cannot name an amount when it asks to pay.
    const tampered = await c.client.post('/_api/payments/start', {
      checkoutRef: res.body.checkoutRef,
      amountPaise: 100,
    });
    expect(tampered.status).toBe(400);

    // A payment of ₹1 made on this gateway order (a tampered Checkout): verified by signature, but not the
    // server's amount. The orders stay unpaid and the payment is refunded whole.
    const double = await razorpayDouble(api);
    const cheap = await double.pay(payment.gatewayOrderId, 'success', { amount: 100 });
    expect('razorpay_signature' in cheap).toBe(true);
    const refused = await c.client.post('/_api/payments/verify', cheap);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: PAYMENT_MESSAGES.amountMismatch, code: 'payment_not_applied' });
    expect((await orderOf(c.client, order.id)).paymentStatus).toBe('pending');
    const paymentId = (cheap as { razorpay_payment_id: string }).razorpay_payment_id;
    expect(
      [...double.refunds.values()].filter((r) => r.payment_id === paymentId).map((r) => r.amount),
    ).toEqual([100]);

    // A real payment with a forged signature (made with another secret) is refused and changes nothing.
    const double2 = await startRazorpayDouble({
      keyId: 'rzp_test_x',
      keySecret: 'not-ours',
      webhookSecret: 'x',
    });
    try {
      const foreign = await double2.pay(
        await (async () => {
          const o = await fetch(`${double2.url}/v1/orders`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              Authorization: `Basic ${Buffer.from('rzp_test_x:not-ours').toString('base64')}`,
            },
            body: JSON.stringify({ amount: payment.amountPaise, currency: 'INR' }),
          });
          return ((await o.json()) as { id: string }).id;
        })(),
        'success',
      );
      const forged = {
        ...(foreign as { razorpay_payment_id: string; razorpay_signature: string }),
        razorpay_order_id: payment.gatewayOrderId,
      };
      const r1 = await c.client.post('/_api/payments/verify', forged);
      expect(r1.status).toBe(400);
      expect(r1.body).toEqual({ error: PAYMENT_MESSAGES.signatureInvalid, code: 'signature_invalid' });
    } finally {
      await double2.close();
    }
    const good = await double.pay(payment.gatewayOrderId, 'success');
    const flipped = { ...good, razorpay_signature: 'f'.repeat(64) };
    expect((await c.client.post('/_api/payments/verify', flipped)).status).toBe(400);
    // Another customer cannot use this customer's payment either.
    const other = await newCustomer(api);
    expect((await other.client.post('/_api/payments/verify', good)).status).toBe(400);
    // The webhooks of the real payment have paid it meanwhile; the page's report agrees, once.
    const ok = await c.client.post<{ orders: Order[] }>('/_api/payments/verify', good);
    expect(ok.status).toBe(200);
    expect(ok.body.orders[0].paymentStatus).toBe('paid');
    expect(
      await api.db.knex('ledger_entries').where({ order_id: order.id, kind: 'sale' }).count({ n: '*' }),
    ).toEqual([{ n: expect.anything() }]);
    const sales = await api.db.knex('ledger_entries').where({ order_id: order.id, kind: 'sale' });
    expect(sales.map((s: { amount_paise: string | number }) => Number(s.amount_paise))).toEqual([250_000]);
  });

  it('refuses webhooks with a forged signature or an altered body, changing nothing', async () => {
    const { product } = await shopWithProduct('800.00');
    const c = await newCustomer(api);
    const res = await checkout(c.client, [{ productId: product.id, quantity: 1 }]);
    const double = await razorpayDouble(api);
    double.holdWebhooks = true;
    try {
      await double.pay(res.body.payment!.gatewayOrderId, 'success');
    } finally {
      double.holdWebhooks = false;
    }
    const captured = double.webhooks.filter(
      (h) => h.event === 'payment.captured' && h.body.includes(res.body.payment!.gatewayOrderId),
    )[0];
    const post = (body: string, signature: string) =>
      fetch(`${api.url}/webhooks/razorpay`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Razorpay-Signature': signature },
        body,
      });
    const forged = crypto.createHmac('sha256', 'guessed-secret').update(captured.body).digest('hex');
    expect((await post(captured.body, forged)).status).toBe(400);
    const altered = captured.body.replace('"captured"', '"captured" ');
    expect((await post(altered, captured.signature)).status).toBe(400);
    expect((await post(captured.body, '')).status).toBe(400);
    expect((await orderOf(c.client, res.body.orders[0].id)).paymentStatus).toBe('pending');
    // The genuine one pays it.
    expect(await double.deliver(captured)).toBe(200);
    expect((await orderOf(c.client, res.body.orders[0].id)).paymentStatus).toBe('paid');
  });

  it('has one effect for the same webhooks replayed five times, late and out of order', async () => {
    const { shop, product } = await shopWithProduct('1500.00');
    const c = await newCustomer(api);
    const res = await checkout(c.client, [{ productId: product.id, quantity: 1 }]);
    const gatewayOrderId = res.body.payment!.gatewayOrderId;
    const double = await razorpayDouble(api);
    const from = double.webhooks.length;
    double.holdWebhooks = true;
    try {
      await double.pay(gatewayOrderId, 'failure'); // payment.failed (first attempt)
      await double.pay(gatewayOrderId, 'success'); // payment.captured, order.paid (second attempt)
    } finally {
      double.holdWebhooks = false;
    }
    const hooks = double.webhooks.slice(from);
    expect(hooks.map((h) => h.event)).toEqual(['payment.failed', 'payment.captured', 'order.paid']);
    // Out of order (order.paid first, the failure last), each five times, interleaved.
    const order = [...hooks].reverse();
    for (let round = 0; round < 5; round++) {
      for (const hook of order) expect(await double.deliver(hook)).toBe(200);
    }
    const seen = await orderOf(c.client, res.body.orders[0].id);
    expect(seen.paymentStatus).toBe('paid');
    const ledger = await api.db.knex('ledger_entries').where({ seller_id: shop.id });
    expect(
      ledger.map((e: { kind: string; amount_paise: string | number }) => [e.kind, Number(e.amount_paise)]),
    ).toEqual([['sale', 150_000]]);
    const payments = await api.db.knex('gateway_payments').where({ gateway_order_id: gatewayOrderId });
    expect(payments.map((p: { status: string }) => p.status).sort()).toEqual(['captured', 'failed']);
    expect(payments.every((p: { refund_state: string }) => p.refund_state === 'none')).toBe(true);
  });
});

describe('the payment window', () => {
  it('keeps a failed or abandoned payment "pending" with Pay now, then cancels it and returns the stock', async () => {
    const { product } = await shopWithProduct('700.00', 5);
    const c = await newCustomer(api);
    const res = await checkout(c.client, [{ productId: product.id, quantity: 2 }]);
    const [order] = res.body.orders;
    expect((await productState(api, product.id)).stock_quantity).toBe(3);

    const { checkout: failed } = await payOnline(api, c.client, res.body.payment!, 'failure');
    expect('error' in failed).toBe(true);
    expect((await orderOf(c.client, order.id)).paymentStatus).toBe('failed');

    // "Pay now" answers the same gateway order (Checkout may retry it) for the same amount.
    const again = await c.client.post<PaymentStart>('/_api/payments/start', {
      checkoutRef: res.body.checkoutRef,
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      gatewayOrderId: res.body.payment!.gatewayOrderId,
      amountPaise: 140_000,
    });

    // Not yet at the end of the window; then cancelled, the stock back once.
    api.clock.advance(WINDOW_MS - 60_000);
    await api.handle.background.runNow('orders:release-unpaid');
    expect((await orderOf(c.client, order.id)).status).toBe('pending');
    api.clock.advance(2 * 60_000);
    await api.handle.background.runNow('orders:release-unpaid');
    await api.handle.background.runNow('orders:release-unpaid');
    expect(await orderOf(c.client, order.id)).toMatchObject({ status: 'cancelled', paymentStatus: 'failed' });
    expect((await productState(api, product.id)).stock_quantity).toBe(5);
    const nothing = await c.client.post('/_api/payments/start', { checkoutRef: res.body.checkoutRef });
    expect(nothing.status).toBe(409);
    expect(nothing.body).toMatchObject({ code: 'nothing_to_pay' });

    // A payment that still arrives for the cancelled order is refunded whole, and pays nothing.
    const double = await razorpayDouble(api);
    const late = await double.pay(res.body.payment!.gatewayOrderId, 'success');
    const lateId = (late as { razorpay_payment_id: string }).razorpay_payment_id;
    expect([...double.refunds.values()].filter((r) => r.payment_id === lateId).map((r) => r.amount)).toEqual([
      140_000,
    ]);
    expect((await orderOf(c.client, order.id)).status).toBe('cancelled');
    expect((await productState(api, product.id)).stock_quantity).toBe(5);
  });

  it('leaves the orders waiting for Pay now when the gateway does not answer', async () => {
    const { product } = await shopWithProduct('300.00');
    const c = await newCustomer(api);
    const double = await razorpayDouble(api);
    double.failNext('POST /v1/orders', 'timeout');
    const res = await checkout(c.client, [{ productId: product.id, quantity: 1 }]);
    expect(res.status).toBe(201);
    expect(res.body.payment).toBeNull();
    expect(res.body.orders[0].paymentStatus).toBe('pending');
    double.failNext('POST /v1/orders', 'error');
    const down = await c.client.post('/_api/payments/start', { checkoutRef: res.body.checkoutRef });
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      error: PAYMENT_MESSAGES.gatewayUnavailable,
      code: 'payment_gateway_unavailable',
    });
    const later = await c.client.post<PaymentStart>('/_api/payments/start', {
      checkoutRef: res.body.checkoutRef,
    });
    expect(later.status).toBe(200);
    expect((await payOnline(api, c.client, later.body)).verify?.status).toBe(200);
  });
});

describe('cash on delivery and PAN', () => {
  it('refuses cash on delivery where the shop does not offer it, and at ₹2,00,000 or more', async () => {
    const closed = await shopWithProduct('500.00', 10, false);
    const c = await newCustomer(api);
    const refused = await checkout(c.client, [{ productId: closed.product.id, quantity: 1 }], {
      paymentMethod: 'cash_on_delivery',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: PAYMENT_MESSAGES.cashNotOffered.replace('{shop}', closed.shop.shopName),
      code: 'cash_not_offered',
    });
    await c.client.post('/_api/cart/remove', { cartItemId: (await cartIds(c.client))[0] });

    const big = await shopWithProduct('100000.00');
    await c.client.post('/_api/cart/add', { productId: big.product.id, quantity: 2 }); // exactly ₹2,00,000
    const cash = await postCheckout(c.client, checkoutBody({ buyerPan: 'ABCDE1234F' }));
    expect(cash.status).toBe(400);
    expect(cash.body).toMatchObject({ error: PAYMENT_MESSAGES.cashLimit, code: 'cash_limit' });
    expect((await productState(api, big.product.id)).stock_quantity).toBe(10);
    // Just under the limit, cash is fine.
    const under = await shopWithProduct('199999.99');
    const d = await newCustomer(api);
    const ok = await checkout(d.client, [{ productId: under.product.id, quantity: 1 }], {
      paymentMethod: 'cash_on_delivery',
    });
    expect(ok.status).toBe(201);
    expect(ok.body.orders[0]).toMatchObject({
      paymentStatus: 'cash_due',
      payBefore: null,
      buyerPanMasked: null,
    });
    expect(ok.body.payment).toBeUndefined();
  });

  it('asks for the PAN at ₹2,00,000 or more, checks its format, keeps it encrypted and shows it masked', async () => {
    const big = await shopWithProduct(String(LARGE_ORDER_PAISE / 100));
    const c = await newCustomer(api);
    await c.client.post('/_api/cart/add', { productId: big.product.id, quantity: 1 });
    const none = await postCheckout(c.client, checkoutBody({ paymentMethod: 'upi' }));
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ error: PAYMENT_MESSAGES.panRequired, code: 'pan_required' });
    for (const bad of ['ABCD1234F', 'ABCDE12345', '1BCDE1234F', 'ABCDE1234FF']) {
      const r = await postCheckout(c.client, checkoutBody({ paymentMethod: 'upi', buyerPan: bad }));
      expect(r.status, bad).toBe(400);
      expect(r.body.error, bad).toBe(PAYMENT_MESSAGES.panInvalid);
    }
    const placed = await postCheckout(
      c.client,
      checkoutBody({ paymentMethod: 'upi', buyerPan: ' abcde1234f ' }),
    );
    expect(placed.status).toBe(201);
    const [order] = placed.body.orders;
    expect(order.buyerPanMasked).toBe('ABCDE****F');
    expect((await orderOf(big.asShop, order.id)).buyerPanMasked).toBe('ABCDE****F');
    const row = (await api.db.knex('orders').where({ id: order.id }).first('buyer_pan_enc')) as {
      buyer_pan_enc: string;
    };
    expect(row.buyer_pan_enc).not.toContain('ABCDE1234F');
    expect(decryptPan(api.config.payments.panKey, row.buyer_pan_enc)).toBe('ABCDE1234F');
    // Tampering with the stored value is detected (GCM).
    // One bit of the ciphertext itself is flipped: changing the text's last characters could leave the bytes as
    // they were (the final base64 character partly holds padding bits).
    const [version, iv, tag, data] = row.buyer_pan_enc.split('.');
    const bytes = Buffer.from(data, 'base64url');
    bytes[0] ^= 1;
    const flipped = [version, iv, tag, bytes.toString('base64url')].join('.');
    expect(() => decryptPan(api.config.payments.panKey, flipped)).toThrow();
  });
});

async function cartIds(client: ApiClient): Promise<number[]> {
  const cart = await client.get<{ items: { cartItemId: number }[] }>('/_api/cart/list');
  return cart.body.items.map((i) => i.cartItemId);
}

describe('refunds and the ledger', () => {
  it('refunds a paid order once when it is cancelled twice at once, and returns the stock once', async () => {
    const { shop, asShop, product } = await shopWithProduct('4000.00', 3);
    const c = await newCustomer(api);
    const res = await checkout(c.client, [{ productId: product.id, quantity: 2 }]);
    const [order] = res.body.orders;
    expect((await payOnline(api, c.client, res.body.payment!)).verify?.status).toBe(200);
    expect((await productState(api, product.id)).stock_quantity).toBe(1);

    const both = await Promise.all([
      setStatus(asShop, order.id, 'cancelled'),
      setStatus(asShop, order.id, 'cancelled'),
    ]);
    // One wins; the other is refused: stale (409) while racing, or an invalid move (400) once it is cancelled.
    const [won, lost] = [...both].sort((x, y) => x.status - y.status);
    expect(won.status).toBe(200);
    expect([400, 409]).toContain(lost.status);
    const double = await razorpayDouble(api);
    const paymentId = (
      (await api.db
        .knex('gateway_payments')
        .where({ gateway_order_id: res.body.payment!.gatewayOrderId })
        .first()) as {
        gateway_payment_id: string;
      }
    ).gateway_payment_id;
    expect(
      [...double.refunds.values()].filter((r) => r.payment_id === paymentId).map((r) => r.amount),
    ).toEqual([800_000]);
    expect((await productState(api, product.id)).stock_quantity).toBe(3);
    // A third cancel is refused as an invalid move; nothing more is refunded.
    expect((await setStatus(asShop, order.id, 'cancelled')).status).toBe(400);
    await api.handle.background.runNow('payments:send-refunds');
    expect([...double.refunds.values()].filter((r) => r.payment_id === paymentId)).toHaveLength(1);
    // Both sides see the refund (the double processes it at once and says so by webhook too).
    for (const viewer of [c.client, asShop]) {
      expect(await orderOf(viewer, order.id)).toMatchObject({
        status: 'cancelled',
        paymentStatus: 'refunded',
        refund: { status: 'processed', amountPaise: 800_000 },
      });
    }
    const ledger = (await asShop.get<SellerLedgerResponse>('/_api/seller/ledger')).body;
    expect(ledger.ledger).toMatchObject({
      sellerId: shop.id,
      paidPaise: 800_000,
      commissionPaise: 0,
      refundsPaise: 800_000,
      owedPaise: 0,
    });
  });

  it('keeps each shop’s ledger: paid, 2.5% commission, refunds, owed; the admin records payouts', async () => {
    const { shop, asShop, product } = await shopWithProduct('1000.10', null);
    const c = await newCustomer(api);
    const first = await checkout(c.client, [{ productId: product.id, quantity: 1 }]);
    await payOnline(api, c.client, first.body.payment!);
    const second = await checkout(c.client, [{ productId: product.id, quantity: 3 }]);
    await payOnline(api, c.client, second.body.payment!);
    expect((await setStatus(asShop, second.body.orders[0].id, 'cancelled')).status).toBe(200);

    // 1000.10 → commission 2.5% of 100,010 paise = 2,500.25 → 2,500; the refunded sale's commission goes back.
    const mine = (await asShop.get<SellerLedgerResponse>('/_api/seller/ledger')).body;
    expect(mine.commissionPercent).toBe(2.5);
    expect(mine.ledger).toEqual({
      sellerId: shop.id,
      shopName: shop.shopName,
      paidPaise: 100_010 + 300_030,
      commissionPaise: 2_500,
      refundsPaise: 300_030,
      owedPaise: 100_010 - 2_500,
      paidOutPaise: 0,
      // Not delivered yet: owed, but nothing can be paid out (docs/security.md "Payouts").
      pendingPaise: 100_010 - 2_500,
      balancePaise: 0,
    });
    expect(mine.entries.map((e) => e.kind)).toEqual(['refund', 'sale', 'sale']);
    // Delivered and past the 7-day return window: payable.
    for (const s of ['confirmed', 'shipped', 'delivered'])
      expect((await setStatus(asShop, first.body.orders[0].id, s)).status).toBe(200);
    api.clock.advance(7 * 86_400_000 + 60_000);

    const admin = await signIn(api, await buildUser(api.db.knex, { role: 'admin' }));
    const tooMuch = await admin.post('/_api/admin/payouts', {
      sellerId: shop.id,
      amountPaise: 97_511,
      reference: 'UTR1',
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toMatchObject({
      code: 'payout_too_large',
      error: 'The payout is more than the shop is owed (₹975.10).',
    });
    const noRef = await admin.post('/_api/admin/payouts', {
      sellerId: shop.id,
      amountPaise: 100,
      reference: ' ',
    });
    expect(noRef.status).toBe(400);
    expect(noRef.body.error).toBe(PAYMENT_MESSAGES.referenceRequired);
    const paid = await admin.post('/_api/admin/payouts', {
      sellerId: shop.id,
      amountPaise: 97_510,
      reference: 'UTR2',
    });
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({ ledger: { paidOutPaise: 97_510, balancePaise: 0 } });
    const all = (await admin.get<AdminLedgerResponse>('/_api/admin/ledger')).body;
    const row = all.shops.find((s) => s.sellerId === shop.id)!;
    expect(row).toMatchObject({ owedPaise: 97_510, paidOutPaise: 97_510, balancePaise: 0 });
    expect(all.totals.paidPaise).toBe(all.shops.reduce((n, s) => n + s.paidPaise, 0));
    // Balanced: owed + commission + refunds = paid, for every shop and in total.
    for (const s of all.shops) expect(s.owedPaise + s.commissionPaise + s.refundsPaise).toBe(s.paidPaise);
  });

  it('lets a shop stop offering cash on delivery', async () => {
    const { asShop } = await shopWithProduct('10.00');
    expect((await asShop.get('/_api/seller/payment-settings')).body).toEqual({ cashOnDelivery: true });
    expect((await asShop.post('/_api/seller/payment-settings', { cashOnDelivery: false })).status).toBe(200);
    expect((await asShop.get('/_api/seller/payment-settings')).body).toEqual({ cashOnDelivery: false });
  });
});

describe('configuration', () => {
  it('never runs the double in production, and production needs the PAN key', async () => {
    const key = 'a'.repeat(64);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PAN_ENCRYPTION_KEY/);
    const prod = loadConfig({ NODE_ENV: 'production', PAN_ENCRYPTION_KEY: key });
    expect(prod.payments).toMatchObject({ useDouble: false, razorpay: undefined });
    expect(loadConfig({ NODE_ENV: 'development' }).payments.useDouble).toBe(true);
    expect(() => loadConfig({ NODE_ENV: 'test', RAZORPAY_KEY_ID: 'rzp_test_1' })).toThrow(/set all three/);
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await expect(startRazorpayDouble({ keyId: 'k', keySecret: 's', webhookSecret: 'w' })).rejects.toThrow(
        /never runs in production/,
      );
    } finally {
      process.env.NODE_ENV = previous;
    }
  });

  it('offers cash on delivery only when there is no gateway', async () => {
    const off = await startTestApi({ env: { NODE_ENV: 'production', PAN_ENCRYPTION_KEY: 'b'.repeat(64) } });
    try {
      expect(off.handle.deps.payments).toBeUndefined();
      const shop = await buildSeller(off.db.knex);
      const product = await buildProduct(off.db.knex, shop.id, { price: '100.00' });
      const user = await buildUser(off.db.knex, { role: 'customer' });
      const token = crypto.randomBytes(32).toString('base64url');
      await off.db.knex('sessions').insert({
        id: crypto.createHash('sha256').update(token).digest('base64url'),
        user_id: user.id,
        expires_at: new Date(Date.now() + 86_400_000),
      });
      const client = off.client();
      client.cookies.set('nagai_session', token);
      await client.post('/_api/cart/add', { productId: product.id, quantity: 1 });
      expect((await client.get<PaymentOptions>('/_api/payments/options')).body).toMatchObject({
        methods: ['cash_on_delivery'],
        defaultMethod: 'cash_on_delivery',
        online: false,
      });
      const refused = await postCheckout(client, checkoutBody({ paymentMethod: 'upi' }));
      expect(refused.status).toBe(400);
      expect((refused.body as CheckoutResponse & { error?: string }).error).toBe(
        PAYMENT_MESSAGES.onlineUnavailable,
      );
    } finally {
      await off.close();
    }
  });
});
