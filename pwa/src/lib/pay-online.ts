import type { Order } from '../../../api/contract/orders';
import type { PaymentStart } from '../../../api/contract/payments';
import { API_ROUTES } from '../../../api/contract/routes';
import { api } from './api-client';

/**
 * Razorpay Checkout (or, with test payments, the test double's stand-in), loaded only when a customer pays:
 * its script is added to the page the first time and kept. UPI is shown first.
 */

interface CheckoutSuccess {
  razorpay_payment_id: string;
  razorpay_order_id: string;
  razorpay_signature: string;
}

interface RazorpayCheckout {
  on(event: 'payment.failed', handler: (response: unknown) => void): void;
  open(): void;
}

type RazorpayConstructor = new (options: Record<string, unknown>) => RazorpayCheckout;

const loading = new Map<string, Promise<RazorpayConstructor>>();

function loadCheckout(src: string): Promise<RazorpayConstructor> {
  const known = loading.get(src);
  if (known) return known;
  const promise = new Promise<RazorpayConstructor>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => {
      const ctor = (window as unknown as { Razorpay?: RazorpayConstructor }).Razorpay;
      if (ctor) resolve(ctor);
      else reject(new Error('Checkout did not load'));
    };
    script.onerror = () => {
      loading.delete(src);
      reject(new Error('Checkout did not load'));
    };
    document.head.appendChild(script);
  });
  loading.set(src, promise);
  return promise;
}

/** How a payment ended: paid (verified by the server), failed, or the window closed. */
export type PayOutcome = { kind: 'paid'; orders: Order[] } | { kind: 'failed' } | { kind: 'closed' };

/**
 * Opens Checkout for one gateway order and, on success, has the server verify the payment (its signature and
 * amount); resolves when Checkout is done. A failed attempt leaves Checkout open for another try (Razorpay's
 * behaviour); closing it resolves 'failed' after a failure, else 'closed'.
 */
export async function payOnline(payment: PaymentStart, shopName: string): Promise<PayOutcome> {
  const Razorpay = await loadCheckout(payment.scriptUrl);
  return new Promise<PayOutcome>((resolve, reject) => {
    let failed = false;
    const checkout = new Razorpay({
      key: payment.keyId,
      order_id: payment.gatewayOrderId,
      amount: payment.amountPaise,
      currency: payment.currency,
      name: shopName,
      prefill: payment.prefill,
      config: {
        display: {
          sequence: ['block.upi'],
          blocks: { upi: { name: 'UPI', instruments: [{ method: 'upi' }] } },
          preferences: { show_default_blocks: true },
        },
      },
      handler: (response: CheckoutSuccess) => {
        api
          .call(API_ROUTES.paymentVerify, response)
          .then((r) => resolve({ kind: 'paid', orders: r.orders }))
          .catch(reject);
      },
      modal: { ondismiss: () => resolve(failed ? { kind: 'failed' } : { kind: 'closed' }) },
    });
    checkout.on('payment.failed', () => {
      failed = true;
    });
    checkout.open();
  });
}
