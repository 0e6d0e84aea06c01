import { z } from 'zod';
import { ID_MAX, type PaymentMethod } from './constants';
import type { Order } from './orders';

/**
 * Paying for it (issue #24, docs/product-rules.md "Payments"): online through Razorpay (UPI first, cards, net
 * banking), cash on delivery per shop, PAN for large purchases, refunds and the shops' ledger. Money is integer
 * paise throughout.
 */

/** ₹2,00,000 in paise: cash on delivery is refused from here on, and the buyer's PAN is needed. */
export const LARGE_ORDER_PAISE = 20_000_000;

/** A PAN: 5 letters, 4 digits, 1 letter (ABCDE1234F). */
export const PAN_PATTERN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;

/** ABCDE1234F → ABCDE****F: what the seller and the invoice show. */
export const maskPan = (pan: string): string => `${pan.slice(0, 5)}****${pan.slice(9)}`;

export const PAYMENT_MESSAGES = {
  panRequired: 'An order of ₹2,00,000 or more needs your PAN (Permanent Account Number).',
  panInvalid: 'Enter your PAN as 5 letters, 4 digits and 1 letter (for example ABCDE1234F).',
  cashLimit:
    'Cash on delivery is not available for an order of ₹2,00,000 or more: Indian law bars receiving ₹2 lakh or more in cash in one transaction. Please pay online.',
  cashNotOffered: '{shop} does not offer cash on delivery. Please pay online.',
  onlineUnavailable: 'Online payment is not available. Please choose cash on delivery.',
  signatureInvalid: 'The payment could not be verified.',
  amountMismatch: 'The payment amount does not match the order.',
  nothingToPay: 'There is nothing left to pay for these orders.',
  gatewayUnavailable:
    'The payment service did not answer. Your order is waiting for payment: use Pay now on the order page.',
  noPaymentToRefund:
    'This order is marked paid, but no payment through the gateway was found to refund, so it cannot be cancelled here. Please contact support.',
  notPaidYet: 'This order is not paid yet: it can be shipped once the customer has paid.',
  checkoutRefInvalid: 'Checkout reference is invalid.',
  sellerIdInvalid: 'Seller ID must be a positive integer.',
  amountInvalid: 'Amount must be a whole number of paise greater than 0.',
  referenceRequired: 'A payout reference is required (for example the bank transfer UTR).',
  referenceTooLong: 'A payout reference cannot exceed 100 characters.',
  payoutTooLarge: 'The payout is more than the shop is owed ({owed}).',
  unknownFields: 'Unknown fields are not allowed.',
  shopNotFound: 'Seller profile not found.',
} as const;
const M = PAYMENT_MESSAGES;

const strict = {
  error: (iss: { code?: string }) => (iss.code === 'unrecognized_keys' ? M.unknownFields : undefined),
};

/** The buyer's PAN at checkout: optional (blank means none), upper-cased and checked. */
export const PanField = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.string({ error: M.panInvalid }).trim().toUpperCase().regex(PAN_PATTERN, M.panInvalid).optional(),
);

/** POST /_api/payments/start: pay the orders of one checkout still awaiting payment ("Pay now"). */
export const StartPaymentSchema = z.strictObject(
  { checkoutRef: z.string({ error: M.checkoutRefInvalid }).uuid(M.checkoutRefInvalid) },
  strict,
);

