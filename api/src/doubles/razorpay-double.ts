import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loopbackHost } from './loopback';

/**
 * A TEST DOUBLE of Razorpay: our own small HTTP server speaking the parts of Razorpay's API that Nagai uses, so
 * development (`npm start` without RAZORPAY_* keys) and the tests can pay without reaching the real gateway.
 * It never runs in production (startRazorpayDouble refuses when NODE_ENV is production, and the app only starts
 * it without keys outside production).
 *
 * What it speaks, as Razorpay does (Basic auth with the key id and secret, amounts in paise):
 * - POST /v1/orders, GET /v1/orders/:id, GET /v1/orders/:id/payments
 * - GET /v1/payments/:id, POST /v1/payments/:id/refund, GET /v1/payments/:id/refunds
 * - signed webhooks (X-Razorpay-Signature = HMAC-SHA256 of the raw body with the webhook secret, and
 *   X-Razorpay-Event-Id) to the webhook URL: payment.captured, order.paid, payment.failed, refund.processed
 * - GET /v1/checkout.js: a stand-in for Razorpay Checkout (`new Razorpay(options).open()`, `on('payment.failed')`)
 *   whose dialog pays by UPI (success or failure), by card, or is closed; the page pays through
 *   POST /_double/checkout/pay, which answers what Checkout hands the page (payment id, order id and the
 *   signature HMAC-SHA256 of `order_id|payment_id` with the key secret).
 *
 * Tests steer it: `pay()` as the checkout page would, `failNext()` to make the next API call fail or time out,
 * `holdWebhooks` to keep the webhooks and deliver (or replay) them later, in any order.
 */

export interface RazorpayDoubleOptions {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  webhookUrl?: string;
  /** The app's HOST: the double listens on it only when it is a loopback address, else on 127.0.0.1. */
  host?: string;
  port?: number;
}

export interface DoubleOrder {
  id: string;
  entity: 'order';
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  status: 'created' | 'attempted' | 'paid';
  attempts: number;
  notes: Record<string, string>;
  created_at: number;
}

export interface DoublePayment {
  id: string;
  entity: 'payment';
  amount: number;
  currency: string;
  status: 'captured' | 'failed';
  order_id: string;
  method: string;
  captured: boolean;
  amount_refunded: number;
  refund_status: 'partial' | 'full' | null;
  error_code: string | null;
  error_description: string | null;
  error_reason: string | null;
  created_at: number;
}

export interface DoubleRefund {
  id: string;
  entity: 'refund';
  amount: number;
  currency: string;
  payment_id: string;
  receipt: string | null;
  notes: Record<string, string>;
  status: 'pending' | 'processed' | 'failed';
  created_at: number;
}

/** A webhook the double sent (or held): the exact bytes, its signature and event id, to replay as they were. */
export interface DoubleWebhook {
  eventId: string;
  event: string;
  body: string;
  signature: string;
}

export type PayOutcome = 'success' | 'failure';

export interface RazorpayDouble {
  readonly url: string;
  /** The address it listens on: always a loopback address (loopback.ts). */
  readonly address: string;
  readonly checkoutScriptUrl: string;
  readonly orders: Map<string, DoubleOrder>;
  readonly payments: Map<string, DoublePayment>;
  readonly refunds: Map<string, DoubleRefund>;
  /** Every webhook made, in order (delivered or held). */
  readonly webhooks: DoubleWebhook[];
  /** While true, webhooks are recorded but not sent (tests deliver them with `deliver`). */
  holdWebhooks: boolean;
  setWebhookUrl(url: string): void;
  /** The next API call to `path` (e.g. 'POST /v1/orders') fails with a 500, or never answers ('timeout'). */
  failNext(route: string, how: 'error' | 'timeout'): void;
  /** Pays a gateway order as Checkout would; `amount` other than the order's stands for a tampered payment. */
  pay(
    orderId: string,
    outcome: PayOutcome,
    opts?: { method?: string; amount?: number },
  ): Promise<CheckoutResult>;
  /** Sends one recorded webhook (again) to the webhook URL; answers the app's status. */
  deliver(hook: DoubleWebhook): Promise<number>;
  close(): Promise<void>;
}

export type CheckoutResult =
  | { razorpay_payment_id: string; razorpay_order_id: string; razorpay_signature: string }
  | {
      error: {
        code: string;
        description: string;
        reason: string;
        metadata: { order_id: string; payment_id: string };
      };
    };

