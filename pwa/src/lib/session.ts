import { queryOptions } from '@tanstack/react-query';
import { API_ROUTES } from '../../../api/contract/routes';
import type { SellerProfile } from '../../../api/contract/sellers';
import { ApiError, api } from './api-client';

/** The key of the session query; the accounts area keeps it up to date on login, logout and profile edits. */
export const SESSION_KEY = ['accounts', 'session'] as const;

/**
 * The signed-in user, or null for a visitor: the one way any area reads who is signed in
 * (`useQuery(sessionQuery())`). Kept indefinitely.
 */
export const sessionQuery = () =>
  queryOptions({
    queryKey: SESSION_KEY,
    queryFn: ({ signal }) => api.call(API_ROUTES.session, undefined, { signal }),
    select: (data) => data.user,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: 1,
    meta: { silentErrors: true },
  });

/**
 * The signed-in seller's or admin's own shop, or null when they have none: 'Seller profile not found.' means
 * "no shop", not an error (docs/product-rules.md §6). For the query functions of the areas that show it.
 */
export async function fetchOwnShop(signal?: AbortSignal): Promise<SellerProfile | null> {
  try {
    return (await api.call(API_ROUTES.sellerProfile, undefined, { signal })).profile;
  } catch (err) {
    // The server answers 'Seller profile not found.' with 404 (code seller_profile_not_found). No runtime import
    // of the sellers contract here: this module is in the first load, and that one carries zod.
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
