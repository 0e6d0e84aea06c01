import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { Product } from '../../../../../api/contract/catalog';
import { productPath } from '../../../../../api/contract/product-path';
import { backgroundLocation, overlayState, type OverlayState } from '../../../lib/background-location';
import { productQueries } from '../api';

const PARAM = 'product';

/** The product of an old `?product=<id>` link (now redirected to the product's own address). */
export function useOpenProductId(): number | null {
  const [params] = useSearchParams();
  const n = Number(params.get(PARAM));
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** The address of `location` without its `?product=`. */
export function withoutProductParam<L extends { search: string }>(location: L): L {
  const params = new URLSearchParams(location.search);
  params.delete(PARAM);
  const search = params.toString();
  return { ...location, search: search ? `?${search}` : '' };
}

/**
 * A product card's link: the product's own address, opened over the page it is on (lib/background-location.ts),
 * so the address bar names the product and Back closes its dialog. Following it seeds the cache, so the dialog
 * shows at once without a request.
 */
export function useProductLink(product: Product) {
  const queryClient = useQueryClient();
  const location = useLocation();
  return {
    to: productPath(product),
    state: overlayState(location),
    preventScrollReset: true,
    onClick: () => queryClient.setQueryData(productQueries.detail(product.id).queryKey, { product }),
  };
}

/** Closes the product shown over a page: back to that page. */
export function useProductDialog() {
  const navigate = useNavigate();
  const location = useLocation();

  const close = useCallback(() => {
    const background = backgroundLocation(location.state);
    if (!background) {
      navigate('/marketplace');
      return;
    }
    // Pushed over the page: go back to it. Put in the page's place (an old link redirected): show the page.
    if ((location.state as OverlayState).closeReplaces)
      navigate(background, { replace: true, preventScrollReset: true });
    else navigate(-1);
  }, [navigate, location.state]);

  return { close };
}
