import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CartAddInput, CartRemoveInput, CartUpdateInput } from '../../../../api/contract/cart';
import { api } from '../../lib/api-client';
import { API_ROUTES } from '../../../../api/contract/routes';
import { cartKey, cartListQuery } from '../../lib/cart-query';

/** Query factories of the cart area; the list is shared with the checkout page through lib/cart-query. */
export const cartQueries = {
  all: () => cartKey,
  /** The signed-in customer's cart: lines with availability, total of available lines, total quantity. */
  list: cartListQuery,
};

/** Adds a product to the cart (to its existing line when there is one); the cart refreshes. */
export function useAddToCartMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CartAddInput) => api.call(API_ROUTES.cartAdd, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartQueries.all() }),
  });
}

/** Sets a line's quantity; the cart refreshes after every change (docs/product-rules.md §4), failed or not. */
export function useUpdateCartItemMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CartUpdateInput) => api.call(API_ROUTES.cartUpdate, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartQueries.all() }),
  });
}

/** Removes a line; the cart refreshes. */
export function useRemoveCartItemMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CartRemoveInput) => api.call(API_ROUTES.cartRemove, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartQueries.all() }),
  });
}
