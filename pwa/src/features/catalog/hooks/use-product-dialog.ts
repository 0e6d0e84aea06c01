import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { Product } from '../../../../../api/contract/catalog';
import { productQueries } from '../api';

const PARAM = 'product';

/** The product whose detail dialog is open: the `?product=<id>` deep link. */
export function useOpenProductId(): number | null {
  const [params] = useSearchParams();
  const n = Number(params.get(PARAM));
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/**
 * Opens and closes the product detail dialog through the URL, so a link to it can be shared and Back closes
 * it. Opening from a card seeds the cache, so the dialog shows at once without a request.
 */
export function useProductDialog() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();

  const open = useCallback(
    (product: Product) => {
      queryClient.setQueryData(productQueries.detail(product.id).queryKey, { product });
      const params = new URLSearchParams(location.search);
      params.set(PARAM, String(product.id));
      navigate(
        { pathname: location.pathname, search: `?${params.toString()}` },
        { state: { productDialog: true }, preventScrollReset: true },
      );
    },
    [queryClient, navigate, location.pathname, location.search],
  );

  const close = useCallback(() => {
    // Opened here: go back to where we were. Opened from a shared link: drop the parameter instead.
    if ((location.state as { productDialog?: boolean } | null)?.productDialog) {
      navigate(-1);
      return;
    }
    const params = new URLSearchParams(location.search);
    params.delete(PARAM);
    const search = params.toString();
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '' },
      { replace: true, preventScrollReset: true },
    );
  }, [navigate, location.pathname, location.search, location.state]);

  return { open, close };
}
