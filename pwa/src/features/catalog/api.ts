import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ProductCategory, ProductMaterial, SortOption } from '../../../../api/contract/constants';
import { LIMITS } from '../../../../api/contract/constants';
import { api } from '../../lib/api-client';
import { API_ROUTES } from '../../../../api/contract/routes';

/** Filters of a product listing as the API takes them (undefined values are not sent). */
export interface ProductListFilters {
  page: number;
  limit: number;
  query?: string;
  category?: ProductCategory;
  material?: ProductMaterial;
  minPrice?: number;
  maxPrice?: number;
  sortBy?: SortOption;
  sellerId?: number;
}

/** Filters of the jeweller directory. */
export interface SellerListFilters {
  page: number;
  limit: number;
  searchQuery?: string;
  city?: string;
  state?: string;
}

/** docs/product-rules.md §8: suggestions are cached five minutes. */
export const SUGGESTIONS_CACHE_MS = LIMITS.suggestionCacheMs;

/** Query factories of the catalogue (TkDodo): keys live beside their fetchers. */
export const productQueries = {
  all: () => ['catalog', 'products'] as const,
  /** A page of products; the previous page stays on screen while the next loads, so paging never flashes. */
  list: (filters: ProductListFilters) =>
    queryOptions({
      queryKey: [...productQueries.all(), 'list', filters] as const,
      queryFn: ({ signal }) => api.call(API_ROUTES.productsList, { ...filters }, { signal }),
      placeholderData: keepPreviousData,
      meta: { silentErrors: true },
    }),
  /** One public product (the ?product= deep link). */
  detail: (id: number) =>
    queryOptions({
      queryKey: [...productQueries.all(), 'detail', id] as const,
      queryFn: ({ signal }) => api.call(API_ROUTES.productsGet, { id }, { signal }),
      select: (data) => data.product,
    }),
  /** Search box suggestions: fetched only for more than one character, kept five minutes. */
  suggestions: (query: string) =>
    queryOptions({
      queryKey: ['catalog', 'suggestions', query] as const,
      queryFn: ({ signal }) => api.call(API_ROUTES.suggestions, { query }, { signal }),
      enabled: query.trim().length > 1,
      staleTime: SUGGESTIONS_CACHE_MS,
      gcTime: SUGGESTIONS_CACHE_MS,
      placeholderData: keepPreviousData,
      meta: { silentErrors: true },
    }),
};

/** Query factories of the directory, top sellers, storefronts and landing stats. */
export const sellerQueries = {
  all: () => ['catalog', 'sellers'] as const,
  list: (filters: SellerListFilters) =>
    queryOptions({
      queryKey: [...sellerQueries.all(), 'list', filters] as const,
      queryFn: ({ signal }) => api.call(API_ROUTES.sellersList, { ...filters }, { signal }),
      placeholderData: keepPreviousData,
      meta: { silentErrors: true },
    }),
  top: (limit: number = LIMITS.topSellers) =>
    queryOptions({
      queryKey: [...sellerQueries.all(), 'top', limit] as const,
      queryFn: ({ signal }) => api.call(API_ROUTES.sellersTop, { limit }, { signal }),
      select: (data) => data.sellers,
      meta: { silentErrors: true },
    }),
  /** A storefront by its URL slug, or by seller id for shops without a slug (/sellers/{id}). */
  store: (key: { slug: string } | { sellerId: number }, page: number) =>
    queryOptions({
      queryKey: [...sellerQueries.all(), 'store', key, page] as const,
      queryFn: ({ signal }) =>
        'slug' in key
          ? api.call(API_ROUTES.store, { slug: key.slug, page, limit: LIMITS.storefrontPageSize }, { signal })
          : api.call(
              API_ROUTES.storeById,
              { sellerId: key.sellerId, page, limit: LIMITS.storefrontPageSize },
              { signal },
            ),
      placeholderData: keepPreviousData,
      // An unknown store is an answer ('Store Not Found'), not something to retry.
      retry: (count, err) => count < 1 && (err as { status?: number }).status !== 404,
      meta: { silentErrors: true },
    }),
  stats: () =>
    queryOptions({
      queryKey: ['catalog', 'stats'] as const,
      queryFn: ({ signal }) => api.call(API_ROUTES.catalogStats, undefined, { signal }),
      staleTime: 5 * 60_000,
      meta: { silentErrors: true },
    }),
};
