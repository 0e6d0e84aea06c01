import { queryOptions } from '@tanstack/react-query';
import { fetchOwnShop } from '../../lib/session';

/** Query factories of the home area. */
export const homeQueries = {
  /** The signed-in seller's or admin's shop, or null when they have none. */
  sellerProfile: (userId: number) =>
    queryOptions({
      queryKey: ['home', 'seller-profile', userId] as const,
      queryFn: ({ signal }) => fetchOwnShop(signal),
      meta: { silentErrors: true },
    }),
};
