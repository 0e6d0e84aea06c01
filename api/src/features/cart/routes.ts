import type { Feature } from '../../app';
import { CartAddSchema, CartRemoveSchema, CartUpdateSchema } from '../../../contract/cart';
import { currentUser, requireAuth } from '../../http/auth';
import { parseBody } from '../../http/validate';
import { addToCart, getCart, removeCartItem, updateCartItem } from './service';

/** Routes of the cart area: customers only. */
export const cartFeature: Feature = (router) => {
  const customer = requireAuth('customer');

  router.get('/_api/cart/list', customer, async (ctx) => {
    ctx.body = await getCart(ctx.deps.db, currentUser(ctx).id);
  });

  router.post('/_api/cart/add', customer, async (ctx) => {
    const input = parseBody(ctx, CartAddSchema);
    ctx.body = await addToCart(ctx.deps.db, currentUser(ctx).id, input);
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
