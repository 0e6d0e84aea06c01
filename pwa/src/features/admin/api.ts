import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { SellerApprovalInput } from '../../../../api/contract/admin';
import { api } from '../../lib/api-client';
import { API_ROUTES } from '../../../../api/contract/routes';

/** Query factories of the admin area (TkDodo): keys live beside their fetchers. */
export const adminQueries = {
  all: () => ['admin'] as const,
  /** Every seller account (and admin with a shop) with its profile and approval state. */
  sellers: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'sellers'] as const,
      queryFn: ({ signal }) => api.call(API_ROUTES.adminSellers, undefined, { signal }),
      select: (data) => data.sellers,
    }),
  customers: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'customers'] as const,
      queryFn: ({ signal }) => api.call(API_ROUTES.adminCustomers, undefined, { signal }),
      select: (data) => data.customers,
    }),
  /** The last 7 days of answered calls: connected, relayed, setup time, reconnects. */
  callQuality: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'call-quality'] as const,
      queryFn: ({ signal }) => api.call(API_ROUTES.adminCallQuality, undefined, { signal }),
    }),
  /** Every shop's ledger (paid, commission, refunds, owed, paid out, balance) and the totals. */
  ledger: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'ledger'] as const,
      queryFn: ({ signal }) => api.call(API_ROUTES.adminLedger, undefined, { signal }),
    }),
};

/**
 * Approves or disapproves a shop. The sellers list refreshes (docs/product-rules.md §7), and so does the public catalogue,
 * where the change takes effect at once.
 */
export function useSellerApprovalMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SellerApprovalInput) => api.call(API_ROUTES.sellerApprove, input),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminQueries.sellers().queryKey });
      void queryClient.invalidateQueries({ queryKey: ['catalog'] });
    },
  });
}
