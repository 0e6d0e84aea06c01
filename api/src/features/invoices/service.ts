import type { Knex } from 'knex';
import { fromPaise, toPaise } from '../../../contract/money';
import type { CheckoutData } from '../../../contract/checkout';
import {
  PRICING_MESSAGES,
  type InvoiceLine,
  type TaxDocument,
  type TaxInvoice,
} from '../../../contract/invoices';
import {
  amountInWords,
  DEFAULT_INVOICE_PREFIX,
  financialYear,
  GST_STATES,
  INVOICE_SEQ_DIGITS,
  invoiceMoney,
} from '../../../contract/pricing';
import { amountInTamilWords } from '../../../contract/tamil-words';
import { notFound } from '../../http/errors';
import { PAYMENT_METHODS, type PaymentMethod, type PaymentStatus } from '../../../contract/constants';

/**
 * The GST tax invoice (docs/product-rules.md §10). An order's invoice is issued when it is due, never before:
 * an online order's in the transaction that records its captured payment (payments/service.ts applyCapture),
 * a cash-on-delivery order's in the transaction that ships it (or delivers it, when it skipped shipping). One
 * counter row per shop, kind and financial year is incremented (`insert … on conflict do update`, which waits
 * for a concurrent issue's row lock and then reads its committed value) in the same statement that inserts the
 * invoice row; a transaction that fails writes neither, so the numbers of a shop's year are consecutive: no
 * gaps, no repeats. An order that is never paid (released unpaid, cancelled before shipping) never takes one.
 *
 * The invoice copies the seller's legal name, address, GSTIN and state code and the buyer's details (from the
 * order, as checkout recorded them) when it is issued; a later change never rewrites it. A cancellation after
 * invoicing issues a credit note with its own series (issueCreditNote); the invoice itself stays as it was.
 *
 * The prefix: the shop's invoice_prefix, else the first three Latin letters of its name (pricing.ts
 * defaultInvoicePrefix, written here in SQL), else NGI.
 */
const PREFIX_SQL = `coalesce(sp.invoice_prefix,
  case when length(regexp_replace(upper(sp.shop_name), '[^A-Z]', '', 'g')) >= 2
       then left(regexp_replace(upper(sp.shop_name), '[^A-Z]', '', 'g'), 3) else '${DEFAULT_INVOICE_PREFIX}' end)`;

const ISSUE_SQL = `with o as (
       select o.* from orders o
        where o.id = ? and o.status <> 'cancelled'
          and not exists (select 1 from invoices i where i.order_id = o.id and i.kind = 'invoice')
     ), counters as (
       insert into document_counters (seller_id, kind, fy, last_seq)
       select o.seller_id, 'invoice', ?, 1 from o
       on conflict (seller_id, kind, fy) do update set last_seq = document_counters.last_seq + 1
       returning seller_id, fy, last_seq
     )
     insert into invoices (order_id, seller_id, kind, fy, seq, number, issued_at, seller_legal_name,
                           seller_address, seller_gstin, seller_state_code, buyer_name, buyer_address,
                           buyer_gstin, buyer_state, buyer_state_code)
     select o.id, o.seller_id, 'invoice', k.fy, k.last_seq,
            ${PREFIX_SQL} || '/' || k.fy || '/' || lpad(k.last_seq::text, ${INVOICE_SEQ_DIGITS}, '0'),
            ?, coalesce(sp.legal_name, sp.shop_name),
            concat_ws(', ', sp.shop_address, sp.city, sp.state || ' - ' || sp.pincode),
            sp.gst_number, coalesce(sp.gst_state_code, left(sp.gst_number, 2)), o.customer_name,
            o.shipping_address || ', ' || o.city || ', ' || o.state || ' - ' || o.pin_code,
            o.buyer_gstin, o.state, o.buyer_state_code
       from o join counters k on k.seller_id = o.seller_id
       join seller_profiles sp on sp.user_id = o.seller_id
     returning id`;

