import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Hand, PhoneCall, PhoneMissed } from 'lucide-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { CallbackRequest } from '../../../../../api/contract/callbacks';
import type { CallStateEvent, ShopEvent } from '../../../../../api/contract/events';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { requestCallBack, useCallState } from '../../../lib/call-store';
import { useStreamEvent } from '../../../lib/event-stream';
import { callQueries, sellingQueries } from '../api';
import { TIME_OF_DAY } from '../../../../../api/contract/time-format';

const time = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, TIME_OF_DAY).format(new Date(iso));

/** The preferred window of a request, in the viewer's language and time zone. */
export function CallbackWindowText({ request }: { request: CallbackRequest }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === 'ta' ? 'ta-IN' : 'en-IN';
  if (request.window === 'at' && request.preferredAt)
    return (
      <>
        {t('calls.schedule.window.at', {
          time: new Intl.DateTimeFormat(locale, { weekday: 'long', ...TIME_OF_DAY }).format(
            new Date(request.preferredAt),
          ),
        })}
      </>
    );
  return <>{t(request.window === 'now' ? 'calls.schedule.window.now' : 'calls.schedule.window.today')}</>;
}

/**
 * The open dashboard follows the jeweller's event stream (issue #48): a call missed or declined refreshes the
 * missed calls, a call-back request the queue, a hold the pieces on hold, without a reload.
 */
function useLiveQueue() {
  const queryClient = useQueryClient();
  useStreamEvent(
    'call',
    useCallback(
      (e: CallStateEvent) => {
        if (e.status === 'missed' || e.status === 'declined')
          void queryClient.invalidateQueries({ queryKey: callQueries.history().queryKey });
      },
      [queryClient],
    ),
  );
  useStreamEvent(
    'shop',
    useCallback(
      (e: ShopEvent) => {
        if (e.what === 'callback')
          void queryClient.invalidateQueries({ queryKey: callQueries.callbackQueue().queryKey });
        else if (e.what === 'hold')
          void queryClient.invalidateQueries({ queryKey: sellingQueries.sellerHolds().queryKey });
      },
      [queryClient],
    ),
  );
}

/**
 * The jeweller's dashboard card (issue #22): open call-back requests with "Call back" (which rings the
 * customer's app), today's missed and declined calls with the caller and the piece asked about, and the pieces
 * customers hold (issue #48). It follows the event stream (useLiveQueue).
 */
export function CallbackQueueCard() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === 'ta' ? 'ta-IN' : 'en-IN';
  useLiveQueue();
  const queue = useQuery(callQueries.callbackQueue());
  const history = useQuery(callQueries.history());
  const holds = useQuery(sellingQueries.sellerHolds());
  const held = (holds.data?.holds ?? []).filter((h) => h.status === 'active');
  const busy = useCallState((s) => s.activeCall !== null);
  const open = (queue.data?.requests ?? []).filter((r) => r.status === 'open');
  const openFor = new Map(open.map((r) => [r.customer.id, r]));
  const today = new Date().toDateString();
  const missed = (history.data?.calls ?? []).filter(
    (c) =>
      c.isIncoming &&
      (c.status === 'missed' || c.status === 'declined') &&
      new Date(c.createdAt).toDateString() === today,
  );
  return (
    <section aria-labelledby="callback-queue-title" data-testid="callback-queue">
      <Card>
        <CardHeader className="flex flex-row items-center gap-2">
          <PhoneCall aria-hidden="true" className="h-5 w-5 text-brand-700" />
          <CardTitle id="callback-queue-title" className="text-lg">
            {t('calls.schedule.queue.title')}
          </CardTitle>
          <Badge variant={open.length ? 'warning' : 'outline'} data-testid="callback-count">
            {open.length}
          </Badge>
        </CardHeader>
        <CardContent className="space-y-4">
          {open.length === 0 ? (
            <p className="text-sm text-muted">{t('calls.schedule.queue.empty')}</p>
          ) : (
            <ul className="divide-y divide-stone-200">
              {open.map((r) => (
                <li key={r.id} className="flex flex-wrap items-center gap-3 py-2" data-request-id={r.id}>
                  <div className="min-w-0 flex-1 text-sm">
                    <p className="font-semibold text-ink">{r.customer.displayName}</p>
                    {r.product && (
                      <p className="text-muted">
                        {t('calls.schedule.queue.about', { product: r.product.name })}
                      </p>
                    )}
                    {r.note && <p className="break-words text-ink">“{r.note}”</p>}
                    <p className="text-muted">
                      <CallbackWindowText request={r} />
                    </p>
                  </div>
                  <Button
                    size="sm"
                    disabled={busy}
                    onClick={() => requestCallBack({ requestId: r.id }, r.customer.displayName)}
                  >
                    {t('calls.schedule.queue.callBack')}
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <div>
            <h3 className="flex items-center gap-2 text-sm font-semibold text-ink">
              <PhoneMissed aria-hidden="true" className="h-4 w-4 text-red-700" />
              {t('calls.schedule.missed.title')}
              <Badge variant={missed.length ? 'warning' : 'outline'} data-testid="missed-count">
                {missed.length}
              </Badge>
            </h3>
            {missed.length === 0 ? (
              <p className="text-sm text-muted">{t('calls.schedule.missed.empty')}</p>
            ) : (
              <ul className="divide-y divide-stone-200" data-testid="missed-calls">
                {missed.map((c) => {
                  const request = openFor.get(c.participantId);
                  return (
                    <li key={c.callId} className="flex flex-wrap items-center gap-3 py-2 text-sm">
                      <div className="min-w-0 flex-1">
                        <p className="font-semibold text-ink">{c.participantName}</p>
                        <p className="text-muted">
                          {time(c.createdAt, locale)} ·{' '}
                          {t(
                            c.status === 'missed'
                              ? 'calls.schedule.missed.missed'
                              : 'calls.schedule.missed.declined',
                          )}
                          {c.product ? ` · ${c.product.name}` : ''}
                        </p>
                      </div>
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={busy}
                        onClick={() =>
                          requestCallBack(
                            request ? { requestId: request.id } : { missedCallId: c.callId },
                            c.participantName,
                          )
                        }
                      >
                        {t('calls.schedule.queue.callBack')}
                      </Button>
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
          <div>
            <h3 className="flex items-center gap-2 text-sm font-semibold text-ink">
              <Hand aria-hidden="true" className="h-4 w-4 text-brand-700" />
              {t('sellerMoney.holds.title')}
              <Badge variant={held.length ? 'warning' : 'outline'} data-testid="holds-count">
                {held.length}
              </Badge>
            </h3>
            {held.length === 0 ? (
              <p className="text-sm text-muted">{t('sellerMoney.holds.empty')}</p>
            ) : (
              <ul className="divide-y divide-stone-200" data-testid="held-pieces">
                {held.map((h) => (
                  <li key={h.id} className="py-2 text-sm">
                    <p className="font-semibold break-words text-ink">{h.productName}</p>
                    <p className="text-muted">
                      {t('sellerMoney.holds.line', {
                        customer: h.customerName,
                        time: time(h.expiresAt, locale),
                      })}
                    </p>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </CardContent>
      </Card>
    </section>
  );
}
