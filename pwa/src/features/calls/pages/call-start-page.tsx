import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams, useSearchParams } from 'react-router-dom';
import { canRing } from '../../../../../api/contract/shop-call-state';
import { Spinner } from '../../../components/ui/spinner';
import { requestCall } from '../../../lib/call-store';
import { storePath } from '../../../lib/store-path';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { sellerQueries } from '../../catalog/public';

const positiveId = (value: string | null | undefined) => {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/**
 * /call/:sellerId[?product=id] (customers; a visitor logs in first and comes back here): where a call button
 * tapped before the app had started leads (issue #23, no dead zone before hydration). Once the app runs, it
 * starts the call and shows the shop's storefront under the calling screen; a shop that cannot be rung now
 * shows its storefront, where it offers a call-back or an appointment instead.
 */
export default function CallStartPage() {
  const { t } = useTranslation();
  const sellerId = positiveId(useParams().sellerId);
  const productId = positiveId(useSearchParams()[0].get('product'));
  const store = useQuery({ ...sellerQueries.store({ sellerId: sellerId ?? 0 }, 1), enabled: !!sellerId });
  const started = useRef(false);
  const profile = store.data?.sellerProfile;
  const ringable =
    !!profile && profile.videoCallEnabled && (!profile.callState || canRing(profile.callState));
  useDocumentTitle(t('calls.button.calling'));

  useEffect(() => {
    if (!profile || !ringable || started.current || !sellerId) return;
    started.current = true;
    requestCall(sellerId, profile.shopName, productId);
  }, [profile, ringable, sellerId, productId]);

  if (!sellerId || store.isError) return <Navigate to="/sellers" replace />;
  if (profile) return <Navigate to={storePath(profile)} replace />;
  return (
    <div role="status" className="flex min-h-[50vh] items-center justify-center gap-3 text-muted">
      <Spinner className="h-5 w-5" />
      {t('calls.button.calling')}
    </div>
  );
}
