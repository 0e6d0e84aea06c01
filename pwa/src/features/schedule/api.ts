import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { API_ROUTES } from '../../../../api/contract/routes';
import type { ShopHoursInput } from '../../../../api/contract/shop-hours';
import { api } from '../../lib/api-client';

/** Query factories of the schedule area (shop hours, call-back requests). */
export const scheduleQueries = {
  all: () => ['schedule'] as const,
  hours: () =>
    queryOptions({
      queryKey: [...scheduleQueries.all(), 'hours'] as const,
      queryFn: ({ signal }) => api.call(API_ROUTES.shopHours, undefined, { signal }),
    }),
};

/** Saves the shop's hours and away setting; the catalogue's call states follow. */
export function useSaveShopHours() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ShopHoursInput) => api.call(API_ROUTES.shopHoursSave, input),
    onSuccess: (answer) => {
      queryClient.setQueryData(scheduleQueries.hours().queryKey, answer);
      void queryClient.invalidateQueries({ queryKey: ['catalog'] });
    },
  });
}
