import { z } from 'zod';
import { ID_MAX, type PaymentMethod, type PaymentStatus } from './constants';
import {
  GST_STATES,
  INVOICE_PREFIX_PATTERN,
  isValidGstin,
  METAL_PURITIES,
  METALS,
  type Metal,
  type MetalPurity,
} from './pricing';

/**
 * Metal rates, the shop's tax settings and the GST tax invoice (issue #25, docs/product-rules.md §10). The
 * arithmetic lives in pricing.ts; this file holds the schemas, messages and answers.
 */
export const PRICING_MESSAGES = {
  rateInvalid: 'A rate must be a positive amount in rupees per gram, with at most 2 decimals.',
  metalInvalid: 'Please choose gold, silver or platinum.',
  purityInvalid:
    'Please choose a purity of this metal: gold 24K, 22K or 18K; silver 999 or 925; platinum 950.',
  ratesRequired: 'Give at least one rate.',
  rateMissing: 'Set today’s {metal} {purity} rate on your dashboard before adding rate-linked products.',
  rateFieldsRequired:
    'A rate-linked product needs its metal, purity, net weight and making charge (percentage or per gram).',
  netWeightPositive: 'Net weight must be a positive number of grams.',
  netWeightAboveGross: 'Net weight cannot be more than the gross weight.',
  makingTypeInvalid: 'Making charge must be a percentage or per gram.',
  makingValueInvalid: 'Making charge must be an amount of at least 0, with at most 2 decimals.',
  makingPercentMax: 'A making charge cannot exceed 100% of the metal value.',
  huidInvalid: 'HUID must be 6 letters and digits (for example AB12CD).',
  huidRequired: 'Gold jewellery of 2 g or more must carry its 6-character HUID (BIS hallmark).',
  certificateIncomplete: 'A certificate needs both the lab and the certificate number.',
  certificateFileInvalid:
    'The certificate file must be a PDF or an image (PNG, JPEG or WebP) of at most 5 MB.',
  certificateFileWithoutNumber: 'Add the lab and the certificate number with the certificate file.',
  legalNameInvalid: 'Legal name must be 2 to 200 characters.',
  gstinInvalid:
    'Invalid GSTIN: 15 characters, starting with a valid state code (for example 33ABCDE1234F1Z5).',
  stateCodeInvalid: 'Please choose a state from the list.',
  gstinStateMismatch: 'The GSTIN’s first two digits must be the shop’s state code.',
  prefixInvalid: 'Invoice prefix must be 2 to 6 capital letters (for example LAK).',
  gstMismatch:
    'The GST inside a price of {price} is {gst} (3%, included in the price). Enter {expected} or leave GST empty.',
  invoiceNotFound: 'Invoice not found.',
  invoiceNotDue:
    'The tax invoice is issued when the order is paid (cash on delivery: when the shop ships it).',
} as const;
const M = PRICING_MESSAGES;

const rupees = (message: string) =>
  z
    .union([z.number({ error: message }), z.string({ error: message })], { error: message })
    .transform((v, ctx) => {
      const text = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v.trim();
      if (!/^\d{1,10}(\.\d{1,2})?$/.test(text) || !/[1-9]/.test(text)) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return text;
    });

export const MetalRateSchema = z
  .object({
    metal: z.enum(METALS, { error: M.metalInvalid }),
    purity: z.string({ error: M.purityInvalid }),
    ratePerGram: rupees(M.rateInvalid),
  })
  .refine((r) => (METAL_PURITIES[r.metal] as readonly string[]).includes(r.purity), {
    message: M.purityInvalid,
    path: ['purity'],
  })
  .transform((r) => ({ ...r, purity: r.purity as MetalPurity }));

/** POST /_api/seller/rates: today's rates of the seller's own shop (one or more metals and purities). */
export const SetRatesSchema = z.strictObject({
  rates: z.array(MetalRateSchema, { error: M.ratesRequired }).min(1, M.ratesRequired).max(6),
});
export type SetRatesInput = z.input<typeof SetRatesSchema>;

export interface MetalRate {
  metal: Metal;
  purity: MetalPurity;
  /** Rupees per gram, decimal string. */
  ratePerGram: string;
  setAt: string;
}

/** GET /_api/seller/rates and the answer of a change: the shop's rates and how many products were repriced. */
export interface RatesResponse {
  rates: MetalRate[];
  repriced?: number;
}

/** The shop's settings printed on its tax invoices. */
export const TaxSettingsSchema = z
  .strictObject({
    legalName: z
      .string({ error: M.legalNameInvalid })
      .trim()
      .min(2, M.legalNameInvalid)
      .max(200, M.legalNameInvalid),
    gstin: z
      .string({ error: M.gstinInvalid })
      .trim()
      .toUpperCase()
      .refine((v) => isValidGstin(v), M.gstinInvalid),
    stateCode: z
      .string({ error: M.stateCodeInvalid })
      .trim()
      .refine((v) => GST_STATES[v] !== undefined, M.stateCodeInvalid),
    invoicePrefix: z
      .string({ error: M.prefixInvalid })
      .trim()
      .toUpperCase()
      .regex(INVOICE_PREFIX_PATTERN, M.prefixInvalid),
  })
  .refine((s) => s.gstin.slice(0, 2) === s.stateCode, { message: M.gstinStateMismatch, path: ['gstin'] });
