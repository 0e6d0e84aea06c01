import { queueOrderNotices, queueShopOrderNotices } from '../notices/service';
import type { Knex } from 'knex';
import { ONLINE_PAYMENT_METHODS, type PaymentMethod } from '../../../contract/constants';
import { ORDER_MESSAGES } from '../../../contract/orders';
import {
  LARGE_ORDER_PAISE,
  PAYMENT_MESSAGES,
  type PaymentOptions,
  type PaymentStart,
  type VerifyPaymentInput,
} from '../../../contract/payments';
import type { AppDeps } from '../../http/context';
import { AppError, badRequest, conflict, notFound } from '../../http/errors';
import { metrics } from '../../http/metrics';
import { firstReceipt, sha256Key } from '../../http/webhook-receipts';
import type { OrderViewer } from '../orders/presenter';
import { loadOrders } from '../orders/service';
import { GatewayError, type GatewayPayment, type PaymentGateway } from './gateway';
import { issueInvoices } from '../invoices/service';
import { recordSale } from './ledger';
import { isValidPaymentSignature, isValidWebhookSignature } from './signatures';

/** Orders (alias `o`) awaiting an online payment: not cancelled or shipped, not paid (pending, or failed). */
export const AWAITING_ONLINE = `o.status in ('pending', 'confirmed') and o.payment_status in ('pending', 'failed')
  and o.payment_method <> 'cash_on_delivery'`;

const gatewayOrNone = (deps: AppDeps): PaymentGateway => {
  if (!deps.payments) throw badRequest(PAYMENT_MESSAGES.onlineUnavailable, 'online_payment_unavailable');
  return deps.payments;
};

const unavailable = (err: unknown) => {
  if (err instanceof GatewayError) {
    return new AppError(503, 'payment_gateway_unavailable', PAYMENT_MESSAGES.gatewayUnavailable);
  }
  return err;
};

/** The payment methods that work for the customer's cart (docs/product-rules.md "Payments"). */
export async function paymentOptions(deps: AppDeps, customerId: number): Promise<PaymentOptions> {
  const shops = (
    (await deps.db.raw(
      `select p.seller_id, min(sp.shop_name) as shop_name, bool_and(coalesce(sp.cash_on_delivery, false)) as cod,
              (sum(p.price * ci.quantity) * 100)::bigint as total_paise
         from cart_items ci join products p on p.id = ci.product_id
         left join seller_profiles sp on sp.user_id = p.seller_id
        where ci.user_id = ?
        group by p.seller_id order by p.seller_id`,
      [customerId],
    )) as { rows: { seller_id: number; shop_name: string | null; cod: boolean; total_paise: string }[] }
  ).rows;
  const noCod = shops.find((s) => !s.cod);
  const large = shops.some((s) => Number(s.total_paise) >= LARGE_ORDER_PAISE);
  const cashUnavailable = noCod
    ? PAYMENT_MESSAGES.cashNotOffered.replace('{shop}', noCod.shop_name ?? 'This shop')
    : large
      ? PAYMENT_MESSAGES.cashLimit
      : null;
  const online = !!deps.payments;
  const methods: PaymentMethod[] = [
    ...(online ? ONLINE_PAYMENT_METHODS : []),
    ...(cashUnavailable ? [] : (['cash_on_delivery'] as const)),
  ];
  return {
    methods,
    defaultMethod: methods[0] ?? null,
    online,
    testMode: !!deps.payments?.testMode,
    cashUnavailable,
    panRequired: large,
  };
}

interface AwaitingRow {
  id: number;
  amount_paise: string | number;
  gateway_order_id: string | null;
  gateway_status: string | null;
  gateway_amount: string | number | null;
}

/**
 * Opens a payment for the orders of one checkout that still await it: one gateway order for all of them, for
 * the server's amount (the sum of their totals). An existing gateway order for exactly those orders and that
 * amount is reused (Checkout may retry one); otherwise a new one is created and the orders are linked to it,
 * guarded on the link they had, so two "Pay now" at once leave one link (the other's order is never paid).
 */
