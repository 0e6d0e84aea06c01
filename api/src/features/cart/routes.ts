import type { Feature } from '../../app';
import { CartAddSchema, CartRemoveSchema, CartUpdateSchema } from '../../../contract/cart';
import { currentUser, requireAuth } from '../../http/auth';
import { adoptSession, loadSession, sessionIdOf } from '../../http/session';
import { parseBody } from '../../http/validate';
import { addToCartWithSession, readCartWithSession, removeCartItem, updateCartItem } from './service';

/** Routes of the cart area: customers only. */
export const cartFeature: Feature = (router) => {
  const customer = requireAuth('customer');

  // The two calls of every add-to-cart and every cart panel read the session in their own statement
  // (SESSION_IN_ROUTE): one round trip each instead of two.
  router.get('/_api/cart/list', async (ctx) => {
    const id = sessionIdOf(ctx);
    const read = id ? await readCartWithSession(ctx, id) : undefined;
    if (id) await adoptSession(ctx, id, read?.session);
    await customer(ctx, async () => {
      ctx.body = read!.cart;
    });
  });

  router.post('/_api/cart/add', async (ctx) => {
    const id = sessionIdOf(ctx);
    const valid = CartAddSchema.safeParse((ctx.request as { body?: unknown }).body ?? {});
    if (!id || !valid.success) {
      // Refused either way: answer as the middleware and requireAuth would (401/403 before a bad body).
      await loadSession(ctx);
      return customer(ctx, async () => {
        parseBody(ctx, CartAddSchema);
      });
    }
    const { session, add } = await addToCartWithSession(ctx, id, valid.data);
    await adoptSession(ctx, id, session);
    await customer(ctx, async () => {
      ctx.body = add();
    });
  });

  router.post('/_api/cart/update', customer, async (ctx) => {
    const input = parseBody(ctx, CartUpdateSchema);
    ctx.body = await updateCartItem(ctx.deps.db, currentUser(ctx).id, input);
  });

  router.post('/_api/cart/remove', customer, async (ctx) => {
    const { cartItemId } = parseBody(ctx, CartRemoveSchema);
    await removeCartItem(ctx.deps.db, currentUser(ctx).id, cartItemId);
    ctx.body = { success: true };
  });
};
