import { AlertTriangle, PackageOpen } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';

/** Three skeleton order cards while a list loads (docs/product-rules.md §9: 3 elsewhere). */
export function OrderListSkeleton() {
  const { t } = useTranslation();
  return (
    <div role="status" aria-label={t('common.loading')} className="space-y-4">
      {Array.from({ length: 3 }, (_, i) => (
        <div key={i} className="rounded-xl border border-stone-200 bg-white p-5" data-testid="order-skeleton">
          <div className="flex justify-between">
            <Skeleton className="h-5 w-40" />
            <Skeleton className="h-5 w-20 rounded-full" />
          </div>
          <Skeleton className="mt-4 h-12 w-full" />
          <Skeleton className="mt-3 h-4 w-32" />
        </div>
      ))}
    </div>
  );
}

/** A list that failed to load, as an alert: `title`, then the server's message or `fallback` when it gave none. */
export function OrderListError({
  title,
  error,
  fallback,
}: {
  title: string;
  error: Error;
  fallback: string;
}) {
  return (
    <div role="alert">
      <EmptyState
        icon={<AlertTriangle className="h-8 w-8" />}
        title={title}
        description={error.message ? translateMessage(errorMessage(error)) : fallback}
      />
    </div>
  );
}

/** No orders to list (none yet, or none with the chosen filter), with an optional way on. */
export function NoOrders({ description, action }: { description: string; action?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <EmptyState
      icon={<PackageOpen className="h-8 w-8" />}
      title={t('messages.orders.emptyTitle')}
      description={description}
      action={action}
    />
  );
}

/** Payment method and state in plain words: nothing is ever shown as paid until a gateway says so. */
export function PaymentLine({ method, status }: { method: string; status: string }) {
  const { t } = useTranslation();
  const state =
    status === 'pending'
      ? method === 'cash_on_delivery'
        ? t('orders.paymentStatus.payOnDelivery')
        : t('orders.paymentStatus.pending')
      : t(`orders.paymentStatus.${status}`, { defaultValue: status });
  return (
    <span>
      {t(`checkout.payment.${method}`, { defaultValue: method })} · {state}
    </span>
  );
}
