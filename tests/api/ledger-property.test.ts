import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminLedgerResponse } from '../../api/contract/payments';
import { commissionOf } from '../../api/src/features/payments/ledger';
import { buildProduct, buildSeller, buildUser } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { checkoutBody, newCustomer, payOnline, postCheckout, signIn } from './checkout-support';

/**
 * The ledger balances (issue #24): whatever shops sell, whatever is refunded, the sum over shops of owed +
 * commission + refunds equals what was paid, to the paisa, with a commission whose rounding bites (7.35%).
 */

const COMMISSION_PERCENT = 7.35;
let api: TestApi;
let admin: ApiClient;
beforeAll(async () => {
  api = await startTestApi({
    env: { PLATFORM_COMMISSION_PERCENT: String(COMMISSION_PERCENT), UNPAID_ORDERS_MAX_PER_CUSTOMER: '1000' },
  });
  admin = await signIn(api, await buildUser(api.db.knex, { role: 'admin' }));
});
afterAll(async () => api?.close());

describe('commission arithmetic', () => {
  it('is the amount × percent / 100 rounded half up to the paisa, never more than the amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (amount, bp) => {
          const c = commissionOf(amount, bp);
          expect(Number.isInteger(c)).toBe(true);
          expect(c).toBeGreaterThanOrEqual(0);
          expect(c).toBeLessThanOrEqual(amount);
          // Half up: |c − exact| ≤ ½ paisa, and exactly ½ rounds up.
          const exact = (BigInt(amount) * BigInt(bp) * 2n) / 10_000n; // 2 × exact, floored
          expect(Math.abs(2 * c - Number(exact))).toBeLessThanOrEqual(2);
        },
      ),
    );
    expect(commissionOf(20, 2_500)).toBe(5);
    expect(commissionOf(2, 2_500)).toBe(1); // 0.5 → 1
    expect(commissionOf(100_010, 250)).toBe(2_500); // 2,500.25 → 2,500
  });
});

const sale = fc.record({
  shop: fc.integer({ min: 0, max: 2 }),
  pricePaise: fc.integer({ min: 100, max: 5_000_000 }),
  quantity: fc.integer({ min: 1, max: 3 }),
  refund: fc.boolean(),
});

describe('the ledger balances', () => {
  it('sum over shops of owed + commission + refunds = paid, for any sales and refunds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(sale, { minLength: 1, maxLength: 5 }), async (sales) => {
        const shops = await Promise.all([0, 1, 2].map(() => buildSeller(api.db.knex)));
        const asShop = await Promise.all(shops.map((s) => signIn(api, s)));
        const c = await newCustomer(api);
        let paidPaise = 0;
        const commissionKept: number[] = [0, 0, 0];
        for (const s of sales) {
          const price = (s.pricePaise / 100).toFixed(2);
          const product = await buildProduct(api.db.knex, shops[s.shop].id, { price, stockQuantity: null });
          expect(
            (await c.client.post('/_api/cart/add', { productId: product.id, quantity: s.quantity })).status,
          ).toBe(200);
          const res = await postCheckout(
            c.client,
            checkoutBody({ paymentMethod: 'upi', buyerPan: 'ABCDE1234F' }),
          );
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          expect((await payOnline(api, c.client, res.body.payment!)).verify?.status).toBe(200);
          const amount = s.pricePaise * s.quantity;
          paidPaise += amount;
          if (s.refund) {
            const cancel = await asShop[s.shop].post('/_api/orders/update-status', {
              orderId: res.body.orders[0].id,
              status: 'cancelled',
              cancelReason: 'customer_asked',
            });
            expect(cancel.status).toBe(200);
          } else {
            commissionKept[s.shop] += commissionOf(amount, Math.round(COMMISSION_PERCENT * 100));
          }
        }
        const ledger = (await admin.get<AdminLedgerResponse>('/_api/admin/ledger')).body;
        const mine = ledger.shops.filter((l) => shops.some((s) => s.id === l.sellerId));
        const sum = mine.reduce((n, l) => n + l.owedPaise + l.commissionPaise + l.refundsPaise, 0);
        expect(sum).toBe(paidPaise);
        expect(mine.reduce((n, l) => n + l.paidPaise, 0)).toBe(paidPaise);
        for (const l of mine) {
          const i = shops.findIndex((s) => s.id === l.sellerId);
          expect(l.commissionPaise).toBe(commissionKept[i]);
          expect(l.owedPaise).toBeGreaterThanOrEqual(0);
          expect(Number.isInteger(l.owedPaise)).toBe(true);
        }
        // And across every shop the platform knows, the totals balance too.
        const t = ledger.totals;
        expect(t.owedPaise + t.commissionPaise + t.refundsPaise).toBe(t.paidPaise);
      }),
      { numRuns: 12 },
    );
  }, 240_000);
});
