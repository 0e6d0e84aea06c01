import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Cart } from '../../../../api/contract/cart';
import {
  IDEMPOTENCY_HEADER,
  type CheckoutData,
  type CheckoutResponse,
} from '../../../../api/contract/checkout';
import { api } from '../../lib/api-client';

/**
 * The checkout page reads the cart under the cart area's key (['cart', 'list']), so the header badge, the
 * panel and this page share one cache entry; features do not import each other, hence the second fetcher.
 */
export const checkoutQueries = {
  cart: () =>
    queryOptions({
      queryKey: ['cart', 'list'] as const,
      queryFn: ({ signal }) => api.get<Cart>('/_api/cart/list', undefined, { signal }),
    }),
};

/** Places the cart as one order per shop. `idempotencyKey` identifies the attempt (same key = same result). */
export function useCheckoutMutation() {
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: CheckoutData; idempotencyKey: string }) =>
      api.post<CheckoutResponse>('/_api/checkout/create', input, {
        headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
      }),
  });
}

/** Removes a line the checkout cannot include (no longer available); the cart refreshes. */
export function useRemoveUnavailableMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cartItemId: number) => api.post<{ success: true }>('/_api/cart/remove', { cartItemId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['cart'] }),
  });
}

/** A fresh key for one checkout attempt. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID needs a secure context; getRandomValues does not (a shop opened over plain http on a LAN).
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
