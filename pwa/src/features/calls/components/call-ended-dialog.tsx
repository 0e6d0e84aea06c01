import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { api, errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { Link } from 'react-router-dom';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { requestCall, useCallState } from '../../../lib/call-store';
import { callQueries } from '../api';
import { useCall } from './call-provider';
import { CallSummary } from './call-summary';

// The slot picker loads when the customer asks for it (issue #22).
const SlotPickerDialog = lazy(() =>
  import('./slot-picker-dialog').then((m) => ({ default: m.SlotPickerDialog })),
);

/**
 * After a call: its summary, or, for a call that did not happen, why and what the customer can do next
 * (try again, browse the shop; after a declined, missed or busy call: request a call-back, or book a video
 * appointment, which opens the slot picker once this dialog has closed). A call the server refused because the
 * shop cannot be rung now (closed, away, nobody's app open) says why and offers those two, not "Try again".
 */
export function CallEndedDialog() {
  const { t } = useTranslation();
  const ended = useCallState((s) => s.ended);
  const { dismissEnded, user } = useCall();
  const queryClient = useQueryClient();
  // One tap after a declined or missed call: the shop is asked to call back (issue #22).
  const callback = useMutation({
    mutationFn: (input: { sellerId: number; productId?: number; fromCallId?: number }) =>
      api.call(API_ROUTES.callbackCreate, { ...input, window: 'now' }),
    onSuccess: (req) => {
      toast.success(t('calls.schedule.callback.requested', { shop: req.shop.shopName }));
      // With a request open, this app listens for the shop's call-back at once.
      void queryClient.invalidateQueries({ queryKey: callQueries.myCallbacks().queryKey });
      dismissEnded();
    },
    onError: (err) => toast.error(translateMessage(errorMessage(err))),
  });
  const [booking, setBooking] = useState<{ sellerId: number; shopName: string; productId?: number } | null>(
    null,
  );
  const picker = booking && (
    <Suspense fallback={null}>
      <SlotPickerDialog
        sellerId={booking.sellerId}
        shopName={booking.shopName}
        productId={booking.productId}
        open
        onOpenChange={(open) => !open && setBooking(null)}
      />
    </Suspense>
  );
  if (!ended) return picker;
  const shop = ended.participantName;
  const outcomeText =
    ended.outcome === 'declined'
      ? t('calls.outcome.declined', { shop })
      : ended.outcome === 'missed'
        ? t('calls.outcome.missed', { shop })
        : ended.outcome === 'busy'
          ? t('calls.outcome.busy', { shop })
          : ended.outcome === 'unreachable'
            ? (ended.reason ?? t('calls.outcome.unreachable', { shop }))
            : ended.outcome === 'connection_lost'
              ? t('calls.outcome.connectionLost')
              : null;
  const canRetry = !ended.isIncoming && ended.sellerId !== null && ended.outcome !== 'summary';
  // What to do when the shop did not answer, or cannot be rung now: a call-back or an appointment.
  const offerInstead =
    ended.outcome === 'declined' ||
    ended.outcome === 'missed' ||
    ended.outcome === 'busy' ||
    ended.outcome === 'unreachable';
  return (
    <Dialog open onOpenChange={(open) => !open && dismissEnded()}>
      <DialogContent closeLabel={t('common.close')} data-testid="call-ended" data-outcome={ended.outcome}>
        <DialogTitle className="pr-8 text-lg font-semibold text-ink">
          {outcomeText ? t('calls.outcome.title') : t('calls.summary.title', { name: shop })}
        </DialogTitle>
        <DialogDescription className={outcomeText ? 'mt-2 text-ink' : 'sr-only'}>
          {outcomeText ?? t('calls.summary.description')}
        </DialogDescription>
        {canRetry && (
          <div className="mt-4 grid gap-2 sm:grid-cols-2">
            {ended.outcome !== 'unreachable' && (
              <Button
                onClick={() => {
                  dismissEnded();
                  requestCall(ended.sellerId!, shop, ended.productId ?? undefined);
                }}
              >
                {t('calls.outcome.tryAgain')}
              </Button>
            )}
            <Link
              to={`/sellers/${ended.sellerId}`}
              onClick={() => dismissEnded()}
              className={buttonClasses('outline')}
            >
              {t('calls.outcome.browseShop')}
            </Link>
            {offerInstead && (
              <Button
                variant="secondary"
                className="sm:col-span-2"
                loading={callback.isPending}
                onClick={() =>
                  callback.mutate({
                    sellerId: ended.sellerId!,
                    productId: ended.productId ?? undefined,
                    fromCallId: ended.callId ?? undefined,
                  })
                }
              >
                {t('calls.schedule.callback.request')}
              </Button>
            )}
            {offerInstead && (
              <Button
                variant="outline"
                className="sm:col-span-2"
                onClick={() => {
                  setBooking({
                    sellerId: ended.sellerId!,
                    shopName: shop,
                    productId: ended.productId ?? undefined,
                  });
                  dismissEnded();
                }}
              >
                {t('calls.appointments.book')}
              </Button>
            )}
          </div>
        )}
        {ended.callId !== null && (ended.outcome === 'summary' || ended.outcome === 'connection_lost') && (
          <div className="mt-4">
            <CallSummary callId={ended.callId} userId={user.id} />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
