import { z } from 'zod';
import { ACCOUNT_MESSAGES } from './accounts';
import { hasHiddenCharacters, PAYMENT_METHODS } from './constants';
import { PRICING_MESSAGES } from './invoices';
import type { Order } from './orders';
import { PanField, type PaymentStart } from './payments';
import { pinCodeInState, STATE_PIN_PREFIXES } from './india-states';
import { GST_STATES, isValidGstin, stateCodeOf } from './pricing';

/** Every checkout message: the product rules' (docs/product-rules.md §5, §8) word for word, plus server texts of ours where it is silent. */
export const CHECKOUT_MESSAGES = {
  customerNameRequired: 'Customer name is required',
  customerPhoneRequired: 'Customer phone is required',
  shippingAddressRequired: 'Shipping address is required',
  cityRequired: 'City is required',
  stateRequired: 'State is required',
  pinCodeRequired: 'Pin code is required',
  pinCodeInvalid: 'Enter a 6-digit PIN code that does not start with 0 (for example 600001).',
  stateInvalid: 'Choose your state or union territory from the list.',
  pinCodeNotInState: 'This PIN code is not in {state}. Check the PIN code or the state.',
  customerPhoneInvalid:
    'Enter a 10-digit mobile number starting with 6, 7, 8 or 9 (for example 98765 43210).',
  paymentMethodInvalid: 'Payment method must be upi, card, netbanking or cash_on_delivery.',
  fieldTooLong: '{field} is too long.',
  success: 'Order placed successfully!',
  failed: 'Checkout failed: {message}',
  unknownError: 'An unknown error occurred',
  // Server-side texts of ours.
  idempotencyKeyRequired: 'Idempotency-Key header is required.',
  idempotencyKeyTooLong: 'Idempotency-Key header cannot exceed 200 characters.',
  idempotencyKeyReused: 'This Idempotency-Key was already used with a different request.',
  alreadyProcessing: 'This checkout is already being processed.',
  cartEmpty: 'Your cart is empty.',
  productUnavailable: '"{name}" is no longer available. Please remove it from your cart.',
  tooManyUnpaid:
    'You already have {n} orders awaiting payment or the shop’s confirmation. Please pay for one, or wait until one is confirmed, before placing another.',
  tooManyUnits:
    'You can have at most {n} of "{name}" in orders not yet paid or confirmed. Please lower the quantity, or pay for your earlier order first.',
  tooManyShopUnits:
    'You can have at most {n} pieces from {shop} in orders not yet paid or confirmed. Please remove some from your cart, or pay for your earlier order first.',
  lapsedUnpaid:
    'Several of your recent orders were cancelled because they were not paid in time. Please try again in {minutes} minutes.',
  checkoutConflict:
    'Your cart changed while the order was being placed. Please review your cart and try again.',
} as const;

/** The header a client sends with one fresh value per checkout attempt. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX = 200;

const M = CHECKOUT_MESSAGES;
const required = (message: string, max: number, name: string) =>
  z.string({ error: message }).trim().min(1, message).max(max, M.fieldTooLong.replace('{field}', name));

/** An Indian PIN code: six digits, the first not 0 (India Post's zones are 1–9). */
export const INDIAN_PIN_CODE_PATTERN = /^[1-9][0-9]{5}$/;
/** An Indian mobile number as stored: ten digits, the first 6–9. */
export const INDIAN_MOBILE_PATTERN = /^[6-9][0-9]{9}$/;

/**
 * The ten digits of an Indian mobile number as people type it: spaces and hyphens go, and so does a +91, 91 or 0
 * in front of the ten digits. Anything that is not then ten digits is left as typed (the pattern refuses it).
 */
export function normaliseIndianMobile(value: string): string {
  const compact = value.replace(/[\s-]/g, '');
  const m = /^(?:\+91|91|0)?([0-9]{10})$/.exec(compact);
  return m ? m[1] : compact;
}

export const CheckoutSchema = z
  .object({
    customerName: required(M.customerNameRequired, 200, 'Customer name').refine(
      (v) => !hasHiddenCharacters(v),
      ACCOUNT_MESSAGES.nameHiddenCharacters,
    ),
    customerPhone: required(M.customerPhoneRequired, 20, 'Customer phone')
      .transform(normaliseIndianMobile)
      .pipe(z.string().regex(INDIAN_MOBILE_PATTERN, M.customerPhoneInvalid)),
    shippingAddress: required(M.shippingAddressRequired, 500, 'Shipping address'),
    city: required(M.cityRequired, 100, 'City'),
    // A state or union territory by its GST state code (or its English name): stored as its name, with the
    // code the tax invoice's place of supply reads.
    state: required(M.stateRequired, 100, 'State').transform((v, ctx) => {
      const code = stateCodeOf(v);
      if (!code || !STATE_PIN_PREFIXES[code]) {
        ctx.addIssue({ code: 'custom', message: M.stateInvalid });
        return z.NEVER;
      }
      return { code, name: GST_STATES[code] };
    }),
    pinCode: required(M.pinCodeRequired, 20, 'Pin code')
      .transform((v) => v.replace(/\s/g, ''))
      .pipe(z.string().regex(INDIAN_PIN_CODE_PATTERN, M.pinCodeInvalid)),
    // UPI first (docs/product-rules.md "Payments").
    paymentMethod: z.enum(PAYMENT_METHODS, { error: M.paymentMethodInvalid }).default('upi'),
    // The buyer's PAN, needed for an order of ₹2,00,000 or more; optional otherwise (blank means none).
    buyerPan: PanField,
    // The buyer's GSTIN for the tax invoice (issue #25), optional: blank means none.
    buyerGstin: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
      z
        .string({ error: PRICING_MESSAGES.gstinInvalid })
        .trim()
        .toUpperCase()
        .refine(isValidGstin, PRICING_MESSAGES.gstinInvalid)
        .optional(),
    ),
  })
  .superRefine((v, ctx) => {
    if (!pinCodeInState(v.pinCode, v.state.code))
      ctx.addIssue({
        code: 'custom',
        path: ['pinCode'],
        message: M.pinCodeNotInState.replace('{state}', v.state.name),
      });
  })
  .transform(({ state, ...rest }) => ({ ...rest, state: state.name, stateCode: state.code }));
export type CheckoutInput = z.input<typeof CheckoutSchema>;
export type CheckoutData = z.output<typeof CheckoutSchema>;

/** 201 answer of POST /_api/checkout/create: one order per shop, sharing checkoutRef. */
export interface CheckoutResponse {
  orders: Order[];
  checkoutRef: string;
  /**
   * Paid online: the one gateway order for the whole cart, to open Checkout with; null for cash on delivery,
   * or when the gateway did not answer (the orders then wait for "Pay now").
   */
  payment?: PaymentStart | null;
}
