import {
  CHECKOUT_MESSAGES,
  CheckoutSchema,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_MAX,
} from '../../../contract/checkout';
import { API_ROUTES as R } from '../../../contract/routes';
import type { Feature } from '../../http/context';
import { endpointWithSession, WithStatus, type Exchange } from '../../http/endpoint';
import { checkoutWithSession } from './service';
import { isOnlinePayment } from '../../../contract/constants';
import type { PaymentStart } from '../../../contract/payments';
import { AppError, badRequest } from '../../http/errors';
import { startPayment } from '../payments/service';

/** The request's Idempotency-Key: required, and bounded in length (checked before the body). */
function idempotencyKey(exchange: Exchange): { key: string } {
  const key = exchange.header(IDEMPOTENCY_HEADER).trim();
  if (!key) throw badRequest(CHECKOUT_MESSAGES.idempotencyKeyRequired, 'idempotency_key_required');
  if (key.length > IDEMPOTENCY_KEY_MAX) {
    throw badRequest(CHECKOUT_MESSAGES.idempotencyKeyTooLong, 'idempotency_key_invalid');
  }
  return { key };
}

/** Routes of the checkout area. */
export const checkoutFeature: Feature = (router) => {
  // The session is read in the checkout's own statement (session: 'in-route'). A request that is refused
  // anyway (no session, a bad key or body) is answered 401/403 first, then the key, then the body.
  endpointWithSession(router, R.checkout, {
    prepare: idempotencyKey,
    input: CheckoutSchema,
    read: async (deps, sessionId, { key, ...input }) => {
      const attempt = await checkoutWithSession(deps, sessionId, key, input);
      return {
        session: attempt.session,
        answer: async (user) => {
          const result = await attempt.result(user);
          // Stock changed: the catalogue answers showing these products are dropped (see ResponseCache).
          const orders = result.body.orders ?? [];
          deps.catalogCache.invalidateProducts(orders.flatMap((o) => o.items.map((i) => i.product.id)));
          // Paid online: one gateway order for the whole cart, for Checkout to open at once. When the gateway
          // does not answer, the orders wait for "Pay now" (payment null).
          const awaiting = orders.some(
            (o) =>
              isOnlinePayment(o.paymentMethod) &&
              (o.paymentStatus === 'pending' || o.paymentStatus === 'failed'),
          );
          if (!awaiting || !deps.payments) return new WithStatus(result.status, result.body);
          const payment: PaymentStart | null = await startPayment(deps, user, result.body.checkoutRef).catch(
            (err: unknown) => {
              if (err instanceof AppError && err.status === 503) return null;
              throw err;
            },
          );
          return new WithStatus(result.status, { ...result.body, payment });
        },
      };
    },
  });
};
