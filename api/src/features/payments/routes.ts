import {
  PAYMENT_MESSAGES,
  PaymentSettingsSchema,
  PayoutSchema,
  StartPaymentSchema,
  VerifyPaymentSchema,
} from '../../../contract/payments';
import { API_ROUTES as R } from '../../../contract/routes';
import type { AppDeps, Feature } from '../../http/context';
import { endpoint, rawEndpoint } from '../../http/endpoint';
import { notFound } from '../../http/errors';
import { adminLedger, recordPayout, sellerLedger } from './ledger';
import { handleWebhook, paymentOptions, sendDueRefunds, startPayment, verifyPayment } from './service';

/** How often each process sends the refunds still waiting for the gateway (a failed or timed-out call). */
export const SEND_REFUNDS_EVERY_MS = 60_000;

/** Payments: options, start ("Pay now"), verify, the webhook, the shop's cash setting, the ledger and payouts. */
export const paymentsFeature: Feature = (router, { deps, background }) => {
  background.every('payments:send-refunds', SEND_REFUNDS_EVERY_MS, async () => {
    const sent = await sendDueRefunds(deps);
    if (sent > 0) deps.logger.info({ sent }, 'refunds sent to the gateway');
  });

  endpoint(router, R.paymentOptions, { handle: (deps, user) => paymentOptions(deps, user.id) });
  endpoint(router, R.paymentStart, {
    input: StartPaymentSchema,
    handle: (deps, user, { checkoutRef }) => startPayment(deps, user, checkoutRef),
  });
  endpoint(router, R.paymentVerify, {
    input: VerifyPaymentSchema,
    handle: (deps, user, input) => verifyPayment(deps, user, input),
  });

  rawEndpoint(router, R.razorpayWebhook, async (ctx) => {
    const raw = (ctx.request as unknown as { rawBody?: string }).rawBody ?? '';
    // X-Razorpay-Event-Id is not signed: the signed body itself identifies the event (handleWebhook).
    const status = await handleWebhook(ctx.deps, raw, ctx.get('X-Razorpay-Signature'));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status };
  });

  endpoint(router, R.sellerPaymentSettings, {
    handle: async (deps, user) => {
      const row = (await deps.db('seller_profiles').where({ user_id: user.id }).first('cash_on_delivery')) as
        { cash_on_delivery: boolean } | undefined;
      if (!row) throw notFound(PAYMENT_MESSAGES.shopNotFound, 'seller_profile_not_found');
      return { cashOnDelivery: row.cash_on_delivery };
    },
  });
  endpoint(router, R.sellerPaymentSettingsSet, {
    input: PaymentSettingsSchema,
    handle: async (deps, user, { cashOnDelivery }) => {
      const n = await deps
        .db('seller_profiles')
        .where({ user_id: user.id })
        .update({ cash_on_delivery: cashOnDelivery, updated_at: deps.db.fn.now() });
      if (!n) throw notFound(PAYMENT_MESSAGES.shopNotFound, 'seller_profile_not_found');
      return { cashOnDelivery };
    },
  });

  const payoutRule = (deps: AppDeps) => ({
    now: deps.clock.now(),
    returnWindowMs: deps.config.payments.returnWindowMs,
  });
  endpoint(router, R.sellerLedger, {
    handle: (deps, user) =>
      sellerLedger(deps.db, user.id, deps.config.payments.commissionBasisPoints, payoutRule(deps)),
  });
  endpoint(router, R.adminLedger, {
    handle: (deps) => adminLedger(deps.db, deps.config.payments.commissionBasisPoints, payoutRule(deps)),
  });
  endpoint(router, R.adminPayout, {
    input: PayoutSchema,
    handle: async (deps, user, input) => ({
      ledger: await recordPayout(deps.db, user.id, input, payoutRule(deps)),
    }),
  });
};
