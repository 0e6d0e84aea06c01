import { CartAddSchema, CartRemoveSchema, CartUpdateSchema } from '../../../contract/cart';
import { API_ROUTES as R } from '../../../contract/routes';
import type { Feature } from '../../http/context';
import { endpoint, endpointWithSession } from '../../http/endpoint';
import { addToCartWithSession, readCartWithSession, removeCartItem, updateCartItem } from './service';

/** Routes of the cart area: customers only. */
export const cartFeature: Feature = (router) => {
  // The two calls of every add-to-cart and every cart panel read the session in their own statement
  // (session: 'in-route'): one round trip each instead of two.
  endpointWithSession(router, R.cartList, {
    read: async (deps, sessionId) => {
      const { session, cart } = await readCartWithSession(deps, sessionId);
      return { session, answer: () => cart };
    },
  });

  endpointWithSession(router, R.cartAdd, {
    input: CartAddSchema,
    read: async (deps, sessionId, input) => {
      const { session, add } = await addToCartWithSession(deps, sessionId, input);
      return { session, answer: add };
    },
  });

  endpoint(router, R.cartUpdate, {
    input: CartUpdateSchema,
    handle: (deps, user, input) => updateCartItem(deps.db, user.id, input, deps.clock.now()),
  });

  endpoint(router, R.cartRemove, {
    input: CartRemoveSchema,
    handle: async (deps, user, { cartItemId }) => {
      await removeCartItem(deps.db, user.id, cartItemId);
      return { success: true as const };
    },
  });
};
