import { useTranslation } from 'react-i18next';
import type { ProductHold } from '../../../../../api/contract/call-selling';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { useDateLocale, whenOf } from './appointment-parts';

/**
 * Asked before a call ends while the customer holds a piece of it (issue #48): the hold outlives the call, and
 * the dialog says so and until when, to the side that is ending it.
 */
export function EndCallConfirm({
  holds,
  isSeller,
  name,
  onStay,
  onEnd,
}: {
  /** The active holds; the dialog is open while there are any. */
  holds: readonly ProductHold[] | null;
  isSeller: boolean;
  /** The other side's name (the customer's, for the jeweller). */
  name: string;
  onStay: () => void;
  onEnd: () => void;
}) {
  const { t } = useTranslation();
  const locale = useDateLocale();
  const list = holds ?? [];
  const names = list.map((h) => h.productName).join(', ');
  const until = list.length ? whenOf(list.map((h) => h.expiresAt).sort()[0]!, locale) : '';
  return (
    <Dialog open={list.length > 0} onOpenChange={(open) => !open && onStay()}>
      <DialogContent closeLabel={t('common.close')} role="alertdialog" data-testid="end-call-confirm">
        <DialogHeader>
          <DialogTitle>{t('sellerCare.endCallTitle')}</DialogTitle>
          <DialogDescription className="text-ink">
            {isSeller
              ? t('sellerCare.endCallHoldSeller', { name, names, until })
              : t('sellerCare.endCallHoldCustomer', { names, until })}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onStay}>
            {t('sellerCare.stayInCall')}
          </Button>
          <Button variant="destructive" onClick={onEnd}>
            {t('sellerCare.endCallConfirm')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
