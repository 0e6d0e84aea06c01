import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  CANCEL_NOTE_MAX,
  CANCEL_REASONS,
  isOnlinePayment,
  type CancelReason,
} from '../../../../../api/contract/constants';
import type { Order } from '../../../../../api/contract/orders';
import { Button, buttonClasses } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { errorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { formatPrice } from '../../../lib/format';
import { translateMessage } from '../../../lib/i18n';
import { useUpdateOrderStatusMutation } from '../api';

/**
 * Cancelling an order, after asking (issue #48): the dialog names what happens (the refund of a paid order, in
 * rupees and paise, and where it goes) and takes the reason the customer is told. Kept apart from the forward
 * moves, in a destructive style.
 */
export function CancelOrderDialog({ order }: { order: Order }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<CancelReason | null>(null);
  const [note, setNote] = useState('');
  const update = useUpdateOrderStatusMutation();
  const noteId = useId();
  const legendId = useId();
  const refunds = order.paymentStatus === 'paid' && isOnlinePayment(order.paymentMethod);
  const amount = formatPrice(order.totalAmount);
  const ready = reason !== null && (reason !== 'other' || note.trim() !== '');

  const close = () => {
    setOpen(false);
    setReason(null);
    setNote('');
  };
  const onOpenChange = (next: boolean) => {
    if (update.isPending) return;
    if (next) setOpen(true);
    else close();
  };
  const confirm = () => {
    if (!reason) return;
    update.mutate(
      {
        orderId: order.id,
        status: 'cancelled',
        cancelReason: reason,
        ...(reason === 'other' ? { cancelNote: note.trim() } : {}),
      },
      {
        onSuccess: () => {
          toast.success(t('orders.statusUpdated', { status: t('orders.status.cancelled') }));
          close();
        },
        onError: (err) => toast.error(translateMessage(errorMessage(err))),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger
        className={cn(buttonClasses('outline', 'sm'), 'border-red-300 text-red-700 hover:bg-red-50')}
      >
        {t('sellerCare.cancelOrder')}
        <span className="sr-only"> {t('orders.orderNumber', { id: order.id })}</span>
      </DialogTrigger>
      <DialogContent closeLabel={t('common.close')} role="alertdialog" data-testid="cancel-order-dialog">
        <DialogHeader>
          <DialogTitle>{t('sellerCare.cancelTitle', { id: order.id })}</DialogTitle>
          <DialogDescription>
            {t('sellerCare.cancelWarning', { name: order.customer.name || order.customer.displayName })}
          </DialogDescription>
        </DialogHeader>
        {refunds && (
          <p
            className="mb-4 rounded-md bg-amber-50 p-3 text-sm font-semibold text-amber-950"
            data-testid="refund-line"
          >
            {t('sellerCare.refundLine', {
              amount,
              method: t(`sellerCare.refundTo.${order.paymentMethod as 'upi' | 'card' | 'netbanking'}`),
            })}
          </p>
        )}
        <fieldset aria-labelledby={legendId} className="space-y-1">
          <legend id={legendId} className="mb-2 text-sm font-semibold text-ink">
            {t('sellerCare.reasonLegend')}
          </legend>
          {CANCEL_REASONS.map((r) => (
            <label
              key={r}
              className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md px-2 text-sm text-ink hover:bg-stone-50"
            >
              <input
                type="radio"
                name={`cancel-reason-${order.id}`}
                value={r}
                checked={reason === r}
                onChange={() => setReason(r)}
                className="h-5 w-5 accent-brand-700"
              />
              {t(`sellerCare.reasons.${r}`)}
            </label>
          ))}
        </fieldset>
        {reason === 'other' && (
          <div className="mt-3 space-y-1">
            <label htmlFor={noteId} className="text-sm font-semibold text-ink">
              {t('sellerCare.noteLabel')}
            </label>
            <textarea
              id={noteId}
              value={note}
              maxLength={CANCEL_NOTE_MAX}
              required
              rows={2}
              onChange={(e) => setNote(e.target.value)}
              className="w-full rounded-md border border-stone-300 px-3 py-2 text-sm text-ink focus-visible:outline-2 focus-visible:outline-brand-600"
            />
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" disabled={update.isPending} onClick={() => onOpenChange(false)}>
            {t('sellerCare.keepOrder')}
          </Button>
          <Button variant="destructive" disabled={!ready} loading={update.isPending} onClick={confirm}>
            {update.isPending
              ? t('sellerCare.cancelling')
              : refunds
                ? t('sellerCare.confirmRefund', { amount })
                : t('sellerCare.confirmCancel')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