export async function startPayment(
  deps: AppDeps,
  customer: { id: number; email: string; displayName: string },
  checkoutRef: string,
): Promise<PaymentStart> {
  const gateway = gatewayOrNone(deps);
  const { db } = deps;
  const rows = (
    (await db.raw(
      `select o.id, (o.total_amount * 100)::bigint as amount_paise, o.gateway_order_id,
              g.status as gateway_status, g.amount_paise as gateway_amount
         from orders o left join gateway_orders g on g.gateway_order_id = o.gateway_order_id
        where o.checkout_ref = ? and o.customer_id = ? and ${AWAITING_ONLINE}
        order by o.id`,
      [checkoutRef, customer.id],
    )) as { rows: AwaitingRow[] }
  ).rows;
  if (rows.length === 0) {
    const any = await db('orders').where({ checkout_ref: checkoutRef, customer_id: customer.id }).first('id');
    if (!any) throw notFound(ORDER_MESSAGES.notFound);
    throw conflict(PAYMENT_MESSAGES.nothingToPay, 'nothing_to_pay');
  }
  const amount = rows.reduce((n, r) => n + Number(r.amount_paise), 0);
  const ids = rows.map((r) => r.id);
  const contact = (await db('orders').where({ id: ids[0] }).first('customer_name', 'customer_phone')) as {
    customer_name: string;
    customer_phone: string;
  };
  const answer = async (gatewayOrderId: string): Promise<PaymentStart> => ({
    gateway: 'razorpay',
    keyId: gateway.keyId,
    gatewayOrderId,
    amountPaise: amount,
    currency: 'INR',
    scriptUrl: await gateway.scriptUrl(),
    testMode: gateway.testMode,
    orderIds: ids,
    prefill: { name: contact.customer_name, contact: contact.customer_phone, email: customer.email },
  });

  const linked = rows[0].gateway_order_id;
  if (
    linked &&
    rows.every((r) => r.gateway_order_id === linked) &&
    rows[0].gateway_status === 'created' &&
    Number(rows[0].gateway_amount) === amount
  ) {
    return answer(linked);
  }

  let created;
  try {
    created = await gateway.createOrder(amount, checkoutRef.slice(0, 36), {
      checkout_ref: checkoutRef,
      orders: ids.join(','),
    });
  } catch (err) {
    throw unavailable(err);
  }
  if (created.amount !== amount) throw new Error('gateway order amount differs from the server amount');
  const sameLink = rows.every((r) => r.gateway_order_id === linked);
  await db.transaction(async (trx) => {
    await trx('gateway_orders').insert({
      gateway_order_id: created.id,
      customer_id: customer.id,
      checkout_ref: checkoutRef,
      amount_paise: amount,
    });
    const updated = (
      (await trx.raw(
        `update orders o set gateway_order_id = ?
          where o.id = any(?::int[]) and ${AWAITING_ONLINE}
            and (not ? or gateway_order_id is not distinct from ?)
          returning id`,
        [created.id, ids, sameLink, linked],
      )) as { rows: { id: number }[] }
    ).rows;
    if (updated.length !== ids.length) {
      throw conflict(PAYMENT_MESSAGES.nothingToPay, 'payment_conflict');
    }
  });
  return answer(created.id);
}

export type CaptureOutcome = 'applied' | 'already' | 'refund_due';

/**
 * A captured payment of a gateway order (from the page, after its signature was checked, or from a signed
 * webhook). In one transaction, the gateway order's row locked first (as the payment window's release does):
 * the payment is recorded once (a second report of it has no effect), and it pays the orders linked to that
 * gateway order when they still await payment and add up to exactly its amount, which is the server's. Anything
 * else (a different amount, orders cancelled or relinked meanwhile) leaves the orders as they are and marks the
 * payment to be refunded whole.
 */
