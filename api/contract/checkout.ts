import { z } from 'zod';
import { PAYMENT_METHODS } from './constants';
import type { Order } from './orders';

/** Every checkout message: the spec's (§5, §8) word for word, plus server texts of ours where it is silent. */
export const CHECKOUT_MESSAGES = {
  customerNameRequired: 'Customer name is required',
  customerPhoneRequired: 'Customer phone is required',
  shippingAddressRequired: 'Shipping address is required',
  cityRequired: 'City is required',
  stateRequired: 'State is required',
  pinCodeRequired: 'Pin code is required',
  paymentMethodInvalid: 'Payment method must be credit_card, google_pay or cash_on_delivery.',
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
  checkoutConflict:
    'Your cart changed while the order was being placed. Please review your cart and try again.',
} as const;

/** The header a client sends with one fresh value per checkout attempt. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX = 200;

const M = CHECKOUT_MESSAGES;
const required = (message: string, max: number, name: string) =>
  z.string({ error: message }).trim().min(1, message).max(max, M.fieldTooLong.replace('{field}', name));

export const CheckoutSchema = z.object({
  customerName: required(M.customerNameRequired, 200, 'Customer name'),
  customerPhone: required(M.customerPhoneRequired, 20, 'Customer phone'),
  shippingAddress: required(M.shippingAddressRequired, 500, 'Shipping address'),
  city: required(M.cityRequired, 100, 'City'),
  state: required(M.stateRequired, 100, 'State'),
  pinCode: required(M.pinCodeRequired, 20, 'Pin code'),
  paymentMethod: z.enum(PAYMENT_METHODS, { error: M.paymentMethodInvalid }).default('credit_card'),
});
export type CheckoutInput = z.input<typeof CheckoutSchema>;
export type CheckoutData = z.output<typeof CheckoutSchema>;

/** 201 answer of POST /_api/checkout/create: one order per shop, sharing checkoutRef. */
export interface CheckoutResponse {
  orders: Order[];
  checkoutRef: string;
}
