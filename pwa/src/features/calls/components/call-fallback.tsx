import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PhoneIncoming } from 'lucide-react';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { canRing, type ShopCallState } from '../../../../../api/contract/shop-call-state';
import { useCallStateLabel } from '../../../components/call-state-badge';
import { Button } from '../../../components/ui/button';
import { api, errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { LocaleGate } from '../../../lib/locale-gate';
import { sessionQuery } from '../../../lib/session';
import { callQueries } from '../api';

export interface CallFallbackProps {
  sellerId: number;
  shopName: string;
  videoCallEnabled: boolean;
  callState?: ShopCallState;
  productId?: number;
  /** The product page says why there is no call button; the storefront's badge says it already. */
  explain?: boolean;
}

/**
 * No dead ends (issue #40): where a shop that takes video calls cannot be rung now (closed, away, or nobody's
 * app open and no push), the call button gives way to why ("Opens Sunday 10:00", in the shop's time zone) and
 * to "Request a call-back", beside "Book a video appointment" (book-appointment-entry.tsx). Customers request;
 * a visitor is sent to log in first.
 */
function Fallback({
  sellerId,
  shopName,
  productId,
  callState,
  explain,
}: CallFallbackProps & { callState: ShopCallState }) {
  const { t } = useTranslation();
  const { data: user } = useQuery(sessionQuery());
  const queryClient = useQueryClient();
  const label = useCallStateLabel(callState);
  const request = useMutation({
    mutationFn: () => api.call(API_ROUTES.callbackCreate, { sellerId, productId, window: 'now' }),
    onSuccess: (req) => {
      toast.success(t('calls.schedule.callback.requested', { shop: req.shop.shopName || shopName }));
      // With a request open, this app listens for the shop's call-back at once.
      void queryClient.invalidateQueries({ queryKey: callQueries.myCallbacks().queryKey });
    },
    onError: (err) => toast.error(translateMessage(errorMessage(err))),
  });
  const why =
    callState.state === 'unreachable'
      ? t('calls.appointments.noCall.unreachable')
      : callState.state === 'away' && callState.message
        ? label
        : `${label}.`;
  return (
    <div
      className={explain ? 'flex w-full flex-col gap-2' : 'flex flex-col gap-2'}
      data-testid="call-fallback"
      data-state={callState.state}
    >
      {explain && (
        <p className="text-sm text-ink" data-testid="no-call-reason">
          <span className="sr-only">{t('calls.appointments.noCall.title')}: </span>
          {why} {t('calls.appointments.noCall.hint')}
        </p>
      )}
      <Button
        variant="secondary"
        className="h-auto! min-h-10 whitespace-normal"
        loading={request.isPending}
        disabled={request.isSuccess}
        onClick={() => {
          if (user) request.mutate();
          else window.location.assign(`/login?redirect=${encodeURIComponent(window.location.pathname)}`);
        }}
      >
        {!request.isPending && <PhoneIncoming aria-hidden="true" className="h-4 w-4 shrink-0" />}
        {user ? t('calls.schedule.callback.request') : t('calls.appointments.noCall.signIn')}
      </Button>
    </div>
  );
}

/** The fallback when the shop takes video calls but cannot be rung now; nothing otherwise. */
export default function CallFallback(props: CallFallbackProps) {
  const { data: user, isPending } = useQuery(sessionQuery());
  const { callState } = props;
  if (!props.videoCallEnabled || !callState || canRing(callState) || callState.state === 'disabled')
    return null;
  // Customers and visitors only: a jeweller or an admin does not ask a shop to call back.
  if (isPending || (user && user.role !== 'customer')) return null;
  return (
    <Suspense fallback={null}>
      <LocaleGate areas={['callsAppointments']}>
        <Fallback {...props} callState={callState} />
      </LocaleGate>
    </Suspense>
  );
}
