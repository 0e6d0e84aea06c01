import type { Feature } from '../../app';
import {
  CHECKOUT_MESSAGES,
  CheckoutSchema,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_MAX,
} from '../../../contract/checkout';
import { currentUser, requireAuth } from '../../http/auth';
import { badRequest } from '../../http/errors';
import { adoptSession, loadSession, sessionIdOf } from '../../http/session';
import { parseBody } from '../../http/validate';
import { checkoutWithSession } from './service';

/** Routes of the checkout area. */
export const checkoutFeature: Feature = (router) => {
  const customer = requireAuth('customer');

  // The session is read in the checkout's own statement (SESSION_IN_ROUTE). A request that is refused
  // anyway (no session, a bad key or body) is answered as the middleware and requireAuth would: 401/403
  // before a missing key or a bad body.
  router.post('/_api/checkout/create', async (ctx) => {
    const id = sessionIdOf(ctx);
    const key = ctx.get(IDEMPOTENCY_HEADER).trim();
    const valid = CheckoutSchema.safeParse((ctx.request as { body?: unknown }).body ?? {});
    if (!id || !key || key.length > IDEMPOTENCY_KEY_MAX || !valid.success) {
      await loadSession(ctx);
      return customer(ctx, async () => {
        if (!key) throw badRequest(CHECKOUT_MESSAGES.idempotencyKeyRequired, 'idempotency_key_required');
        if (key.length > IDEMPOTENCY_KEY_MAX) {
          throw badRequest(CHECKOUT_MESSAGES.idempotencyKeyTooLong, 'idempotency_key_invalid');
        }
        parseBody(ctx, CheckoutSchema);
      });
    }
    const attempt = await checkoutWithSession(ctx, id, key, valid.data);
    await adoptSession(ctx, id, attempt.session);
    await customer(ctx, async () => {
      const result = await attempt.result(currentUser(ctx));
      // Stock changed: the catalogue answers showing these products are dropped (see ResponseCache).
      const orders = (result.body as { orders?: { items: { product: { id: number } }[] }[] }).orders ?? [];
      ctx.deps.catalogCache.invalidateProducts(orders.flatMap((o) => o.items.map((i) => i.product.id)));
      ctx.status = result.status;
      ctx.body = result.body;
    });
  });
};
