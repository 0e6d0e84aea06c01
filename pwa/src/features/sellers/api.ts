import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ProductListResponse } from '../../../../api/contract/catalog';
import type {
  ProductCreateInput,
  ProductDeleteResponse,
  ProductMutationResponse,
  ProductUpdateInput,
} from '../../../../api/contract/products';
import type {
  SellerProfile,
  SellerProfileCreatedResponse,
  SellerProfileResponse,
  SellerProfileUpdateInput,
  SellerRegistrationInput,
} from '../../../../api/contract/sellers';
import { ApiError, REQUEST_FAILED, api } from '../../lib/api-client';
import { sessionQuery } from '../accounts/api';

/** Page sizes of the seller's own product lists (spec §9). */
export const DASHBOARD_PRODUCTS_LIMIT = 100;
export const PRODUCTS_PAGE_LIMIT = 10;

/** Query factories of the sellers area (TkDodo): keys live beside their fetchers. */
export const sellerQueries = {
  all: () => ['sellers'] as const,
  /**
   * The signed-in user's own shop profile, or null when there is none: the spec treats 'Seller profile not
   * found.' as "no profile", not as an error.
   */
  profile: () =>
    queryOptions({
      queryKey: [...sellerQueries.all(), 'profile'] as const,
      queryFn: async ({ signal }): Promise<SellerProfile | null> => {
        try {
          const { profile } = await api.get<SellerProfileResponse>('/_api/seller/profile', undefined, {
            signal,
          });
          return profile;
        } catch (err) {
          if (err instanceof ApiError && err.status === 404) return null;
          throw err;
        }
      },
      meta: { silentErrors: true },
    }),
  /** The seller's own products, newest first (pending shops see theirs too). */
  products: (sellerId: number, page: number, limit: number) =>
    queryOptions({
      queryKey: [...sellerQueries.all(), 'products', { sellerId, page, limit }] as const,
      queryFn: ({ signal }) =>
        api.get<ProductListResponse>(
          '/_api/products/list',
          { sellerId, page, limit, sortBy: 'newest' },
          { signal },
        ),
    }),
};

/** The session user carries the profile too (home tabs read it): both follow the server's answer. */
function setProfile(queryClient: QueryClient, profile: SellerProfile) {
  queryClient.setQueryData(sellerQueries.profile().queryKey, profile);
  void queryClient.invalidateQueries({ queryKey: sessionQuery().queryKey });
}

/**
 * Product lists anywhere (the seller's and the public catalogue's) show the change: the spec asks that product
 * queries refresh after changes.
 */
function refreshProducts(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: [...sellerQueries.all(), 'products'] });
  void queryClient.invalidateQueries({ queryKey: ['catalog'] });
}

/** A new seller's shop (POST /_api/seller/profile/setup); it starts pending approval. */
export function useSetupProfileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SellerRegistrationInput) =>
      api.post<SellerProfileCreatedResponse>('/_api/seller/profile/setup', input),
    onSuccess: ({ profile }) => setProfile(queryClient, profile),
  });
}

/** The admin registration form (POST /_api/seller/register): only admins may use it. */
export function useRegisterSellerMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SellerRegistrationInput) =>
      api.post<SellerProfileCreatedResponse>('/_api/seller/register', input),
    onSuccess: ({ profile }) => setProfile(queryClient, profile),
  });
}

/** Saves changed shop profile fields (strict; blanks are omitted by the caller). */
export function useUpdateSellerProfileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Partial<SellerProfileUpdateInput>) =>
      api.post<SellerProfileResponse>('/_api/seller/profile/update', input),
    onSuccess: ({ profile }) => {
      setProfile(queryClient, profile);
      // The store URL and video flag show on the seller's products and the public pages.
      refreshProducts(queryClient);
    },
  });
}

/** Creates a product; `onProgress` follows the upload of its images. */
export function useCreateProductMutation(onProgress?: (fraction: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProductCreateInput) =>
      postWithProgress<ProductMutationResponse>('/_api/products/create', input, onProgress),
    onSuccess: () => refreshProducts(queryClient),
  });
}

/** Updates a product (only the fields sent); `onProgress` follows the upload of new images. */
export function useUpdateProductMutation(onProgress?: (fraction: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProductUpdateInput) =>
      postWithProgress<ProductMutationResponse>('/_api/products/update', input, onProgress),
    onSuccess: () => refreshProducts(queryClient),
  });
}

export function useDeleteProductMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<ProductDeleteResponse>('/_api/products/delete', { id }),
    onSuccess: () => refreshProducts(queryClient),
  });
}

/**
 * POSTs JSON with upload progress (images travel as data URIs, which can take a while on a phone). Failures
 * are ApiErrors with the body's message, like the shared client's.
 */
export function postWithProgress<T>(path: string, body: unknown, onProgress?: (fraction: number) => void) {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', 'application/json');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && onProgress) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError(REQUEST_FAILED, 0, 'network_error'));
    xhr.onload = () => {
      let parsed: unknown;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        parsed = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(parsed as T);
      const b = (parsed ?? {}) as { error?: unknown; code?: unknown; issues?: unknown };
      reject(
        new ApiError(
          typeof b.error === 'string' && b.error.trim() ? b.error : REQUEST_FAILED,
          xhr.status,
          typeof b.code === 'string' ? b.code : undefined,
          Array.isArray(b.issues) ? (b.issues as ApiError['issues']) : undefined,
        ),
      );
    };
    xhr.send(JSON.stringify(body));
  });
}
