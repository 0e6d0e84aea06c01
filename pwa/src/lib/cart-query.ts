import { queryOptions } from '@tanstack/react-query';
import { API_ROUTES } from '../../../api/contract/routes';
import { api } from './api-client';

/**
 * The signed-in customer's cart query, defined once for the cart area (header badge, side panel) and the
 * checkout page, which read one cache entry. It lives here because features do not import each other.
 */
export const cartKey = ['cart'] as const;

/** The cart: lines with availability, total of available lines, total quantity. */
export const cartListQuery = () =>
  queryOptions({
    queryKey: [...cartKey, 'list'] as const,
    queryFn: ({ signal }) => api.call(API_ROUTES.cartList, undefined, { signal }),
  });
