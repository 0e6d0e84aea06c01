import type { Feature } from '../../app';
import {
  CHECKOUT_MESSAGES,
  CheckoutSchema,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_MAX,
} from '../../../contract/checkout';
import { currentUser, requireAuth } from '../../http/auth';
import { badRequest } from '../../http/errors';
import { parseBody } from '../../http/validate';
import { checkout } from './service';

/** Routes of the checkout area. */
export const checkoutFeature: Feature = (router) => {
  router.post('/_api/checkout/create', requireAuth('customer'), async (ctx) => {
    const key = ctx.get(IDEMPOTENCY_HEADER).trim();
    if (!key) throw badRequest(CHECKOUT_MESSAGES.idempotencyKeyRequired, 'idempotency_key_required');
    if (key.length > IDEMPOTENCY_KEY_MAX) {
      throw badRequest(CHECKOUT_MESSAGES.idempotencyKeyTooLong, 'idempotency_key_invalid');
    }
    const input = parseBody(ctx, CheckoutSchema);
    const result = await checkout(ctx.deps.db, currentUser(ctx), key, input);
    ctx.status = result.status;
    ctx.body = result.body;
  });
};