export async function applyCapture(
  trx: Knex.Transaction,
  payment: GatewayPayment,
  basisPoints: number,
  now: Date,
): Promise<CaptureOutcome> {
  const gateway = (
    (await trx.raw(`select amount_paise from gateway_orders where gateway_order_id = ? for update`, [
      payment.order_id,
    ])) as { rows: { amount_paise: string | number }[] }
  ).rows[0];
  if (!gateway) return 'already'; // not ours: nothing to pay (the signature was valid, the order unknown)
  const recorded = (
    (await trx.raw(
      `insert into gateway_payments (gateway_payment_id, gateway_order_id, status, amount_paise, method)
       values (?, ?, 'captured', ?, ?)
       on conflict (gateway_payment_id) do update set status = 'captured'
         where gateway_payments.status = 'failed'
       returning id`,
      [payment.id, payment.order_id, payment.amount, payment.method ?? null],
    )) as { rows: { id: number }[] }
  ).rows;
  if (recorded.length === 0) return 'already';

  const orders = (
    (await trx.raw(
      `select o.id, o.seller_id, (o.total_amount * 100)::bigint as amount_paise from orders o
        where o.gateway_order_id = ? and ${AWAITING_ONLINE}
        order by o.id for update`,
      [payment.order_id],
    )) as { rows: { id: number; seller_id: number; amount_paise: string | number }[] }
  ).rows;
  const due = orders.reduce((n, o) => n + Number(o.amount_paise), 0);
  if (orders.length === 0 || due !== Number(gateway.amount_paise) || payment.amount !== due) {
    await trx.raw(`update gateway_payments set refund_state = 'due' where gateway_payment_id = ?`, [
      payment.id,
    ]);
    return 'refund_due';
  }
  await trx.raw(
    `update orders set payment_status = 'paid', paid_at = ?, updated_at = now() where id = any(?::int[])`,
    [now, orders.map((o) => o.id)],
  );
  await trx.raw(`update gateway_payments set applied = true where gateway_payment_id = ?`, [payment.id]);
  await trx.raw(`update gateway_orders set status = 'paid' where gateway_order_id = ?`, [payment.order_id]);
  // Paid: the tax invoices are due now, and are issued in this transaction (docs/product-rules.md §10).
  await issueInvoices(
    trx,
    orders.map((o) => o.id),
    now,
  );
  // The buyer hears of it by SMS when they opted in (issue #37).
  await queueOrderNotices(
    trx,
    orders.map((o) => o.id),
    'order_paid',
    now,
  );
  // The jeweller hears of each new paid order too (issue #48); the open dashboard by its 'shop' event.
  await queueShopOrderNotices(
    trx,
    orders.map((o) => o.id),
    now,
  );
  for (const o of orders) {
    await recordSale(
      trx,
      { id: o.id, seller_id: o.seller_id, amount_paise: Number(o.amount_paise) },
      basisPoints,
    );
  }
  return 'applied';
}

/**
 * After the commit of a capture that paid orders: the jeweller's phones are told of each (issue #48, the push
 * feature's listener); never awaited by the payer's request.
 */
async function announcePaid(deps: AppDeps, gatewayOrderId: string): Promise<void> {
  if (!deps.hooks.orderPaid.length) return;
  const rows = (await deps
    .db('orders')
    .where({ gateway_order_id: gatewayOrderId, payment_status: 'paid' })
    .select(
      'id',
      'seller_id',
      'customer_name',
      deps.db.raw('round(total_amount * 100)::bigint as amount_paise'),
    )) as { id: number; seller_id: number; customer_name: string; amount_paise: string | number }[];
  for (const r of rows)
    for (const listener of deps.hooks.orderPaid)
      listener({
        orderId: r.id,
        sellerId: r.seller_id,
        customerName: r.customer_name,
        amountPaise: Number(r.amount_paise),
      });
}

/** A capture that paid orders or must be refunded counts once as an outcome ('already': counted before). */
function countCapture(outcome: CaptureOutcome | undefined): void {
  if (outcome === 'applied') metrics.paymentOutcomes.inc({ outcome: 'paid' });
  else if (outcome === 'refund_due') metrics.paymentOutcomes.inc({ outcome: 'refund_due' });
}

/**
 * A failed payment attempt: the orders still awaiting it show "payment failed" (and Pay now); nothing else.
 * Returns whether the attempt was new (a repeated report of it changes nothing).
 */
export async function applyFailure(trx: Knex.Transaction, payment: GatewayPayment): Promise<boolean> {
  const known = await trx('gateway_orders').where({ gateway_order_id: payment.order_id }).first('id');
  if (!known) return false;
  const inserted = await trx.raw(
    `insert into gateway_payments (gateway_payment_id, gateway_order_id, status, amount_paise, method)
     values (?, ?, 'failed', ?, ?) on conflict (gateway_payment_id) do nothing`,
    [payment.id, payment.order_id, payment.amount, payment.method ?? null],
  );
  await trx.raw(
    `update orders set payment_status = 'failed', updated_at = now()
      where gateway_order_id = ? and status in ('pending', 'confirmed') and payment_status = 'pending'`,
    [payment.order_id],
  );
  const r = inserted as { rowCount?: number | null; affectedRows?: number };
  return (r.rowCount ?? r.affectedRows ?? 0) > 0;
}

/**
 * The page's report of a successful payment: the signature (HMAC-SHA256 of `order_id|payment_id` with the key
 * secret) proves the gateway made this payment for this gateway order; the payment itself (its amount and
 * status) is then read from the gateway, never taken from the page.
 */
