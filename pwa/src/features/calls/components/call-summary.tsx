import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PhotoCallItem, ProductHold } from '../../../../../api/contract/call-selling';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { sellingApi, sellingQueries } from '../api';
import { formatSeconds } from '../lib/call-state';
import { useCallState } from '../../../lib/call-store';
import { ChatMessages } from './call-chat-sheet';
import { CallViewer } from './call-items-strip';
import { CallProductActions, CallProductSummary, formatHoldTime } from './call-product-card';
import { LikeLine } from '../family/family-in-call';

/**
 * What a call left behind, for both sides: how long it lasted, the piece asked about and the pieces shown (the
 * customer can still add them to the cart or hold them, unless held already), what the customer held and bought
 * of them (issue #40: the jeweller sees what came of the call), the photos and the chat. Shown when the call ends and
 * in the call's page of the history.
 */
export function CallSummary({ callId, userId }: { callId: number; userId: number }) {
  const { t, i18n } = useTranslation();
  const detail = useQuery(sellingQueries.detail(callId));
  // The customer's view (cart, holds) by role: a jeweller's call-back rings the customer, so who answered does
  // not tell who is the customer.
  const viewerIsSeller = useCallState((s) => s.user?.role === 'seller');
  const [photo, setPhoto] = useState<PhotoCallItem | null>(null);
  const [heldHere, setHeldHere] = useState<Map<number, ProductHold>>(() => new Map());
  const queryClient = useQueryClient();
  const release = useMutation({
    mutationFn: (holdId: number) => sellingApi.release(holdId),
    onSuccess: () => toast.success(t('calls.summary.released')),
    onError: (err) => toast.error(translateMessage(errorMessage(err))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sellingQueries.detail(callId).queryKey }),
  });
  if (detail.isPending)
    return (
      <div role="status" aria-label={t('common.loading')} className="space-y-2">
        <Skeleton className="h-5 w-1/2" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  if (detail.isError)
    return (
      <div role="alert" className="space-y-2">
        <p className="text-red-700">{translateMessage(errorMessage(detail.error))}</p>
        <Button variant="outline" size="sm" onClick={() => void detail.refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  const d = detail.data;
  const isCustomer = !viewerIsSeller;
  // The customer's active holds of the call's pieces, from this call or an earlier one (a held piece is not
  // offered to hold again), with those made here since the summary loaded.
  const holds = new Map(d.holds.filter((h) => h.status === 'active').map((h) => [h.productId, h]));
  for (const [k, v] of heldHere) holds.set(k, v);
  const held = [...holds.values()];
  const onHeld = (h: ProductHold) => setHeldHere((prev) => new Map(prev).set(h.productId, h));
  const shown = new Map<number, (typeof d.items)[number] & { kind: 'product' }>();
  for (const i of d.items) if (i.kind === 'product' && !shown.has(i.product.id)) shown.set(i.product.id, i);
  const photos = d.items.filter((i): i is PhotoCallItem => i.kind === 'photo');
  const hasChat = d.items.some((i) => i.kind === 'message');
  return (
    <div className="space-y-5" data-testid="call-summary">
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-muted">{t('calls.history.duration')}</dt>
          <dd className="font-mono text-base text-ink tabular-nums" data-testid="summary-duration">
            {formatSeconds(d.durationSeconds)}
          </dd>
        </div>
        <div>
          <dt className="text-muted">{t('calls.summary.with')}</dt>
          <dd className="truncate text-base text-ink">{d.participantName}</dd>
        </div>
      </dl>
      {d.product && (
        <section aria-labelledby="summary-about" className="space-y-2" data-testid="summary-about">
          <h3 id="summary-about" className="font-semibold text-ink">
            {t('calls.summary.calledAbout')}
          </h3>
          <CallProductSummary product={d.product} />
          {isCustomer && (
            <CallProductActions
              callId={callId}
              product={d.product}
              hold={holds.get(d.product.id) ?? null}
              onHeld={onHeld}
              compact
            />
          )}
        </section>
      )}
      <section aria-labelledby="summary-outcome" className="space-y-2" data-testid="summary-outcome">
        <h3 id="summary-outcome" className="font-semibold text-ink">
          {t('calls.summary.outcome.title')}
        </h3>
        {held.length === 0 && d.purchases.length === 0 ? (
          <p className="text-sm text-muted">{t('calls.summary.outcome.none')}</p>
        ) : (
          <ul className="space-y-1 text-sm text-ink">
            {held.map((h) => (
              <li key={`h${h.id}`} data-testid="summary-held">
                {t('calls.summary.outcome.held', {
                  name: h.productName,
                  time: formatHoldTime(h.expiresAt, i18n.language),
                })}
              </li>
            ))}
            {d.purchases.map((b) => (
              <li key={`b${b.orderId}-${b.productId}`} data-testid="summary-bought">
                {t('calls.summary.outcome.bought', {
                  name: b.productName,
                  count: b.quantity,
                  order: b.orderId,
                })}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="summary-shown" className="space-y-2">
        <h3 id="summary-shown" className="font-semibold text-ink">
          {t('calls.summary.shown')}
        </h3>
        {shown.size === 0 ? (
          <p className="text-sm text-muted">{t('calls.summary.noneShown')}</p>
        ) : (
          <ul className="space-y-3">
            {[...shown.values()].map((i) => (
              <li
                key={i.id}
                className="space-y-2 rounded-xl border border-stone-200 p-3"
                data-testid="summary-product"
              >
                <CallProductSummary product={i.product} />
                {isCustomer ? (
                  <CallProductActions
                    callId={callId}
                    product={i.product}
                    hold={holds.get(i.product.id) ?? null}
                    onHeld={onHeld}
                    compact
                  />
                ) : (
                  holds.get(i.product.id) && (
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <p className="text-sm font-medium text-green-800">
                        {t('calls.summary.heldByCustomer', {
                          time: formatHoldTime(holds.get(i.product.id)!.expiresAt, i18n.language),
                        })}
                      </p>
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={release.isPending}
                        onClick={() => release.mutate(holds.get(i.product.id)!.id)}
                      >
                        {t('calls.summary.releaseHold')}
                      </Button>
                    </div>
                  )
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      {photos.length > 0 && (
        <section aria-labelledby="summary-photos" className="space-y-2">
          <h3 id="summary-photos" className="font-semibold text-ink">
            {t('calls.summary.photos')}
          </h3>
          <ul className="flex flex-wrap gap-2">
            {photos.map((p) => (
              <li key={p.id}>
                <button
                  type="button"
                  onClick={() => setPhoto(p)}
                  aria-label={t('calls.selling.openPhoto')}
                  className="block rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                  data-testid="summary-photo"
                >
                  <img src={p.photoUrl} alt="" className="h-20 w-20 rounded-md object-cover" />
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {d.likes.length > 0 && (
        // What the family liked (issue #52).
        <section aria-labelledby="summary-family" className="space-y-2" data-testid="summary-likes">
          <h3 id="summary-family" className="font-semibold text-ink">
            {t('family.summary')}
          </h3>
          <ul className="space-y-1 text-sm text-ink">
            {d.likes.map((l) => (
              <li key={l.id}>
                <LikeLine like={l} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {hasChat && (
        <section aria-labelledby="summary-chat" className="space-y-2">
          <h3 id="summary-chat" className="font-semibold text-ink">
            {t('calls.selling.chat')}
          </h3>
          <ChatMessages
            items={d.items}
            userId={userId}
            callId={callId}
            canBuy={isCustomer}
            holds={holds}
            onHeld={onHeld}
          />
        </section>
      )}
      <CallViewer
        viewing={photo ? { kind: 'photo', item: photo } : null}
        onClose={() => setPhoto(null)}
        callId={callId}
        canBuy={false}
        holds={holds}
        onHeld={() => undefined}
      />
    </div>
  );
}