const hmac = (secret: string, data: string) => crypto.createHmac('sha256', secret).update(data).digest('hex');
const newId = (prefix: string) =>
  `${prefix}_${crypto.randomBytes(7).toString('base64url').replace(/[-_]/g, 'x')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
  ) {
    super(description);
  }
}

export async function startRazorpayDouble(opts: RazorpayDoubleOptions): Promise<RazorpayDouble> {
  if (process.env.NODE_ENV === 'production') {
    throw new Error('The Razorpay test double never runs in production (set the RAZORPAY_* keys).');
  }
  const orders = new Map<string, DoubleOrder>();
  const payments = new Map<string, DoublePayment>();
  const refunds = new Map<string, DoubleRefund>();
  const webhooks: DoubleWebhook[] = [];
  const failures = new Map<string, 'error' | 'timeout'>();
  const hanging = new Set<http.ServerResponse>();
  let webhookUrl = opts.webhookUrl;

  const double: RazorpayDouble = {
    url: '',
    address: '',
    checkoutScriptUrl: '',
    orders,
    payments,
    refunds,
    webhooks,
    holdWebhooks: false,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    failNext(route, how) {
      failures.set(route, how);
    },
    pay,
    deliver,
    close,
  };

  async function deliver(hook: DoubleWebhook): Promise<number> {
    if (!webhookUrl) return 0;
    try {
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Razorpay-Signature': hook.signature,
          'X-Razorpay-Event-Id': hook.eventId,
          'User-Agent': 'Razorpay-Webhook/v1 (test double)',
        },
        body: hook.body,
      });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 0;
    }
  }

  async function webhook(event: string, payload: Record<string, unknown>): Promise<void> {
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_double',
      event,
      contains: Object.keys(payload),
      payload,
      created_at: nowSeconds(),
    });
    const hook = { eventId: newId('evt'), event, body, signature: hmac(opts.webhookSecret, body) };
    webhooks.push(hook);
    if (!double.holdWebhooks) await deliver(hook);
  }

  async function pay(
    orderId: string,
    outcome: PayOutcome,
    payOpts: { method?: string; amount?: number } = {},
  ): Promise<CheckoutResult> {
    const order = orders.get(orderId);
    if (!order) throw new HttpError(400, 'The id provided does not exist');
    if (order.status === 'paid') throw new HttpError(400, 'Order has already been paid');
    order.attempts++;
    if (order.status === 'created') order.status = 'attempted';
    const payment: DoublePayment = {
      id: newId('pay'),
      entity: 'payment',
      amount: payOpts.amount ?? order.amount,
      currency: order.currency,
      status: outcome === 'success' ? 'captured' : 'failed',
      order_id: order.id,
      method: payOpts.method ?? 'upi',
      captured: outcome === 'success',
      amount_refunded: 0,
      refund_status: null,
      error_code: outcome === 'success' ? null : 'BAD_REQUEST_ERROR',
      error_description: outcome === 'success' ? null : 'Payment failed',
      error_reason: outcome === 'success' ? null : 'payment_failed',
      created_at: nowSeconds(),
    };
    payments.set(payment.id, payment);
    if (outcome === 'failure') {
      await webhook('payment.failed', { payment: { entity: payment } });
      return {
        error: {
          code: 'BAD_REQUEST_ERROR',
          description: 'Payment failed',
          reason: 'payment_failed',
          metadata: { order_id: order.id, payment_id: payment.id },
        },
      };
    }
    order.amount_paid = payment.amount;
    order.amount_due = Math.max(0, order.amount - payment.amount);
    order.status = order.amount_due === 0 ? 'paid' : 'attempted';
    await webhook('payment.captured', { payment: { entity: payment } });
    if (order.status === 'paid') {
      await webhook('order.paid', { payment: { entity: payment }, order: { entity: order } });
    }
    return {
      razorpay_payment_id: payment.id,
      razorpay_order_id: order.id,
      razorpay_signature: hmac(opts.keySecret, `${order.id}|${payment.id}`),
    };
  }

  const collection = <T>(items: T[]) => ({ entity: 'collection', count: items.length, items });

  async function api(method: string, path: string, body: Record<string, unknown>): Promise<unknown> {
    const parts = path.split('/').filter(Boolean); // ['v1', 'orders', ...]
    if (method === 'POST' && path === '/v1/orders') {
      const amount = body.amount;
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100) {
        throw new HttpError(400, 'The amount must be atleast INR 1.00');
      }
      const order: DoubleOrder = {
        id: newId('order'),
        entity: 'order',
        amount,
        amount_paid: 0,
        amount_due: amount,
        currency: typeof body.currency === 'string' ? body.currency : 'INR',
        receipt: typeof body.receipt === 'string' ? body.receipt : null,
        status: 'created',
        attempts: 0,
        notes: (body.notes as Record<string, string> | undefined) ?? {},
        created_at: nowSeconds(),
      };
      orders.set(order.id, order);
      return order;
    }
    if (method === 'GET' && parts[1] === 'orders' && parts.length === 3) {
      const order = orders.get(parts[2]);
      if (!order) throw new HttpError(400, 'The id provided does not exist');
      return order;
    }
    if (method === 'GET' && parts[1] === 'orders' && parts[3] === 'payments') {
      return collection([...payments.values()].filter((p) => p.order_id === parts[2]));
    }
    if (parts[1] === 'payments' && parts[2]) {
      const payment = payments.get(parts[2]);
      if (!payment) throw new HttpError(400, 'The id provided does not exist');
      if (method === 'GET' && parts.length === 3) return payment;
      if (method === 'GET' && parts[3] === 'refunds') {
        return collection([...refunds.values()].filter((r) => r.payment_id === payment.id));
      }
      if (method === 'POST' && parts[3] === 'refund') {
        const amount = body.amount === undefined ? payment.amount - payment.amount_refunded : body.amount;
        if (payment.status !== 'captured') throw new HttpError(400, 'The payment has not been captured');
        if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 100) {
          throw new HttpError(400, 'The amount must be atleast INR 1.00');
        }
        if (amount > payment.amount - payment.amount_refunded) {
          throw new HttpError(400, 'The refund amount provided is greater than amount captured');
        }
        payment.amount_refunded += amount;
        payment.refund_status = payment.amount_refunded === payment.amount ? 'full' : 'partial';
        const refund: DoubleRefund = {
          id: newId('rfnd'),
          entity: 'refund',
          amount,
          currency: payment.currency,
          payment_id: payment.id,
          receipt: typeof body.receipt === 'string' ? body.receipt : null,
          notes: (body.notes as Record<string, string> | undefined) ?? {},
          status: 'processed',
          created_at: nowSeconds(),
        };
        refunds.set(refund.id, refund);
        void webhook('refund.processed', { refund: { entity: refund }, payment: { entity: payment } });
        return refund;
      }
    }
    throw new HttpError(404, 'The requested URL was not found on the server.');
  }

  const readBody = (req: http.IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      let data = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => {
        data += c;
        if (data.length > 100_000) reject(new HttpError(413, 'Request too large'));
      });
      req.on('end', () => resolve(data));
      req.on('error', reject);
    });

  const send = (res: http.ServerResponse, status: number, body: unknown, type = 'application/json') => {
    res.writeHead(status, {
      'Content-Type': type,
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'Content-Type',
      'Cache-Control': 'no-store',
    });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://double');
      const route = `${req.method} ${url.pathname}`;
      try {
        if (req.method === 'OPTIONS') return send(res, 204, '');
        if (route === 'GET /v1/checkout.js') {
          return send(res, 200, checkoutScript(double.url), 'text/javascript; charset=utf-8');
        }
        const raw = await readBody(req);
        const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        if (route === 'POST /_double/checkout/pay') {
          if (body.key !== opts.keyId) throw new HttpError(401, 'Authentication failed');
          const outcome = body.outcome === 'failure' ? 'failure' : 'success';
          const method = typeof body.method === 'string' ? body.method : 'upi';
          return send(res, 200, await pay(String(body.order_id), outcome, { method }));
        }
        const expected = `Basic ${Buffer.from(`${opts.keyId}:${opts.keySecret}`).toString('base64')}`;
        if (req.headers.authorization !== expected) throw new HttpError(401, 'Authentication failed');
        const failure =
          failures.get(route) ??
          failures.get(`${req.method} ${url.pathname.split('/').slice(0, 3).join('/')}`);
        if (failure) {
          failures.delete(route);
          failures.delete(`${req.method} ${url.pathname.split('/').slice(0, 3).join('/')}`);
          if (failure === 'timeout') {
            hanging.add(res);
            return; // never answered: the client's own timeout ends it
          }
          throw new HttpError(500, 'We are facing some trouble completing your request at the moment.');
        }
        return send(res, 200, await api(req.method ?? 'GET', url.pathname, body));
      } catch (err) {
        const status = err instanceof HttpError ? err.status : 400;
        const description = err instanceof Error ? err.message : 'Bad request';
        send(res, status, {
          error: {
            code: status >= 500 ? 'SERVER_ERROR' : 'BAD_REQUEST_ERROR',
            description,
            source: 'NA',
            step: 'NA',
            reason: 'NA',
            metadata: {},
          },
        });
      }
    })();
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, loopbackHost(opts.host), resolve));
  server.unref();
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  Object.assign(double, {
    address,
    url: `http://${host}:${port}`,
    checkoutScriptUrl: `http://${host}:${port}/v1/checkout.js`,
  });

  async function close(): Promise<void> {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  return double;
}