/**
 * Issues the tax invoice of each order that has none yet (the caller holds the orders' rows locked, in the
 * transaction that makes them due). One statement per order, in order id order, so two orders of one shop in
 * one call take consecutive numbers.
 */
export async function issueInvoices(trx: Knex, orderIds: readonly number[], at: Date): Promise<void> {
  for (const id of [...orderIds].sort((a, b) => a - b)) {
    await trx.raw(ISSUE_SQL, [id, financialYear(at), at]);
  }
}

/** The buyer's state code: their GSTIN's, else the shipping state's, chosen from the list at checkout. */
export const buyerStateCode = (input: Pick<CheckoutData, 'stateCode' | 'buyerGstin'>) =>
  input.buyerGstin ? input.buyerGstin.slice(0, 2) : input.stateCode;

/**
 * Issues the credit note of a cancelled order that had an invoice, in the cancelling transaction: the next
 * number of the shop's credit-note series for the year of the cancellation (LAK/CN/2026-27/000001), the
 * invoice's parties copied. At most one per order.
 */
export async function issueCreditNote(trx: Knex, orderId: number, at: Date): Promise<void> {
  await trx.raw(
    `with inv as (
       select * from invoices i where i.order_id = ? and i.kind = 'invoice'
          and not exists (select 1 from invoices c where c.order_id = i.order_id and c.kind = 'credit_note')
     ), k as (
       insert into document_counters (seller_id, kind, fy, last_seq)
       select seller_id, 'credit_note', ?, 1 from inv
       on conflict (seller_id, kind, fy) do update set last_seq = document_counters.last_seq + 1
       returning seller_id, fy, last_seq
     )
     insert into invoices (order_id, seller_id, kind, fy, seq, number, issued_at, seller_legal_name,
                           seller_address, seller_gstin, seller_state_code, buyer_name, buyer_address,
                           buyer_gstin, buyer_state, buyer_state_code)
     select inv.order_id, inv.seller_id, 'credit_note', k.fy, k.last_seq,
            split_part(inv.number, '/', 1) || '/CN/' || k.fy || '/' || lpad(k.last_seq::text, ${INVOICE_SEQ_DIGITS}, '0'),
            ?, inv.seller_legal_name, inv.seller_address, inv.seller_gstin, inv.seller_state_code, inv.buyer_name,
            inv.buyer_address, inv.buyer_gstin, inv.buyer_state, inv.buyer_state_code
       from inv join k on k.seller_id = inv.seller_id`,
    [orderId, financialYear(at), at],
  );
}

interface DocRow {
  kind: 'invoice' | 'credit_note';
  fy: string;
  number: string;
  issued_at: Date | string;
  seller_legal_name: string;
  seller_address: string;
  seller_gstin: string | null;
  seller_state_code: string | null;
  buyer_name: string;
  buyer_address: string;
  buyer_gstin: string | null;
  buyer_state: string;
  buyer_state_code: string | null;
}

interface LineRow {
  product_name: string;
  price: string;
  quantity: number;
  hsn: string | null;
  purity: string | null;
  net_weight_g: string | null;
  gross_weight_g: string | null;
  huid: string | null;
}

const presentDoc = (r: DocRow): TaxDocument => ({
  kind: r.kind,
  number: r.number,
  issuedAt: new Date(r.issued_at).toISOString(),
  financialYear: r.fy,
});

/**
 * The tax invoice of an order, for the order's customer or its seller; to anyone else (and for an order
 * placed before invoices existed) it does not exist: 404.
 */
