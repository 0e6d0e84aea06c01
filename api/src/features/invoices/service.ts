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
import { notFound } from '../../http/errors';

/**
 * The GST tax invoice (docs/product-rules.md §10). An order's invoice number is assigned AT CHECKOUT, in the
 * checkout statement itself (these CTEs are appended to it): one counter row per shop, kind and financial year
 * is incremented (`insert … on conflict do update`, which waits for a concurrent checkout's row lock and then
 * reads its committed value) and the invoice row inserted in the same atomic statement as the order. A checkout
 * that fails writes neither, so the numbers of a shop's year are consecutive: no gaps, no repeats.
 *
 * The invoice copies the seller's legal name, address, GSTIN and state code and the buyer's details when it is
 * issued; a later profile change never rewrites it. A cancellation after invoicing issues a credit note with
 * its own series (issueCreditNote); the invoice itself stays as it was.
 *
 * The prefix: the shop's invoice_prefix, else the first three Latin letters of its name (pricing.ts
 * defaultInvoicePrefix, written here in SQL), else NGI.
 */
const PREFIX_SQL = `coalesce(sp.invoice_prefix,
  case when length(regexp_replace(upper(sp.shop_name), '[^A-Z]', '', 'g')) >= 2
       then left(regexp_replace(upper(sp.shop_name), '[^A-Z]', '', 'g'), 3) else '${DEFAULT_INVOICE_PREFIX}' end)`;

export const INVOICE_CTES = `counters as (
       insert into document_counters (seller_id, kind, fy, last_seq)
       select s.seller_id, 'invoice', ?, 1 from shops s order by s.seller_id
       on conflict (seller_id, kind, fy) do update set last_seq = document_counters.last_seq + 1
       returning seller_id, fy, last_seq
     ), invoiced as (
       insert into invoices (order_id, seller_id, kind, fy, seq, number, issued_at, seller_legal_name,
                             seller_address, seller_gstin, seller_state_code, buyer_name, buyer_address,
                             buyer_gstin, buyer_state, buyer_state_code)
       select o.id, o.seller_id, 'invoice', k.fy, k.last_seq,
              ${PREFIX_SQL} || '/' || k.fy || '/' || lpad(k.last_seq::text, ${INVOICE_SEQ_DIGITS}, '0'),
              ?, coalesce(sp.legal_name, sp.shop_name),
              concat_ws(', ', sp.shop_address, sp.city, sp.state || ' - ' || sp.pincode),
              sp.gst_number, coalesce(sp.gst_state_code, left(sp.gst_number, 2)), ?, ?, ?, ?, ?
         from o join counters k on k.seller_id = o.seller_id
         join seller_profiles sp on sp.user_id = o.seller_id
        order by o.seller_id
       returning 1
     )`;

/** The buyer's state code: their GSTIN's, else the shipping state's, chosen from the list at checkout. */
export const buyerStateCode = (input: Pick<CheckoutData, 'stateCode' | 'buyerGstin'>) =>
  input.buyerGstin ? input.buyerGstin.slice(0, 2) : input.stateCode;

/** The bindings of INVOICE_CTES, in order. */
export function invoiceBindings(input: CheckoutData, now: Date): unknown[] {
  return [
    financialYear(now),
    now,
    input.customerName,
    `${input.shippingAddress}, ${input.city}, ${input.state} - ${input.pinCode}`,
    input.buyerGstin ?? null,
    input.state,
    buyerStateCode(input),
  ];
}

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
    .first('customer_id', 'seller_id', 'buyer_pan_masked')) as
    { customer_id: number; seller_id: number; buyer_pan_masked: string | null } | undefined;
  if (!order || (order.customer_id !== viewer.id && order.seller_id !== viewer.id)) {
    throw notFound(PRICING_MESSAGES.invoiceNotFound, 'invoice_not_found');
  }
  const docs = (await db('invoices').where({ order_id: orderId }).orderBy('id')) as DocRow[];
  const inv = docs.find((d) => d.kind === 'invoice');
  if (!inv) throw notFound(PRICING_MESSAGES.invoiceNotFound, 'invoice_not_found');
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
    reverseCharge: false,
  };
}
