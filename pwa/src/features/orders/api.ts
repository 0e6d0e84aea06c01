import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { LIMITS, type OrderStatus } from '../../../../api/contract/constants';
import type { CancelReason, CustomerOrderFilter, RateProductInput } from '../../../../api/contract/orders';
import { api } from '../../lib/api-client';
import { API_ROUTES } from '../../../../api/contract/routes';

export interface OrderListFilters<S extends string> {
  page: number;
  /** undefined means all: the filter is sent only when it is not all (docs/product-rules.md §5). */
  status?: S;
}

/** Query factories of the orders area (TkDodo): keys live beside their fetchers. */
export const orderQueries = {
  all: () => ['orders'] as const,
  /** The customer's orders, 20 per page (docs/product-rules.md §9). */
  customerList: (filters: OrderListFilters<CustomerOrderFilter>) =>
    queryOptions({
      queryKey: [...orderQueries.all(), 'customer', filters] as const,
      queryFn: ({ signal }) =>
        api.call(
          API_ROUTES.customerOrders,
          { page: filters.page, pageSize: LIMITS.customerOrdersPageSize, status: filters.status },
          { signal },
        ),
      placeholderData: keepPreviousData,
      meta: { silentErrors: true },
    }),
  /** The seller's shop orders, 10 per page (docs/product-rules.md §9). */
  sellerList: (filters: OrderListFilters<OrderStatus>) =>
    queryOptions({
      queryKey: [...orderQueries.all(), 'seller', filters] as const,
      queryFn: ({ signal }) =>
        api.call(
          API_ROUTES.sellerOrders,
          { page: filters.page, pageSize: LIMITS.sellerOrdersPageSize, status: filters.status },
          { signal },
        ),
      placeholderData: keepPreviousData,
      meta: { silentErrors: true },
    }),
  /** One order with what its invoice needs. */
  details: (orderId: number) =>
    queryOptions({
      queryKey: [...orderQueries.all(), 'details', orderId] as const,
      queryFn: ({ signal }) =>
        api.call(API_ROUTES.orderDetails, { orderId }, { signal }).then((r) => r.order),
      meta: { silentErrors: true },
      retry: (count, err) => count < 1 && (err as { status?: number }).status !== 404,
    }),
};

/**
 * Moves an order along an allowed edge (the seller of that order only); lists and details refresh. A
 * cancellation carries its reason (issue #48).
 */
export function useUpdateOrderStatusMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: {
      orderId: number;
      status: OrderStatus;
      cancelReason?: CancelReason;
      cancelNote?: string;
    }) => api.call(API_ROUTES.orderStatusUpdate, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderQueries.all() }),
  });
}

/** Rates one product of a delivered order, once; the order refreshes to show the rating. */
export function useRateProductMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RateProductInput) => api.call(API_ROUTES.rateProduct, input),
    onSuccess: (_data, input) =>
      queryClient.invalidateQueries({ queryKey: orderQueries.details(input.orderId).queryKey }),
  });
}
