import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AdminCustomersResponse,
  AdminSellersResponse,
  SellerApprovalInput,
  SellerApprovalResponse,
} from '../../../../api/contract/admin';
import { api } from '../../lib/api-client';

/** Query factories of the admin area (TkDodo): keys live beside their fetchers. */
export const adminQueries = {
  all: () => ['admin'] as const,
  /** Every seller account (and admin with a shop) with its profile and approval state. */
  sellers: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'sellers'] as const,
      queryFn: ({ signal }) => api.get<AdminSellersResponse>('/_api/admin/sellers', undefined, { signal }),
      select: (data) => data.sellers,
    }),
  customers: () =>
    queryOptions({
      queryKey: [...adminQueries.all(), 'customers'] as const,
      queryFn: ({ signal }) =>
        api.get<AdminCustomersResponse>('/_api/admin/customers', undefined, { signal }),
      select: (data) => data.customers,
    }),
};

/**
 * Approves or disapproves a shop. The sellers list refreshes (spec §7), and so does the public catalogue,
 * where the change takes effect at once.
 */
export function useSellerApprovalMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SellerApprovalInput) =>
      api.post<SellerApprovalResponse>('/_api/admin/seller/approve', input),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminQueries.sellers().queryKey });
      void queryClient.invalidateQueries({ queryKey: ['catalog'] });
    },
  });
}
