import { useQuery } from '@tanstack/react-query';
import { API_ROUTES } from '../../../api/contract/routes';
import { SHOP_CALL_STATE_POLL_MS, type ShopCallState } from '../../../api/contract/shop-call-state';
import { api } from './api-client';

/** Whether two call states say the same (every field is a string, null or absent). */
export function sameCallState(a: ShopCallState, b: ShopCallState): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => x[k] === y[k]);
}

/** The query key of a shop's live call state. */
export const liveCallStateKey = (sellerId: number) => ['shop-call-state', sellerId] as const;

/**
 * A shop's call state as it is now (issue #50): the page's answer (`rendered`) until the app has asked
 * `GET /_api/shop/call_state`, then that answer, asked again every SHOP_CALL_STATE_POLL_MS while the page is
 * shown (and when the tab comes back). So a storefront's or product page's Video Call button appears when the
 * jeweller opens the app and goes, with the reason, when it closes, without a reload. Shops that take no video
 * calls are not asked; the server's render and the first client render use `rendered`, so they agree.
 *
 * Nothing here makes the page render again while it hydrates: the query is enabled from the browser's first render
 * (the server's render leaves it off, so it is not one of the page's queries), and an answer that says what the page
 * already says returns `rendered` itself. A new value reaching a part of the page that React has not hydrated yet
 * would make React drop that part's server markup and render it anew, showing nothing while its lazy buttons load:
 * the product page's actions row, and all below it, would jump (docs/product-rules.md §20).
 */
export function useLiveCallState(
  sellerId: number,
  rendered: ShopCallState | undefined,
  videoCallEnabled: boolean,
): ShopCallState | undefined {
  const { data } = useQuery({
    queryKey: liveCallStateKey(sellerId),
    queryFn: ({ signal }) => api.call(API_ROUTES.shopCallState, { sellerId }, { signal }),
    enabled: typeof window !== 'undefined' && videoCallEnabled && rendered !== undefined,
    refetchInterval: SHOP_CALL_STATE_POLL_MS,
    refetchOnWindowFocus: 'always',
    staleTime: 0,
    retry: false,
  });
  const now = data?.callState;
  return now && (!rendered || !sameCallState(now, rendered)) ? now : rendered;
}
