import { useTranslation } from 'react-i18next';
import type { Order } from '../../../../../api/contract/orders';

/** Why the shop cancelled the order (issue #48): a listed reason in the reader's language, or the shop's words. */
export function CancelReasonLine({ order }: { order: Order }) {
  const { t } = useTranslation();
  const c = order.cancellation;
  if (!c) return null;
  const reason = c.reason === 'other' && c.note ? c.note : t(`sellerCare.reasons.${c.reason}`);
  return (
    <p className="break-words text-ink" data-testid="cancel-reason">
      {t('sellerCare.cancelledBecause', { reason })}
    </p>
  );
}
