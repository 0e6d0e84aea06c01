import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Wallet } from 'lucide-react';
import { useCallback, useId } from 'react';
import type { ShopEvent } from '../../../../../api/contract/events';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { LedgerEntry, PaymentSettings } from '../../../../../api/contract/payments';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { LedgerBreakdown } from '../../../components/ledger-breakdown';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { api, errorMessage } from '../../../lib/api-client';
import { formatPrice } from '../../../lib/format';
import { useStreamEvent } from '../../../lib/event-stream';
import { translateMessage } from '../../../lib/i18n';

export const ledgerQuery = {
  queryKey: ['sellers', 'ledger'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => api.call(API_ROUTES.sellerLedger, undefined, { signal }),
};
const paymentSettingsQuery = {
  queryKey: ['sellers', 'payment-settings'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api.call(API_ROUTES.sellerPaymentSettings, undefined, { signal }),
};

/** Paise, written the one way the app writes money. */
export const paise = (amount: number) => formatPrice(amount / 100);

/**
 * The seller dashboard's money card (docs/product-rules.md §14, "Issue #48"): what the shop is owed as two sums
 * that add up on screen (paid − refunds − commission; awaiting delivery or the return window + paid out + balance
 * due now), each line with its meaning; the latest entries; and the
 * shop's choice to offer cash on delivery (cash is the shop's own and not in the ledger).
 */
export function LedgerCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const ledger = useQuery(ledgerQuery);
  // A new paid order on the open dashboard (issue #48): told at once, and the figures follow.
  useStreamEvent(
    'shop',
    useCallback(
      (e: ShopEvent) => {
        if (e.what !== 'order-paid') return;
        void queryClient.invalidateQueries({ queryKey: ledgerQuery.queryKey });
        toast.success(t('sellerMoney.live.orderPaid', { order: e.orderId, amount: paise(e.amountPaise) }), {
          duration: 15_000,
        });
      },
      [queryClient, t],
    ),
  );
  return (
    <Card data-testid="ledger-card">
      <CardHeader className="flex flex-row items-center gap-2">
        <Wallet aria-hidden="true" className="h-5 w-5 text-brand-700" />
        <CardTitle className="text-lg">{t('seller.ledger.title')}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="text-sm text-muted">{t('seller.ledger.description')}</p>
        {ledger.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : ledger.isError ? (
          <div role="alert" className="space-y-2 text-sm">
            <p className="font-medium text-red-800">
              {t('seller.ledger.failed', { message: translateMessage(errorMessage(ledger.error)) })}
            </p>
            <Button variant="outline" size="sm" onClick={() => void ledger.refetch()}>
              {t('common.retry')}
            </Button>
          </div>
        ) : (
          <>
            <LedgerBreakdown
              ledger={ledger.data.ledger}
              commissionPercent={ledger.data.commissionPercent}
              returnWindowDays={ledger.data.returnWindowDays}
              who="seller"
            />
            <RecentEntries entries={ledger.data.entries.slice(0, 5)} />
          </>
        )}
        <CashOnDeliverySetting />
      </CardContent>
    </Card>
  );
}

function RecentEntries({ entries }: { entries: LedgerEntry[] }) {
  const { t, i18n } = useTranslation();
  const day = new Intl.DateTimeFormat(i18n.language === 'ta' ? 'ta-IN' : 'en-IN', { dateStyle: 'medium' });
  if (entries.length === 0) return <p className="text-sm text-muted">{t('seller.ledger.empty')}</p>;
  return (
    <section aria-label={t('seller.ledger.recent')}>
      <h3 className="mb-1 text-sm font-semibold text-ink">{t('seller.ledger.recent')}</h3>
      <ul className="divide-y divide-stone-200 text-sm" data-testid="ledger-entries">
        {entries.map((e) => (
          <li key={e.id} className="flex flex-wrap items-baseline justify-between gap-x-3 py-1.5">
            <span className="min-w-0 break-words text-ink">
              {t(`seller.ledger.kind.${e.kind}`)}
              {e.orderId !== null && ` · ${t('seller.ledger.order', { id: e.orderId })}`}
              {e.reference && ` · ${e.reference}`}
              <span className="text-muted"> · {day.format(new Date(e.createdAt))}</span>
            </span>
            <span className="font-medium text-ink">
              {e.kind === 'sale' ? '' : '−'}
              {paise(e.amountPaise)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function CashOnDeliverySetting() {
  const { t } = useTranslation();
  const id = useId();
  const queryClient = useQueryClient();
  const settings = useQuery(paymentSettingsQuery);
  const save = useMutation({
    mutationFn: (input: PaymentSettings) => api.call(API_ROUTES.sellerPaymentSettingsSet, input),
    onSuccess: (answer) => {
      queryClient.setQueryData(paymentSettingsQuery.queryKey, answer);
      toast.success(answer.cashOnDelivery ? t('seller.ledger.codOn') : t('seller.ledger.codOff'));
    },
    onError: (err) =>
      toast.error(t('seller.ledger.codFailed', { message: translateMessage(errorMessage(err)) })),
  });
  if (!settings.data) return null;
  return (
    <div className="flex items-start gap-3 border-t border-stone-200 pt-3 text-sm">
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 h-4 w-4 accent-brand-700"
        checked={save.isPending ? save.variables.cashOnDelivery : settings.data.cashOnDelivery}
        disabled={save.isPending}
        aria-describedby={`${id}-hint`}
        onChange={(e) => save.mutate({ cashOnDelivery: e.target.checked })}
      />
      <div>
        <label htmlFor={id} className="font-medium text-ink">
          {t('seller.ledger.codLabel')}
        </label>
        <p id={`${id}-hint`} className="text-muted">
          {t('seller.ledger.codHint')}
        </p>
      </div>
    </div>
  );
}
