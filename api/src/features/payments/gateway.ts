import crypto from 'node:crypto';
import Razorpay from 'razorpay';
import type { Logger } from 'pino';
import type { Config } from '../../config';
import { startRazorpayDouble, type RazorpayDouble } from '../../doubles/razorpay-double';

/** A gateway order, payment and refund as Razorpay answers them (the fields we read; amounts in paise). */
export interface GatewayOrder {
  id: string;
  amount: number;
  currency: string;
}
export interface GatewayPayment {
  id: string;
  order_id: string;
  amount: number;
  status: string;
  method?: string;
}
export interface GatewayRefund {
  id: string;
  payment_id: string;
  amount: number;
  status: string;
  receipt?: string | null;
}

/** Razorpay, through the `razorpay` package: with real keys, or pointed at the test double. */
export interface PaymentGateway {
  readonly keyId: string;
  readonly keySecret: string;
  readonly webhookSecret: string;
  /** The double, or Razorpay test-mode keys (rzp_test_…): the UI says "test payments". */
  readonly testMode: boolean;
  /** The test double, when the app started one (development and tests only). */
  double(): Promise<RazorpayDouble | undefined>;
  /** Where Checkout's script is loaded from. */
  scriptUrl(): Promise<string>;
  /** Origins the page must be allowed to load scripts from, connect to and frame (the CSP). */
  cspSources(): string[];
  createOrder(amountPaise: number, receipt: string, notes: Record<string, string>): Promise<GatewayOrder>;
  fetchPayment(paymentId: string): Promise<GatewayPayment>;
  refund(paymentId: string, amountPaise: number, receipt: string): Promise<GatewayRefund>;
  listRefunds(paymentId: string): Promise<GatewayRefund[]>;
  close(): Promise<void>;
}

/** A gateway call that failed or timed out (the caller decides what waits for a retry). */
export class GatewayError extends Error {
  constructor(
    message: string,
    readonly statusCode?: number,
  ) {
    super(message);
  }
}

function originOf(url: string): string {
  return new URL(url).origin;
}

function client(keyId: string, keySecret: string, apiUrl: string, timeoutMs: number): Razorpay {
  const rzp = new Razorpay({ key_id: keyId, key_secret: keySecret });
  // The package talks to https://api.razorpay.com through axios; RAZORPAY_API_URL (or the double) replaces it.
  const rq = (rzp as unknown as { api: { rq: { defaults: { baseURL?: string; timeout?: number } } } }).api.rq;
  rq.defaults.baseURL = apiUrl;
  rq.defaults.timeout = timeoutMs;
  return rzp;
}

async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = err as { statusCode?: number; error?: { description?: string }; message?: string };
    throw new GatewayError(`${what}: ${e.error?.description ?? e.message ?? 'failed'}`, e.statusCode);
  }
}

function razorpayGateway(
  keys: { keyId: string; keySecret: string; webhookSecret: string },
  where: Promise<{ apiUrl: string; checkoutUrl: string; double?: RazorpayDouble }>,
  timeoutMs: number,
  testMode: boolean,
): PaymentGateway {
  let sources: string[] = [];
  const ready = where.then((w) => {
    sources = [...new Set([originOf(w.apiUrl), originOf(w.checkoutUrl)])];
    return { ...w, rzp: client(keys.keyId, keys.keySecret, w.apiUrl, timeoutMs) };
  });
  // A failure to start is reported by the first call that needs the gateway.
  ready.catch(() => undefined);
  return {
    ...keys,
    testMode,
    double: async () => (await ready).double,
    scriptUrl: async () => (await ready).checkoutUrl,
    cspSources: () => sources,
    async createOrder(amountPaise, receipt, notes) {
      const { rzp } = await ready;
      const order = await call('create order', () =>
        rzp.orders.create({ amount: amountPaise, currency: 'INR', receipt, notes }),
      );
      return { id: order.id, amount: Number(order.amount), currency: order.currency };
    },
    async fetchPayment(paymentId) {
      const { rzp } = await ready;
      const p = await call('fetch payment', () => rzp.payments.fetch(paymentId));
      return { id: p.id, order_id: p.order_id, amount: Number(p.amount), status: p.status, method: p.method };
    },
    async refund(paymentId, amountPaise, receipt) {
      const { rzp } = await ready;
      const r = await call('refund', () => rzp.payments.refund(paymentId, { amount: amountPaise, receipt }));
      return {
        id: r.id,
        payment_id: r.payment_id,
        amount: Number(r.amount),
        status: r.status,
        receipt: r.receipt ?? null,
      };
    },
    async listRefunds(paymentId) {
      const { rzp } = await ready;
      const list = await call('list refunds', () =>
        rzp.payments.fetchMultipleRefund(paymentId, { count: 100 }),
      );
      return list.items.map((r) => ({
        id: r.id,
        payment_id: r.payment_id,
        amount: Number(r.amount),
        status: r.status,
        receipt: r.receipt ?? null,
      }));
    },
    async close() {
      const w = await ready.catch(() => undefined);
      await w?.double?.close();
    },
  };
}

/**
 * The app's gateway: Razorpay with the configured keys; without keys outside production, the test double,
 * started here (on a free port of the app's host) with keys of its own; in production without keys, none
 * (only cash on delivery is offered then).
 */
export function createGateway(config: Config, logger: Logger): PaymentGateway | undefined {
  const { razorpay, useDouble, timeoutMs } = config.payments;
  if (razorpay) {
    return razorpayGateway(
      razorpay,
      Promise.resolve({ apiUrl: razorpay.apiUrl, checkoutUrl: razorpay.checkoutUrl }),
      razorpay.timeoutMs,
      razorpay.keyId.startsWith('rzp_test_'),
    );
  }
  if (!useDouble) return undefined;
  const keys = {
    keyId: 'rzp_test_double',
    keySecret: crypto.randomBytes(24).toString('hex'),
    webhookSecret: crypto.randomBytes(24).toString('hex'),
  };
  const started = startRazorpayDouble({ ...keys, host: config.host }).then((double) => {
    logger.info({ url: double.url }, 'test payments: the Razorpay test double is serving');
    return { apiUrl: double.url, checkoutUrl: double.checkoutScriptUrl, double };
  });
  return razorpayGateway(keys, started, timeoutMs, true);
}