const gatewayId = (prefix: string) =>
  z
    .string({ error: M.signatureInvalid })
    .max(64, M.signatureInvalid)
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9]+$`), M.signatureInvalid);

/** POST /_api/payments/verify: what Razorpay Checkout hands the page after a successful payment. */
export const VerifyPaymentSchema = z.strictObject(
  {
    razorpay_order_id: gatewayId('order'),
    razorpay_payment_id: gatewayId('pay'),
    razorpay_signature: z.string({ error: M.signatureInvalid }).regex(/^[0-9a-f]{64}$/, M.signatureInvalid),
  },
  strict,
);
export type VerifyPaymentInput = z.output<typeof VerifyPaymentSchema>;

/** POST /_api/seller/payment-settings: the shop's own choice to offer cash on delivery. */
export const PaymentSettingsSchema = z.strictObject({ cashOnDelivery: z.boolean() }, strict);

const positiveInt = (message: string) =>
  z.number({ error: message }).int(message).positive(message).max(ID_MAX, message);

/** POST /_api/admin/payouts: the admin records a payout made to a shop. */
export const PayoutSchema = z.strictObject(
  {
    sellerId: positiveInt(M.sellerIdInvalid),
    amountPaise: z
      .number({ error: M.amountInvalid })
      .int(M.amountInvalid)
      .positive(M.amountInvalid)
      .max(1e13, M.amountInvalid),
    reference: z
      .string({ error: M.referenceRequired })
      .trim()
      .min(1, M.referenceRequired)
      .max(100, M.referenceTooLong),
  },
  strict,
);
export type PayoutInput = z.output<typeof PayoutSchema>;

/** What the page needs to open Razorpay Checkout for the orders of one checkout. */
export interface PaymentStart {
  gateway: 'razorpay';
  keyId: string;
  gatewayOrderId: string;
  /** The server's amount, in paise: the sum of the orders awaiting payment. */
  amountPaise: number;
  currency: 'INR';
  /** Razorpay Checkout's script (or the test double's stand-in), loaded only when paying. */
  scriptUrl: string;
  /** True with the test double or Razorpay test keys: the UI says "test payments". */
  testMode: boolean;
  orderIds: number[];
  prefill: { name: string; contact: string; email: string };
}

/** GET /_api/payments/options: the methods that work for the signed-in customer's cart. */
export interface PaymentOptions {
  methods: PaymentMethod[];
  defaultMethod: PaymentMethod | null;
  online: boolean;
  testMode: boolean;
  /** Why cash on delivery is not offered for this cart, if it is not. */
  cashUnavailable: string | null;
  /** Some shop's order in this cart comes to ₹2,00,000 or more: the PAN is asked for. */
  panRequired: boolean;
}

/** POST /_api/payments/verify and start answers after payment. */
export interface PaymentResult {
  orders: Order[];
}

export interface PaymentSettings {
  cashOnDelivery: boolean;
}

/**
 * A shop's money, in paise (docs/product-rules.md "Issue #48"): owed = paid − refunds − commission, and
 * owed = pending + paid out + balance. Both sums hold exactly, so the screens show them as two sums.
 */
export interface ShopLedger {
  sellerId: number;
  shopName: string | null;
  paidPaise: number;
  commissionPaise: number;
  refundsPaise: number;
  owedPaise: number;
  paidOutPaise: number;
  /** Owed for paid orders not yet delivered or still within the return window: not paid out yet. */
  pendingPaise: number;
  /**
   * What may be paid out now: earned (delivered and past the return window) less paid out. Negative when a refund
   * came after a payout: the next payouts recover it.
   */
  balancePaise: number;
}

export interface LedgerEntry {
  id: number;
  kind: 'sale' | 'refund' | 'payout';
  orderId: number | null;
  amountPaise: number;
  commissionPaise: number;
  reference: string | null;
  /** A refund of an order a payout may already have included: recovered from the next payouts. */
  recoveredFromPayouts: boolean;
  createdAt: string;
}

export interface SellerLedgerResponse {
  ledger: ShopLedger;
  entries: LedgerEntry[];
  commissionPercent: number;
  /** Days after delivery before an order's money may be paid out (PAYOUT_RETURN_WINDOW_DAYS). */
  returnWindowDays: number;
}

export interface AdminLedgerResponse {
  shops: ShopLedger[];
  totals: Omit<ShopLedger, 'sellerId' | 'shopName'>;
  commissionPercent: number;
  /** Days after delivery before an order's money may be paid out (PAYOUT_RETURN_WINDOW_DAYS). */
  returnWindowDays: number;
}
