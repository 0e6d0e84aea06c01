import { queryOptions } from '@tanstack/react-query';
import type { SellerProfile } from '../../../../api/contract/sellers';
import { SELLER_MESSAGES } from '../../../../api/contract/sellers';
import { ApiError, api } from '../../lib/api-client';

/** Query factories of the home area. */
export const homeQueries = {
  /**
   * The signed-in seller's or admin's shop, or null when they have none: the spec treats 'Seller profile not
   * found.' as "no profile", not as an error.
   */
  sellerProfile: (userId: number) =>
    queryOptions({
      queryKey: ['home', 'seller-profile', userId] as const,
      queryFn: async ({ signal }): Promise<SellerProfile | null> => {
        try {
          const { profile } = await api.get<{ profile: SellerProfile }>('/_api/seller/profile', undefined, {
            signal,
          });
          return profile;
        } catch (err) {
          if (
            err instanceof ApiError &&
            (err.status === 404 || err.message === SELLER_MESSAGES.profileNotFound)
          )
            return null;
          throw err;
        }
      },
      meta: { silentErrors: true },
    }),
};
