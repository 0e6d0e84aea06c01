import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  ProductCreateInput,
  ProductMutationResponse,
  ProductUpdateInput,
} from '../../../../api/contract/products';
import type {
  SellerProfile,
  SellerProfileUpdateInput,
  SellerRegistrationInput,
} from '../../../../api/contract/sellers';
import { ApiError, REQUEST_FAILED, api } from '../../lib/api-client';
import { API_ROUTES } from '../../../../api/contract/routes';
import { fetchOwnShop, sessionQuery } from '../../lib/session';

/** Page sizes of the seller's own product lists (docs/product-rules.md §9). */
export const DASHBOARD_PRODUCTS_LIMIT = 100;
export const PRODUCTS_PAGE_LIMIT = 10;

/** Query factories of the sellers area (TkDodo): keys live beside their fetchers. */
export const sellerQueries = {
  all: () => ['sellers'] as const,
  /** The signed-in user's own shop profile, or null when there is none. */
  profile: () =>
    queryOptions({
      queryKey: [...sellerQueries.all(), 'profile'] as const,
      queryFn: ({ signal }) => fetchOwnShop(signal),
      meta: { silentErrors: true },
    }),
  /** The seller's own products, newest first (pending shops see theirs too). */
  products: (sellerId: number, page: number, limit: number) =>
    queryOptions({
      queryKey: [...sellerQueries.all(), 'products', { sellerId, page, limit }] as const,
      queryFn: ({ signal }) =>
        api.call(API_ROUTES.productsList, { sellerId, page, limit, sortBy: 'newest' }, { signal }),
    }),
  /** How many unfinished orders include a product: the delete dialog names them (issue #48). */
  openOrders: (productId: number) =>
    queryOptions({
      queryKey: [...sellerQueries.all(), 'products', 'open-orders', productId] as const,
      queryFn: ({ signal }) => api.call(API_ROUTES.productOpenOrders, { id: productId }, { signal }),
      staleTime: 0,
      meta: { silentErrors: true },
    }),
};

/** The session user carries the profile too (home tabs read it): both follow the server's answer. */
function setProfile(queryClient: QueryClient, profile: SellerProfile) {
  queryClient.setQueryData(sellerQueries.profile().queryKey, profile);
  void queryClient.invalidateQueries({ queryKey: sessionQuery().queryKey });
}

/**
 * Product lists anywhere (the seller's and the public catalogue's) show the change: the product rules ask that product
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
    mutationFn: (input: SellerRegistrationInput) => api.call(API_ROUTES.sellerProfileSetup, input),
    onSuccess: ({ profile }) => setProfile(queryClient, profile),
  });
}

/** The admin registration form (POST /_api/seller/register): only admins may use it. */
export function useRegisterSellerMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SellerRegistrationInput) => api.call(API_ROUTES.sellerRegister, input),
    onSuccess: ({ profile }) => setProfile(queryClient, profile),
  });
}

/** Saves changed shop profile fields (strict; blanks are omitted by the caller). */
export function useUpdateSellerProfileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Partial<SellerProfileUpdateInput>) => api.call(API_ROUTES.sellerProfileUpdate, input),
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
      postWithProgress<ProductMutationResponse>(API_ROUTES.productCreate.path, input, onProgress),
    onSuccess: () => refreshProducts(queryClient),
  });
}

/** Updates a product (only the fields sent); `onProgress` follows the upload of new images. */
export function useUpdateProductMutation(onProgress?: (fraction: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProductUpdateInput) =>
      postWithProgress<ProductMutationResponse>(API_ROUTES.productUpdate.path, input, onProgress),
    onSuccess: () => refreshProducts(queryClient),
  });
}

export function useDeleteProductMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(API_ROUTES.productDelete, { id }),
    onSuccess: () => refreshProducts(queryClient),
  });
}

/** Adds and changes products from a CSV file's text (contract/products-csv.ts). */
export function useImportProductsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (csv: string) => api.call(API_ROUTES.productsImport, { csv }),
    onSuccess: (result) => {
      if (result.created + result.updated > 0) refreshProducts(queryClient);
    },
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