export async function loadTaxInvoice(db: Knex, orderId: number, viewer: { id: number }): Promise<TaxInvoice> {
  const order = (await db('orders')
    .where({ id: orderId })
    .first(
      'customer_id',
      'seller_id',
      'buyer_pan_masked',
      'payment_method',
      'payment_status',
      'paid_at',
      'gateway_order_id',
      'status',
    )) as
    | {
        customer_id: number;
        seller_id: number;
        buyer_pan_masked: string | null;
        payment_method: PaymentMethod;
        payment_status: PaymentStatus;
        paid_at: Date | string | null;
        gateway_order_id: string | null;
        status: string;
      }
    | undefined;
  if (!order || (order.customer_id !== viewer.id && order.seller_id !== viewer.id)) {
    throw notFound(PRICING_MESSAGES.invoiceNotFound, 'invoice_not_found');
  }
  const docs = (await db('invoices').where({ order_id: orderId }).orderBy('id')) as DocRow[];
  const inv = docs.find((d) => d.kind === 'invoice');
  if (!inv) {
    // Not issued yet (awaiting payment or shipping), or never (cancelled unpaid).
    if (order.status !== 'cancelled') throw notFound(PRICING_MESSAGES.invoiceNotDue, 'invoice_not_due');
    throw notFound(PRICING_MESSAGES.invoiceNotFound, 'invoice_not_found');
  }
  const captured = order.gateway_order_id
    ? ((await db('gateway_payments')
        .where({ gateway_order_id: order.gateway_order_id, applied: true })
        .orderBy('id')
        .first('gateway_payment_id', 'method')) as
        { gateway_payment_id: string; method: string | null } | undefined)
    : undefined;
  const paidWith = (PAYMENT_METHODS as readonly string[]).includes(captured?.method ?? '')
    ? (captured!.method as PaymentMethod)
    : order.payment_method;
  const credit = docs.find((d) => d.kind === 'credit_note') ?? null;
  const lines = (await db('order_items')
    .where({ order_id: orderId })
    .orderBy('id')
    .select(
      'product_name',
      db.raw('price::text as price'),
      'quantity',
      'hsn',
      'purity',
      db.raw('net_weight_g::text as net_weight_g'),
      db.raw('gross_weight_g::text as gross_weight_g'),
      'huid',
    )) as LineRow[];
  const intra = inv.seller_state_code !== null && inv.seller_state_code === inv.buyer_state_code;
  const money = invoiceMoney(
    lines.map((l) => ({ unitPrice: toPaise(l.price), quantity: l.quantity })),
    intra,
  );
  const stateName = (code: string | null) => (code ? (GST_STATES[code] ?? null) : null);
  const buyerStateName = stateName(inv.buyer_state_code);
  return {
    orderId,
    invoice: presentDoc(inv),
    creditNote: credit ? presentDoc(credit) : null,
    seller: {
      legalName: inv.seller_legal_name,
      address: inv.seller_address,
      gstin: inv.seller_gstin,
      stateCode: inv.seller_state_code,
      stateName: stateName(inv.seller_state_code),
    },
    buyer: {
      name: inv.buyer_name,
      address: inv.buyer_address,
      gstin: inv.buyer_gstin,
      state: inv.buyer_state,
      stateCode: inv.buyer_state_code,
      panMasked: order.buyer_pan_masked,
    },
    placeOfSupply: buyerStateName ? `${buyerStateName} (${inv.buyer_state_code})` : inv.buyer_state,
    supply: money.split.kind,
    lines: lines.map((l, i): InvoiceLine => ({
      description: l.product_name,
      hsn: l.hsn ?? '7113',
      purity: l.purity,
      netWeight: l.net_weight_g,
      grossWeight: l.gross_weight_g,
      huid: l.huid,
      quantity: l.quantity,
      unitPrice: fromPaise(money.lines[i].unitPrice),
      taxableValue: fromPaise(money.lines[i].taxable),
      gst: fromPaise(money.lines[i].gst),
      total: fromPaise(money.lines[i].total),
    })),
    taxableValue: fromPaise(money.taxable),
    cgst: fromPaise(money.split.cgst),
    sgst: fromPaise(money.split.sgst),
    igst: fromPaise(money.split.igst),
    totalGst: fromPaise(money.gst),
    total: fromPaise(money.total),
    amountInWords: amountInWords(money.total),
    amountInWordsTa: amountInTamilWords(money.total),
    reverseCharge: false,
    payment: {
      method: paidWith,
      status: order.payment_status,
      paidAt: order.paid_at ? new Date(order.paid_at).toISOString() : null,
      reference: captured?.gateway_payment_id ?? null,
    },
  };
}
