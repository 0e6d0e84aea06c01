import {
  CHECKOUT_MESSAGES,
  CheckoutSchema,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_MAX,
} from '../../../contract/checkout';
import { API_ROUTES as R } from '../../../contract/routes';
import type { Feature } from '../../http/context';
import { endpointWithSession, WithStatus, type Exchange } from '../../http/endpoint';
import { badRequest } from '../../http/errors';
import { checkoutWithSession } from './service';

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
          const orders =
            (result.body as { orders?: { items: { product: { id: number } }[] }[] }).orders ?? [];
          deps.catalogCache.invalidateProducts(orders.flatMap((o) => o.items.map((i) => i.product.id)));
          return new WithStatus(result.status, result.body);
        },
      };
    },
  });
};
