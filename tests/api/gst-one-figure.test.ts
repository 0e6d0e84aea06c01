import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductGetResponse } from '../../api/contract/catalog';
import type { TaxInvoice } from '../../api/contract/invoices';
import { toPaise } from '../../api/contract/money';
import type { OrdersPage } from '../../api/contract/orders';
import { invoiceTotals } from '../../pwa/src/features/orders/invoice';
import { buildProduct, buildSeller } from '../factories';
import { startTestApi, type TestApi } from '../support/api';
import { checkoutBody, checkoutPaid, newCustomer } from './checkout-support';

/**
 * One GST figure (issue #40 item 4): for any cart, the GST the product page shows (per unit), the GST the order
 * summary shows (its lines, its total, and the PWA's summary of it) and the tax invoice's CGST + SGST (or IGST)
 * are the same amount, to the paisa. The products carry a stored GST field of 3 % of the inclusive price (what
 * the old pages showed), so a page that read it instead of the invoice's arithmetic fails.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ env: { UNPAID_ORDERS_MAX_PER_CUSTOMER: '1000' } });
});
afterAll(async () => api?.close());

const line = fc.record({
  // Under ₹2,00,000 a cart, so it needs no PAN (it is paid online: the invoice is issued on payment).
  pricePaise: fc.integer({ min: 100, max: 1_500_000 }),
  quantity: fc.integer({ min: 1, max: 3 }),
});

describe('one GST figure', () => {
  it('the product page, the order summary and the tax invoice show the same GST for any cart', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (lines, interState) => {
          const seller = await buildSeller(api.db.knex);
          const c = await newCustomer(api);
          let pageGst = 0;
          for (const l of lines) {
            const price = (l.pricePaise / 100).toFixed(2);
            const product = await buildProduct(api.db.knex, seller.id, {
              price,
              gstAmount: (Math.round(l.pricePaise * 0.03) / 100).toFixed(2),
              stockQuantity: null,
            });
            const page = await c.client.get<ProductGetResponse>(`/_api/products/get?id=${product.id}`);
            expect(page.status).toBe(200);
            pageGst += toPaise(page.body.product.gstAmount!) * l.quantity;
            const add = await c.client.post('/_api/cart/add', {
              productId: product.id,
              quantity: l.quantity,
            });
            expect(add.status, JSON.stringify(add.body)).toBe(200);
          }
          const res = await checkoutPaid(
            api,
            c.client,
            checkoutBody(interState ? { city: 'Bengaluru', state: 'Karnataka', pinCode: '560011' } : {}),
          );
          expect(res.status, JSON.stringify(res.body)).toBe(201);
          const orderId = res.body.orders[0].id;
          const inv = await c.client.get<{ invoice: TaxInvoice }>(`/_api/order/invoice?orderId=${orderId}`);
          expect(inv.status, JSON.stringify(inv.body)).toBe(200);
          const invoice = inv.body.invoice;
          const invoiceGst = toPaise(invoice.cgst) + toPaise(invoice.sgst) + toPaise(invoice.igst);
          expect(toPaise(invoice.totalGst)).toBe(invoiceGst);

          const orders = await c.client.get<OrdersPage>('/_api/orders/customer?page=1&pageSize=20');
          const order = orders.body.orders.find((o) => o.id === orderId)!;
          const summaryLines = order.items.reduce((s, i) => s + toPaise(i.gstAmount!) * i.quantity, 0);

          expect(pageGst).toBe(invoiceGst);
          expect(toPaise(order.gstTotal)).toBe(invoiceGst);
          expect(summaryLines).toBe(invoiceGst);
          expect(toPaise(invoiceTotals(order).gst)).toBe(invoiceGst);
          // The invoice's lines add up to its GST and to what was charged.
          expect(invoice.lines.reduce((s, l) => s + toPaise(l.gst), 0)).toBe(invoiceGst);
          expect(toPaise(invoice.total)).toBe(toPaise(order.totalAmount));
        },
      ),
      { numRuns: 10 },
    );
  }, 240_000);
});
