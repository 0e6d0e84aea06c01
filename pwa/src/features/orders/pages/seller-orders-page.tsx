import { useQuery } from '@tanstack/react-query';
import { ChevronDown } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { ORDER_STATUSES, ORDER_TRANSITIONS, type OrderStatus } from '../../../../../api/contract/constants';
import type { Order } from '../../../../../api/contract/orders';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { errorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { translateMessage } from '../../../lib/i18n';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { sessionQuery } from '../../../lib/session';
import { orderQueries, useUpdateOrderStatusMutation } from '../api';
import { formatOrderDate } from '../components/format-date';
import { CancelOrderDialog } from '../components/cancel-order-dialog';
import { OrderCardBody } from '../components/order-card-body';
import { NoOrders, OrderListError, OrderListSkeleton } from '../components/order-states';
import { Pagination } from '../../../components/pagination';
import { ORDERS_PAGINATION } from '../components/pagination-keys';
import { pageItems } from '../invoice';
import { StatusBadge } from '../components/status-badge';

type Filter = 'all' | OrderStatus;

function readPage(value: string | null): number {
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : 1;
}

/** /seller/orders (docs/product-rules.md §2): the shop's orders, status filter and page in the URL, 10 per page. */
export default function SellerOrdersPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('orders.sellerTitle'));
  const selectId = useId();
  const [params, setParams] = useSearchParams();
  const raw = params.get('status');
  const filter: Filter = (ORDER_STATUSES as readonly string[]).includes(raw ?? '')
    ? (raw as OrderStatus)
    : 'all';
  const page = readPage(params.get('page'));
  const orders = useQuery(orderQueries.sellerList({ page, status: filter === 'all' ? undefined : filter }));
  const session = useQuery(sessionQuery());
  // Only the shop's seller moves orders (admins may look, docs/product-rules.md §6).
  const canUpdate = session.data?.role === 'seller';

  const onFilter = (next: Filter) => {
    const p = new URLSearchParams(params);
    if (next === 'all') p.delete('status');
    else p.set('status', next);
    p.delete('page'); // a new filter starts at page 1
    setParams(p);
  };
  const hrefFor = (pg: number) => {
    const p = new URLSearchParams(params);
    if (pg > 1) p.set('page', String(pg));
    else p.delete('page');
    const qs = p.toString();
    return qs ? `/seller/orders?${qs}` : '/seller/orders';
  };

  return (
    <div className="mx-auto max-w-5xl px-3 py-6 sm:px-4 md:py-10">
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-2xl font-bold text-ink md:text-3xl">{t('orders.sellerTitle')}</h1>
        <div className="flex items-center gap-2">
          <label htmlFor={selectId} className="text-sm font-medium text-ink">
            {t('orders.statusFilter')}
          </label>
          <select
            id={selectId}
            value={filter}
            onChange={(e) => onFilter(e.target.value as Filter)}
            className="h-10 rounded-md border border-stone-300 bg-white px-3 text-sm text-ink focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <option value="all">{t('orders.filters.allStatuses')}</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`orders.status.${s}`)}
              </option>
            ))}
          </select>
        </div>
      </div>

      {orders.isPending ? (
        <OrderListSkeleton />
      ) : orders.isError ? (
        <OrderListError
          title={t('orders.loadFailedTitle')}
          error={orders.error}
          fallback={t('orders.unexpectedError')}
        />
      ) : orders.data.orders.length === 0 ? (
        <NoOrders description={t('messages.orders.emptyFiltered')} />
      ) : (
        <>
          <ul
            className={cn('space-y-4', orders.isPlaceholderData && 'opacity-60')}
            aria-busy={orders.isFetching}
          >
            {orders.data.orders.map((order) => (
              <li key={order.id}>
                <SellerOrderCard order={order} canUpdate={canUpdate} />
              </li>
            ))}
          </ul>
          <Pagination
            labels={ORDERS_PAGINATION}
            className="mt-8 print:hidden"
            items={pageItems(orders.data.pagination.currentPage, orders.data.pagination.totalPages)}
            page={orders.data.pagination.currentPage}
            totalPages={orders.data.pagination.totalPages}
            hrefFor={hrefFor}
          />
        </>
      )}
    </div>
  );
}

function SellerOrderCard({ order, canUpdate }: { order: Order; canUpdate: boolean }) {
  const { t } = useTranslation();
  const update = useUpdateOrderStatusMutation();
  // The forward moves in the menu; cancelling is apart, asked first, with a reason (issue #48).
  const transitions = ORDER_TRANSITIONS[order.status] ?? [];
  const next = transitions.filter((s) => s !== 'cancelled');
  const canCancel = canUpdate && transitions.includes('cancelled');

  const move = (status: OrderStatus) =>
    update.mutate(
      { orderId: order.id, status },
      {
        onSuccess: () => toast.success(t('orders.statusUpdated', { status: t(`orders.status.${status}`) })),
        onError: (err) => {
          const raw = errorMessage(err, '');
          toast.error(
            raw && raw !== 'Request failed' ? translateMessage(raw) : t('messages.orders.statusUpdateFailed'),
          );
        },
      },
    );

  return (
    <Card className="p-4 sm:p-5" data-testid="seller-order-card">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="text-lg font-semibold text-ink">{t('orders.orderNumber', { id: order.id })}</h2>
          <p className="text-sm text-muted">
            {t('orders.placedOn', { date: formatOrderDate(order.createdAt, true) })}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <StatusBadge status={order.status} />
          {canUpdate && next.length > 0 && (
            <DropdownMenu>
              <DropdownMenuTrigger className={buttonClasses('outline', 'sm')} disabled={update.isPending}>
                {update.isPending ? t('orders.updating') : t('orders.updateStatus')}
                <span className="sr-only"> {t('orders.orderNumber', { id: order.id })}</span>
                <ChevronDown aria-hidden="true" className="h-4 w-4" />
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                {next.map((status) => (
                  <DropdownMenuItem key={status} onSelect={() => move(status)}>
                    {t('orders.markAs', { status: t(`orders.status.${status}`) })}
                  </DropdownMenuItem>
                ))}
              </DropdownMenuContent>
            </DropdownMenu>
          )}
        </div>
      </div>

      <div className="mt-3 grid gap-4 text-sm sm:grid-cols-2">
        <section aria-label={t('orders.customerContact')}>
          <h3 className="font-semibold text-ink">{t('orders.customerContact')}</h3>
          <p className="text-ink">{order.customer.name || order.customer.displayName}</p>
          {order.customer.phone && (
            <p>
              <a
                href={`tel:${order.customer.phone}`}
                className="text-brand-700 underline-offset-2 hover:underline"
              >
                {order.customer.phone}
              </a>
            </p>
          )}
          <p className="break-all">
            <a
              href={`mailto:${order.customer.email}`}
              className="text-brand-700 underline-offset-2 hover:underline"
            >
              {order.customer.email}
            </a>
          </p>
        </section>
        <section aria-label={t('orders.invoice.shipTo')}>
          <h3 className="font-semibold text-ink">{t('orders.invoice.shipTo')}</h3>
          <p className="break-words whitespace-pre-line text-muted">{order.shippingAddress}</p>
          <p className="text-muted">{[order.city, order.state, order.pinCode].filter(Boolean).join(', ')}</p>
        </section>
      </div>

      <OrderCardBody order={order} />
      {canCancel && (
        <div className="mt-4 flex justify-end border-t border-dashed border-stone-300 pt-3">
          <CancelOrderDialog order={order} />
        </div>
      )}
    </Card>
  );
}
