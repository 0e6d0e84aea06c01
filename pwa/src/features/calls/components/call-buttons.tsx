import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Video } from 'lucide-react';
import { lazy, Suspense, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Product, StoreProfile } from '../../../../../api/contract/catalog';
import { buttonClasses } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { pressOnSpace } from '../../../lib/link-button';
import { isOnline } from '../../../lib/online';
import { sessionQuery } from '../../../lib/session';
import { requestCall, useCallState, useQueuedCallSellerId } from '../../../lib/call-store';
import { canRing, type ShopCallState } from '../../../../../api/contract/shop-call-state';

const LoginToCallDialog = lazy(() => import('./login-to-call-dialog'));

/**
 * Who sees a call button (docs/product-rules.md §1, §2): customers, and visitors (who are asked to log in first), only for
 * sellers with video calls enabled. Sellers and admins see none.
 */
export function useCallButton(
  sellerId: number,
  sellerName: string,
  videoCallEnabled: boolean,
  productId?: number,
  callState?: ShopCallState,
) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: user, isPending } = useQuery(sessionQuery());
  const initiatingSellerId = useCallState((s) => s.initiatingSellerId);
  const queuedSellerId = useQueuedCallSellerId();
  const [loginOpen, setLoginOpen] = useState(false);
  // A tap while the app is still asking who is signed in: answered (calling, or the login) once it knows.
  const [tappedEarly, setTappedEarly] = useState(false);
  // Only a shop that may be rung now gets a call button (issue #22: closed and away shops refuse calls).
  const ringable = !callState || canRing(callState);
  // While the session is not known yet (the server's page, and until the app has asked) the button shows as a
  // link to the page that starts the call, so a tap before the app has started is not lost (issue #23).
  const visible = videoCallEnabled && ringable && (isPending || !user || user.role === 'customer');
  // 'Calling…' from the tap (issue #50), whatever the call waits for: the session, the call layer's code, the
  // initiate request.
  const calling = initiatingSellerId === sellerId || queuedSellerId === sellerId || tappedEarly;
  const href = callStartPath(sellerId, productId);
  const onClick = (e: MouseEvent) => {
    // Before the app runs the link goes to the call page (a tap before hydration); from then on every tap is
    // answered here, at once.
    e.preventDefault();
    if (calling) return;
    // Offline: say that a call needs a connection, never a login form (docs/product-rules.md §20.6).
    if (!isOnline()) {
      void import('sonner').then(({ toast }) => toast.error(t('offline.callNeedsNetwork')));
      return;
    }
    const answer = (who: typeof user) => {
      if (!who) setLoginOpen(true);
      else if (who.role === 'customer') requestCall(sellerId, sellerName, productId);
    };
    if (!isPending) return answer(user);
    setTappedEarly(true);
    void queryClient
      .fetchQuery(sessionQuery())
      .then(
        (s) => answer(s.user),
        () => answer(null),
      )
      .finally(() => setTappedEarly(false));
  };
  const dialog = loginOpen && (
    <Suspense fallback={null}>
      <LoginToCallDialog
        open={loginOpen}
        onOpenChange={setLoginOpen}
        onCustomerLogin={() => requestCall(sellerId, sellerName, productId)}
      />
    </Suspense>
  );
  return { visible, pending: isPending, calling, onClick, href, dialog, onKeyDown: pressOnSpace };
}

/** The page that starts a call once the app runs (pages/call-start-page.tsx): the call buttons' link. */
export function callStartPath(sellerId: number, productId?: number): string {
  return `/call/${sellerId}${productId ? `?product=${productId}` : ''}`;
}

/** The storefront's 'Video Call' button ('Calling...' while the initiation is pending). */
export function StorefrontVideoCallButton({ store }: { store: StoreProfile }) {
  const { t } = useTranslation();
  const { visible, calling, onClick, onKeyDown, href, dialog } = useCallButton(
    store.sellerId,
    store.shopName,
    store.videoCallEnabled,
    undefined,
    store.callState,
  );
  if (!visible) return null;
  return (
    <>
      <a
        href={href}
        role="button"
        onClick={onClick}
        onKeyDown={onKeyDown}
        aria-disabled={calling || undefined}
        aria-busy={calling || undefined}
        className={buttonClasses()}
      >
        {calling ? <Spinner className="h-4 w-4" /> : <Video aria-hidden="true" className="h-4 w-4" />}
        {calling ? t('calls.button.calling') : t('calls.button.videoCall')}
      </a>
      {dialog}
    </>
  );
}

/** The product card's camera button: a video call with the product's seller. */
export function ProductCardCallButton({ product }: { product: Product }) {
  const { t } = useTranslation();
  const { visible, calling, onClick, onKeyDown, href, dialog } = useCallButton(
    product.sellerId,
    product.shopName,
    product.videoCallEnabled,
    product.id,
    product.callState,
  );
  if (!visible) return null;
  const label = calling ? t('calls.button.calling') : t('calls.button.callShop', { shop: product.shopName });
  return (
    <>
      <a
        href={href}
        role="button"
        onKeyDown={onKeyDown}
        onClick={(e) => {
          // The card's image opens the product; the camera must not.
          e.stopPropagation();
          onClick(e);
        }}
        aria-label={label}
        title={label}
        aria-busy={calling || undefined}
        className={cn(
          'inline-flex h-9 w-9 items-center justify-center rounded-full bg-white/95 text-brand-700 shadow-md transition-colors hover:bg-brand-50',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600',
          calling && 'animate-pulse',
        )}
      >
        <Video aria-hidden="true" className="h-5 w-5" />
      </a>
      {dialog}
    </>
  );
}