export type TaxSettingsInput = z.input<typeof TaxSettingsSchema>;

export interface TaxSettings {
  legalName: string | null;
  gstin: string | null;
  stateCode: string | null;
  /** The prefix in use: the shop's own, or the default from its name. */
  invoicePrefix: string;
}

export const InvoiceQuerySchema = z.object({
  orderId: z.coerce
    .number({ error: 'Order ID must be a positive integer.' })
    .int({ error: 'Order ID must be a positive integer.' })
    .positive({ error: 'Order ID must be a positive integer.' })
    .max(ID_MAX, { error: 'Order ID must be a positive integer.' }),
  /** The invoice's language (the PDF): Tamil adds the amount in Tamil words (docs/product-rules.md §20.5). */
  lang: z.enum(['en', 'ta']).optional(),
});

/** One invoice line. Money in decimal-string rupees. */
export interface InvoiceLine {
  description: string;
  hsn: string;
  purity: string | null;
  /** Grams, decimal strings. */
  netWeight: string | null;
  grossWeight: string | null;
  huid: string | null;
  quantity: number;
  unitPrice: string;
  taxableValue: string;
  gst: string;
  total: string;
}

/** A tax invoice or a credit note, as issued (never rewritten). */
export interface TaxDocument {
  kind: 'invoice' | 'credit_note';
  number: string;
  issuedAt: string;
  financialYear: string;
}

/** GET /_api/order/invoice: the GST tax invoice of an order (the customer of the order or its seller). */
export interface TaxInvoice {
  orderId: number;
  invoice: TaxDocument;
  /** Present once the order was cancelled after invoicing. */
  creditNote: TaxDocument | null;
  seller: {
    legalName: string;
    address: string;
    gstin: string | null;
    stateCode: string | null;
    stateName: string | null;
  };
  buyer: {
    name: string;
    address: string;
    gstin: string | null;
    state: string;
    stateCode: string | null;
    /** The buyer's PAN, masked (ABCDE****F): given for an order of ₹2,00,000 or more (payments.ts). */
    panMasked: string | null;
  };
  /** "Tamil Nadu (33)"; the buyer's state as given when it has no code. */
  placeOfSupply: string;
  supply: 'intra' | 'inter';
  lines: InvoiceLine[];
  taxableValue: string;
  cgst: string;
  sgst: string;
  igst: string;
  totalGst: string;
  total: string;
  amountInWords: string;
  /** The same amount in Tamil words, for the Tamil invoice (tamil-words.ts). */
  amountInWordsTa: string;
  reverseCharge: false;
  /** How and when the order was paid (docs/product-rules.md §10). */
  payment: InvoicePayment;
}

/** The payment of an invoiced order, as printed on its invoice. */
export interface InvoicePayment {
  /** How it was paid: the method the gateway reports for the captured payment, else the one chosen. */
  method: PaymentMethod;
  status: PaymentStatus;
  /** When the money was received (captured online; collected on delivery); null while cash is still due. */
  paidAt: string | null;
  /** The gateway's payment id (pay_…), for an online payment. */
  reference: string | null;
}

/** GET /_api/admin/huid-missing: shops whose gold pieces of 2 g or more lack a HUID. */
export interface HuidMissingResponse {
  shops: { sellerId: number; shopName: string; missing: number; productIds: number[] }[];
}

const PAYMENT_METHOD_NAMES: Record<PaymentMethod, string> = {
  upi: 'UPI',
  card: 'card',
  netbanking: 'net banking',
  cash_on_delivery: 'cash on delivery',
};

/**
 * How and when an invoiced order was paid, as the PDF prints it (English, like the rest of the PDF; the page
 * writes the same in the reader's language): "Paid by UPI on 27/11/2026, 10:15 am IST. Payment reference:
 * pay_…" or "Payment: cash on delivery, due on delivery."
 */
export function invoicePaymentText(p: InvoicePayment): string {
  const method = PAYMENT_METHOD_NAMES[p.method];
  if (!p.paidAt) return `Payment: ${method}, due on delivery.`;
  const when = new Date(p.paidAt).toLocaleString('en-IN', {
    timeZone: 'Asia/Kolkata',
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  const ref = p.reference ? ` Payment reference: ${p.reference}.` : '';
  const refunded = p.status === 'refunded' ? ' Refunded.' : '';
  return `Paid by ${method} on ${when} IST.${ref}${refunded}`;
}
