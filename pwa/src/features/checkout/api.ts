import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_HEADER, type CheckoutData } from '../../../../api/contract/checkout';
import { api } from '../../lib/api-client';
import { API_ROUTES } from '../../../../api/contract/routes';
import { cartKey } from '../../lib/cart-query';

/** Places the cart as one order per shop. `idempotencyKey` identifies the attempt (same key = same result). */
export function useCheckoutMutation() {
  return useMutation({
    mutationFn: ({ input, idempotencyKey }: { input: CheckoutData; idempotencyKey: string }) =>
      api.call(API_ROUTES.checkout, input, {
        headers: { [IDEMPOTENCY_HEADER]: idempotencyKey },
      }),
  });
}

/** Removes a line the checkout cannot include (no longer available); the cart refreshes. */
export function useRemoveUnavailableMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cartItemId: number) => api.call(API_ROUTES.cartRemove, { cartItemId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartKey }),
  });
}

/** A fresh key for one checkout attempt. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID needs a secure context; getRandomValues does not (a shop opened over plain http on a LAN).
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
