import { Video } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../../../api/contract/catalog';
import { Button } from '../../../components/ui/button';
import { useCallButton } from './call-buttons';
import CallFallback from './call-fallback';

/**
 * The product dialog's call button: a video call with the shop about this very piece; when the shop cannot be
 * rung now, why not and "Request a call-back".
 */
export default function ProductDialogCallButton({ product }: { product: Product }) {
  const { t } = useTranslation();
  const { visible, pending, calling, onClick, dialog } = useCallButton(
    product.sellerId,
    product.shopName,
    product.videoCallEnabled,
    product.id,
    product.callState,
  );
  // A shop that cannot be rung now says why and offers a call-back instead (issue #40).
  if (!visible && !pending)
    return (
      <CallFallback
        sellerId={product.sellerId}
        shopName={product.shopName}
        videoCallEnabled={product.videoCallEnabled}
        callState={product.callState}
        productId={product.id}
        explain
      />
    );
  // A button, not a link: the dialog's actions load after the app has started, when the session is soon known.
  if (!visible || pending) return null;
  return (
    <>
      <Button
        size="lg"
        variant="outline"
        onClick={onClick}
        loading={calling}
        aria-disabled={calling || undefined}
      >
        {!calling && <Video aria-hidden="true" className="h-5 w-5" />}
        {calling ? t('calls.button.calling') : t('calls.button.askAbout')}
      </Button>
      {dialog}
    </>
  );
}