export async function verifyPayment(deps: AppDeps, customer: OrderViewer, input: VerifyPaymentInput) {
  const gateway = gatewayOrNone(deps);
  const { razorpay_order_id: orderId, razorpay_payment_id: paymentId, razorpay_signature: signature } = input;
  if (!isValidPaymentSignature(gateway.keySecret, orderId, paymentId, signature)) {
    throw badRequest(PAYMENT_MESSAGES.signatureInvalid, 'signature_invalid');
  }
  const mine = (await deps
    .db('gateway_orders')
    .where({ gateway_order_id: orderId })
    .first('customer_id', 'checkout_ref')) as { customer_id: number; checkout_ref: string } | undefined;
  if (!mine || mine.customer_id !== customer.id)
    throw badRequest(PAYMENT_MESSAGES.signatureInvalid, 'signature_invalid');
  let payment: GatewayPayment;
  try {
    payment = await gateway.fetchPayment(paymentId);
  } catch (err) {
    throw unavailable(err);
  }
  if (payment.order_id !== orderId) throw badRequest(PAYMENT_MESSAGES.signatureInvalid, 'signature_invalid');
  let outcome: CaptureOutcome | undefined;
  if (payment.status === 'captured') {
    outcome = await deps.db.transaction((trx) =>
      applyCapture(trx, payment, deps.config.payments.commissionBasisPoints, deps.clock.now()),
    );
  } else if (payment.status === 'failed') {
    if (await deps.db.transaction((trx) => applyFailure(trx, payment)))
      metrics.paymentOutcomes.inc({ outcome: 'failed' });
  }
  countCapture(outcome);
  if (outcome === 'applied')
    await announcePaid(deps, orderId).catch((err: unknown) =>
      deps.logger.warn({ err }, 'announcing a paid order failed'),
    );
  if (outcome === 'refund_due') await sendDueRefunds(deps);
  // Reported before by its webhook or applied just now: what counts is whether it paid the orders.
  const applied = await deps
    .db('gateway_payments')
    .where({ gateway_payment_id: paymentId, applied: true })
    .first('id');
  if (payment.status === 'captured' && !applied) {
    throw badRequest(PAYMENT_MESSAGES.amountMismatch, 'payment_not_applied');
  }
  const ids = (await deps
    .db('orders')
    .where({ checkout_ref: mine.checkout_ref, customer_id: customer.id })
    .orderBy('seller_id')
    .pluck('id')) as number[];
  return { orders: await loadOrders(deps.db, ids, customer) };
}

/**
 * Sends to the gateway the refunds that wait for it: paid orders cancelled (refunds without a gateway id) and
 * payments that paid nothing (refund_state 'due'). Each is looked up at the gateway first by its receipt, so a
 * refund whose answer was lost is adopted, never made twice. Called after each cancellation and every minute.
 */
export async function sendDueRefunds(deps: AppDeps, batch = 50): Promise<number> {
  const gateway = deps.payments;
  if (!gateway) return 0;
  let sent = 0;
  const refunds = (await deps
    .db('refunds')
    .whereNull('gateway_refund_id')
    .where({ status: 'pending' })
    .orderBy('id')
    .limit(batch)
    .select('id', 'order_id', 'gateway_payment_id', 'amount_paise')) as {
    id: number;
    order_id: number;
    gateway_payment_id: string;
    amount_paise: string | number;
  }[];
  for (const r of refunds) {
    const receipt = `order_${r.order_id}`;
    try {
      const existing = (await gateway.listRefunds(r.gateway_payment_id)).find((x) => x.receipt === receipt);
      const made = existing ?? (await gateway.refund(r.gateway_payment_id, Number(r.amount_paise), receipt));
      await deps.db.raw(
        `update refunds set gateway_refund_id = ?, updated_at = now(),
                status = case when status = 'pending' then ? else status end
          where id = ?`,
        [
          made.id,
          made.status === 'processed' ? 'processed' : made.status === 'failed' ? 'failed' : 'pending',
          r.id,
        ],
      );
      sent++;
    } catch (err) {
      deps.logger.warn({ err, refund: r.id }, 'refund not sent yet; it is retried');
    }
  }
  const stray = (await deps
    .db('gateway_payments')
    .where({ refund_state: 'due' })
    .orderBy('id')
    .limit(batch)
    .select('gateway_payment_id', 'amount_paise')) as {
    gateway_payment_id: string;
    amount_paise: string | number;
  }[];
  for (const p of stray) {
    const receipt = `payment_${p.gateway_payment_id}`.slice(0, 40);
    try {
      const existing = (await gateway.listRefunds(p.gateway_payment_id)).find((x) => x.receipt === receipt);
      const made = existing ?? (await gateway.refund(p.gateway_payment_id, Number(p.amount_paise), receipt));
      await deps
        .db('gateway_payments')
        .where({ gateway_payment_id: p.gateway_payment_id })
        .update({ refund_state: 'sent', gateway_refund_id: made.id });
      sent++;
    } catch (err) {
      deps.logger.warn({ err, payment: p.gateway_payment_id }, 'refund of an unapplied payment not sent yet');
    }
  }
  return sent;
}