/**
 * The stand-in for Razorpay Checkout's script: `new Razorpay(options)` with key, order_id, amount, handler,
 * modal.ondismiss; `.on('payment.failed', fn)`; `.open()`. Its dialog says plainly that it is the test double.
 */
function checkoutScript(origin: string): string {
  return `(function () {
  var ORIGIN = ${JSON.stringify(origin)};
  function Razorpay(options) { this.options = options || {}; this.listeners = {}; }
  Razorpay.prototype.on = function (name, fn) { (this.listeners[name] = this.listeners[name] || []).push(fn); };
  Razorpay.prototype.emit = function (name, arg) { (this.listeners[name] || []).forEach(function (fn) { fn(arg); }); };
  Razorpay.prototype.open = function () {
    var self = this, o = this.options, previous = document.activeElement;
    var overlay = document.createElement('div');
    overlay.setAttribute('data-razorpay-double', '');
    overlay.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,.55);display:flex;align-items:center;justify-content:center;z-index:2147483647;padding:16px;';
    var box = document.createElement('div');
    box.setAttribute('role', 'dialog');
    box.setAttribute('aria-modal', 'true');
    box.setAttribute('aria-labelledby', 'rzp-double-title');
    box.style.cssText = 'background:#fff;color:#111;border-radius:12px;max-width:340px;width:100%;padding:20px;font:16px system-ui,sans-serif;';
    var rupees = (o.amount / 100).toLocaleString('en-IN', { style: 'currency', currency: o.currency || 'INR' });
    box.innerHTML = '<h2 id="rzp-double-title" style="margin:0 0 4px;font-size:18px">Test payments</h2>' +
      '<p style="margin:0 0 12px;font-size:14px">Razorpay test double: no money moves.</p>' +
      '<p style="margin:0 0 12px;font-weight:600" data-amount></p><p role="status" data-status style="margin:0 0 12px;color:#b91c1c"></p>';
    box.querySelector('[data-amount]').textContent = (o.name ? o.name + ': ' : '') + rupees;
    function button(label, fn) {
      var b = document.createElement('button');
      b.type = 'button'; b.textContent = label;
      b.style.cssText = 'display:block;width:100%;margin:6px 0;padding:12px;border-radius:8px;border:1px solid #1e3a8a;background:#1e3a8a;color:#fff;font:inherit;cursor:pointer;';
      b.addEventListener('click', fn); box.appendChild(b); return b;
    }
    function close() { document.removeEventListener('keydown', onKey, true); overlay.remove(); if (previous && previous.focus) previous.focus(); }
    function pay(method, outcome) {
      return fetch(ORIGIN + '/_double/checkout/pay', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ key: o.key, order_id: o.order_id, method: method, outcome: outcome }) })
        .then(function (r) { return r.json(); })
        .then(function (res) {
          if (res.error) {
            box.querySelector('[data-status]').textContent = 'Payment failed. Try again or close.';
            self.emit('payment.failed', res);
          } else { close(); if (o.handler) o.handler(res); }
        });
    }
    var first = button('Pay by UPI (succeeds)', function () { pay('upi', 'success'); });
    button('Pay by UPI (fails)', function () { pay('upi', 'failure'); });
    button('Pay by card (succeeds)', function () { pay('card', 'success'); });
    var closer = button('Close', function () { close(); if (o.modal && o.modal.ondismiss) o.modal.ondismiss(); });
    closer.style.background = '#fff'; closer.style.color = '#1e3a8a';
    function onKey(e) {
      if (e.key === 'Escape') { e.preventDefault(); closer.click(); }
      if (e.key === 'Tab') {
        var items = box.querySelectorAll('button'), a = items[0], z = items[items.length - 1];
        if (e.shiftKey && document.activeElement === a) { e.preventDefault(); z.focus(); }
        else if (!e.shiftKey && document.activeElement === z) { e.preventDefault(); a.focus(); }
      }
    }
    document.addEventListener('keydown', onKey, true);
    overlay.appendChild(box); document.body.appendChild(overlay); first.focus();
  };
  window.Razorpay = Razorpay;
})();
`;
}
