import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { API_ROUTES } from '../../../api/contract/routes';
import { SHOP_CALL_STATE_POLL_MS, type ShopCallState } from '../../../api/contract/shop-call-state';
import { api } from './api-client';

const noSubscription = () => () => undefined;
const onClient = () => true;
const onServer = () => false;

/** The query key of a shop's live call state. */
export const liveCallStateKey = (sellerId: number) => ['shop-call-state', sellerId] as const;

/**
 * A shop's call state as it is now (issue #50): the page's answer (`rendered`) until the app has asked
 * `GET /_api/shop/call_state`, then that answer, asked again every SHOP_CALL_STATE_POLL_MS while the page is
 * shown (and when the tab comes back). So a storefront's or product page's Video Call button appears when the
 * jeweller opens the app and goes, with the reason, when it closes, without a reload. Shops that take no video
 * calls are not asked; the server's render and the first client render use `rendered`, so they agree.
 */
export function useLiveCallState(
  sellerId: number,
  rendered: ShopCallState | undefined,
  videoCallEnabled: boolean,
): ShopCallState | undefined {
  const live = useSyncExternalStore(noSubscription, onClient, onServer);
  const { data } = useQuery({
    queryKey: liveCallStateKey(sellerId),
    queryFn: ({ signal }) => api.call(API_ROUTES.shopCallState, { sellerId }, { signal }),
    enabled: live && videoCallEnabled && rendered !== undefined,
    refetchInterval: SHOP_CALL_STATE_POLL_MS,
    refetchOnWindowFocus: 'always',
    staleTime: 0,
    retry: false,
  });
  return data?.callState ?? rendered;
}