/** The refund of a webhook (refund.processed or refund.failed), matched by its id or by our receipt. */
export async function applyRefundUpdate(
  trx: Knex.Transaction,
  refund: { id: string; payment_id: string; receipt?: string | null },
  status: 'processed' | 'failed',
): Promise<void> {
  const orderId = /^order_(\d+)$/.exec(refund.receipt ?? '')?.[1];
  await trx.raw(
    `update refunds set status = ?, gateway_refund_id = coalesce(gateway_refund_id, ?), updated_at = now()
      where (gateway_refund_id = ? or (gateway_refund_id is null and order_id = ? and gateway_payment_id = ?))
        and status <> ?`,
    [status, refund.id, refund.id, orderId ? Number(orderId) : null, refund.payment_id, status],
  );
}

interface WebhookBody {
  event?: string;
  payload?: {
    payment?: { entity?: GatewayPayment };
    refund?: { entity?: { id: string; payment_id: string; receipt?: string | null } };
  };
}

/**
 * A webhook, checked against X-Razorpay-Signature (HMAC-SHA256 of the raw body with the webhook secret) before
 * anything is read from it. Each signed body is handled once (its SHA-256 stored in webhook_receipts in the
 * same transaction as its effect), so a replay has no effect; the X-Razorpay-Event-Id header is not signed and
 * is not used, or a captured event replayed with a new id would be handled again. The body holds the event's
 * entity ids and its created_at, so two genuine events never share one. Each effect is also guarded on the
 * state it moves from, so events late or out of order (a failure after a capture, order.paid before
 * payment.captured) change nothing they should not.
 */
export async function handleWebhook(
  deps: AppDeps,
  rawBody: string,
  signature: string,
): Promise<'handled' | 'duplicate' | 'ignored'> {
  const gateway = deps.payments;
  if (!gateway || !signature || !isValidWebhookSignature(gateway.webhookSecret, rawBody, signature)) {
    throw new AppError(400, 'signature_invalid', PAYMENT_MESSAGES.signatureInvalid);
  }
  let body: WebhookBody;
  try {
    body = JSON.parse(rawBody) as WebhookBody;
  } catch {
    throw badRequest('The webhook body is not JSON.', 'bad_webhook');
  }
  const event = body.event ?? '';
  let refundsDue = false;
  let captured: CaptureOutcome | undefined;
  let capturedOrder = '';
  let failedNew = false;
  const result = await deps.db.transaction(async (trx) => {
    if (!(await firstReceipt(trx, 'razorpay', sha256Key(rawBody)))) return 'duplicate' as const;
    const payment = body.payload?.payment?.entity;
    const refund = body.payload?.refund?.entity;
    if ((event === 'payment.captured' || event === 'order.paid') && payment?.status === 'captured') {
      const outcome = await applyCapture(
        trx,
        { ...payment, amount: Number(payment.amount) },
        deps.config.payments.commissionBasisPoints,
        deps.clock.now(),
      );
      refundsDue = outcome === 'refund_due';
      captured = outcome;
      capturedOrder = payment.order_id;
      return 'handled' as const;
    }
    if (event === 'payment.failed' && payment) {
      failedNew = await applyFailure(trx, { ...payment, amount: Number(payment.amount) });
      return 'handled' as const;
    }
    if ((event === 'refund.processed' || event === 'refund.failed') && refund) {
      await applyRefundUpdate(trx, refund, event === 'refund.processed' ? 'processed' : 'failed');
      return 'handled' as const;
    }
    return 'ignored' as const;
  });
  // Counted once committed (a transaction that rolled back changed nothing).
  countCapture(captured);
  if (captured === 'applied')
    await announcePaid(deps, capturedOrder).catch((err: unknown) =>
      deps.logger.warn({ err }, 'announcing a paid order failed'),
    );
  if (failedNew) metrics.paymentOutcomes.inc({ outcome: 'failed' });
  if (refundsDue) await sendDueRefunds(deps);
  return result;
}
