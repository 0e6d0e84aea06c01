import { Video } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../../../api/contract/catalog';
import { Button } from '../../../components/ui/button';
import { useCallButton } from './call-buttons';

/** The product dialog's call button: a video call with the shop about this very piece. */
export default function ProductDialogCallButton({ product }: { product: Product }) {
  const { t } = useTranslation();
  const { visible, pending, calling, onClick, dialog } = useCallButton(
    product.sellerId,
    product.shopName,
    product.videoCallEnabled,
    product.id,
    product.callState,
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
