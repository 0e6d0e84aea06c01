import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICING_MESSAGES, type TaxInvoice } from '../../api/contract/invoices';
import { readsAsInvoice, type Order } from '../../api/contract/orders';
import { financialYear } from '../../api/contract/pricing';
import { buildProduct, buildSeller } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { checkoutBody, newCustomer, payOnline, postCheckout, signIn } from './checkout-support';

/**
 * The tax invoice is issued when it is due, never for an unpaid order, and shows each gold line's HUID and how
 * and when the order was paid (issue #40 item 6, docs/product-rules.md §10).
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ env: { UNPAID_ORDERS_MAX_PER_CUSTOMER: '1000' } });
});
afterAll(async () => api?.close());

const WINDOW_MS = 15 * 60_000;

async function goldShop(prefix: string) {
  const shop = await buildSeller(api.db.knex);
  await api.db.knex('seller_profiles').where({ user_id: shop.id }).update({
    gst_number: '33ABCDE1234F1Z5',
    gst_state_code: '33',
    invoice_prefix: prefix,
  });
  const product = await buildProduct(api.db.knex, shop.id, {
    price: '61800.00',
    stockQuantity: 50,
    material: 'gold',
  });
  await api.db.knex('products').where({ id: product.id }).update({ huid: 'AB12CD' });
  return { shop, asShop: await signIn(api, shop), product };
}

async function placeOrder(productId: number, paymentMethod: string) {
  const c = await newCustomer(api);
  expect((await c.client.post('/_api/cart/add', { productId, quantity: 1 })).status).toBe(200);
  const res = await postCheckout(
    c.client,
    checkoutBody({ paymentMethod, state: '33', city: 'Chennai', pinCode: '600004' }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...c, res, order: res.body.orders[0] };
}

const invoiceOf = (client: ApiClient, orderId: number) =>
  client.get<{ invoice: TaxInvoice; error?: string; code?: string }>(
    `/_api/order/invoice?orderId=${orderId}`,
  );
const invoiceRows = (orderId: number) => api.db.knex('invoices').where({ order_id: orderId }).select('kind');
const setStatus = (client: ApiClient, orderId: number, status: string) =>
  client.post<{ order: Order; error?: string }>('/_api/orders/update-status', {
    orderId,
    status,
    ...(status === 'cancelled' ? { cancelReason: 'out_of_stock' } : {}),
  });

describe('the tax invoice is issued when it is due', () => {
  it('an online order has no invoice number until it is paid; then the invoice says how, when and the reference', async () => {
    const { asShop, product } = await goldShop('ONL');
    const { client, res, order } = await placeOrder(product.id, 'upi');
    expect(await invoiceRows(order.id)).toEqual([]);
    // An unpaid order is an order, not an invoice (issue #49): it says it has none yet.
    expect(order.invoiced).toBe(false);
    expect(readsAsInvoice(order)).toBe(false);
    for (const viewer of [client, asShop]) {
      const early = await invoiceOf(viewer, order.id);
      expect(early.status).toBe(404);
      expect(early.body).toMatchObject({ error: PRICING_MESSAGES.invoiceNotDue, code: 'invoice_not_due' });
      expect((await viewer.get(`/_api/order/invoice.pdf?orderId=${order.id}`)).status).toBe(404);
    }

    // Paid five minutes later (the server's clock): the invoice is dated then, not at checkout.
    api.clock.advance(5 * 60_000);
    const before = api.clock.now().getTime();
    const { verify } = await payOnline(api, client, res.body.payment!);
    expect(verify?.status).toBe(200);
    const after = api.clock.now().getTime();
    const inv = (await invoiceOf(client, order.id)).body.invoice;
    const fy = financialYear(api.clock.now());
    expect(inv.invoice.number).toBe(`ONL/${fy}/000001`);
    const paidOrder = (await client.get<{ order: Order }>(`/_api/order/details?orderId=${order.id}`)).body
      .order;
    expect(paidOrder).toMatchObject({ invoiced: true, paymentStatus: 'paid' });
    expect(readsAsInvoice(paidOrder)).toBe(true);
    const issued = Date.parse(inv.invoice.issuedAt);
    expect(issued).toBeGreaterThanOrEqual(before);
    expect(issued).toBeLessThanOrEqual(after);
    const paidAt = verify!.body.orders[0].paidAt;
    expect(inv.lines.map((l) => l.huid)).toEqual(['AB12CD']);
    const reference = (
      (await api.db
        .knex('gateway_payments')
        .where({ gateway_order_id: res.body.payment!.gatewayOrderId })
        .first('gateway_payment_id')) as { gateway_payment_id: string }
    ).gateway_payment_id;
    expect(reference).toMatch(/^pay_/);
    expect(inv.payment).toEqual({ method: 'upi', status: 'paid', paidAt, reference });
    // The seller sees the same invoice, and the PDF prints the payment.
    expect((await invoiceOf(asShop, order.id)).body.invoice.payment).toEqual(inv.payment);
    const pdf = await fetch(`${api.url}/_api/order/invoice.pdf?orderId=${order.id}`, {
      headers: { Cookie: client.cookieHeader() },
    });
    expect(pdf.status).toBe(200);
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    expect(text).toContain(inv.invoice.number);
    expect(text).toContain(`Paid by UPI on ${istWording(paidAt!)}.`);
    expect(text).toContain(`Payment reference: ${reference}.`);
  });

  it('an online order released unpaid never takes a number (nor a credit note), so the series has no gap', async () => {
    const { product } = await goldShop('GAP');
    const lapsed = await placeOrder(product.id, 'upi');
    api.clock.advance(WINDOW_MS + 60_000);
    await api.handle.background.runNow('orders:release-unpaid');
    expect((await api.db.knex('orders').where({ id: lapsed.order.id }).first('status')).status).toBe(
      'cancelled',
    );
    expect(await invoiceRows(lapsed.order.id)).toEqual([]);
    const gone = await invoiceOf(lapsed.client, lapsed.order.id);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('invoice_not_found');

    const paid = await placeOrder(product.id, 'upi');
    await payOnline(api, paid.client, paid.res.body.payment!);
    const inv = (await invoiceOf(paid.client, paid.order.id)).body.invoice;
    expect(inv.invoice.number).toBe(`GAP/${financialYear(api.clock.now())}/000001`);
  });

  it('a cash-on-delivery order is invoiced when the shop ships it, and shows when the cash was collected', async () => {
    const { asShop, product } = await goldShop('COD');
    const { client, order } = await placeOrder(product.id, 'cash_on_delivery');
    expect((await setStatus(asShop, order.id, 'confirmed')).status).toBe(200);
    expect(await invoiceRows(order.id)).toEqual([]);
    expect((await invoiceOf(client, order.id)).body.code).toBe('invoice_not_due');

    api.clock.advance(60 * 60_000);
    const before = api.clock.now().getTime();
    expect((await setStatus(asShop, order.id, 'shipped')).status).toBe(200);
    const after = api.clock.now().getTime();
    const shipped = (await invoiceOf(client, order.id)).body.invoice;
    expect(shipped.invoice.number).toBe(`COD/${financialYear(api.clock.now())}/000001`);
    const issued = Date.parse(shipped.invoice.issuedAt);
    expect(issued).toBeGreaterThanOrEqual(before);
    expect(issued).toBeLessThanOrEqual(after);
    expect(shipped.payment).toEqual({
      method: 'cash_on_delivery',
      status: 'cash_due',
      paidAt: null,
      reference: null,
    });

    expect((await setStatus(asShop, order.id, 'delivered')).status).toBe(200);
    const delivered = (await invoiceOf(client, order.id)).body.invoice;
    expect(delivered.invoice.number).toBe(shipped.invoice.number);
    expect(delivered.payment.status).toBe('cash_collected');
    expect(delivered.payment.paidAt).not.toBeNull();
  });

  it('a cash-on-delivery order cancelled before shipping has no invoice and no credit note', async () => {
    const { asShop, product } = await goldShop('CAN');
    const { client, order } = await placeOrder(product.id, 'cash_on_delivery');
    expect((await setStatus(asShop, order.id, 'cancelled')).status).toBe(200);
    expect(await invoiceRows(order.id)).toEqual([]);
    expect((await invoiceOf(client, order.id)).body.code).toBe('invoice_not_found');
  });
});

/** An instant as the invoice words it in India's time: "20 Nov 2026, 12:00 pm IST" (written out here). */
function istWording(iso: string): string {
  const t = new Date(Date.parse(iso) + 5.5 * 3_600_000);
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const h = t.getUTCHours();
  const minutes = String(t.getUTCMinutes()).padStart(2, '0');
  return `${t.getUTCDate()} ${months[t.getUTCMonth()]} ${t.getUTCFullYear()}, ${h % 12 || 12}:${minutes} ${h < 12 ? 'am' : 'pm'} IST`;
}

/** The text of a PDF, page by page (pdfjs-dist, the PDF.js reader). */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: bytes, useSystemFonts: false }).promise;
  const out: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    let line = '';
    for (const item of content.items) if ('str' in item) line += item.str + (item.hasEOL ? '\n' : '');
    out.push(line);
  }
  await doc.destroy();
  return out.join('\n');
}
