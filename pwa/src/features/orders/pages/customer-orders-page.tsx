import { useQuery } from '@tanstack/react-query';
import { LockKeyhole } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { CustomerOrderFilter, Order } from '../../../../../api/contract/orders';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { ApiError } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { orderQueries } from '../api';
import { formatOrderDate } from '../components/format-date';
import { OrderCardBody } from '../components/order-card-body';
import { NoOrders, OrderListError, OrderListSkeleton } from '../components/order-states';
import { Pagination } from '../../../components/pagination';
import { ORDERS_PAGINATION } from '../components/pagination-keys';
import { pageItems } from '../invoice';
import { StatusBadge } from '../components/status-badge';

const FILTERS = ['all', 'in-progress', 'completed'] as const;
type Filter = (typeof FILTERS)[number];

function readPage(value: string | null): number {
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 1 ? n : 1;
}

/** /orders (docs/product-rules.md §2): the customer's orders, filter and page in the URL, 20 per page. */
export default function CustomerOrdersPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('orders.myOrders'));
  const [params] = useSearchParams();
  const raw = params.get('status');
  const filter: Filter = (FILTERS as readonly string[]).includes(raw ?? '') ? (raw as Filter) : 'all';
  const page = readPage(params.get('page'));
  const status: CustomerOrderFilter | undefined = filter === 'all' ? undefined : filter;
  const orders = useQuery(orderQueries.customerList({ page, status }));

  const hrefFor = (next: { status?: Filter; page?: number }) => {
    const p = new URLSearchParams();
    const s = next.status ?? filter;
    if (s !== 'all') p.set('status', s);
    const pg = next.page ?? 1;
    if (pg > 1) p.set('page', String(pg));
    const qs = p.toString();
    return qs ? `/orders?${qs}` : '/orders';
  };

  return (
    <div className="mx-auto max-w-4xl px-3 py-6 sm:px-4 md:py-10">
      <h1 className="text-2xl font-bold text-ink md:text-3xl">{t('orders.myOrders')}</h1>
      <nav aria-label={t('orders.filterLabel')} className="mt-4 mb-6">
        <ul className="flex flex-wrap gap-2">
          {FILTERS.map((f) => (
            <li key={f}>
              <Link
                to={hrefFor({ status: f })}
                aria-current={f === filter ? 'page' : undefined}
                className={cn(
                  'inline-flex h-9 items-center rounded-full border px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600',
                  f === filter
                    ? 'border-brand-700 bg-brand-700 text-white'
                    : 'border-stone-300 bg-white text-ink hover:bg-stone-50',
                )}
              >
                {t(`orders.filters.${f}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      {orders.isPending ? (
        <OrderListSkeleton />
      ) : orders.isError ? (
        orders.error instanceof ApiError && orders.error.status === 401 ? (
          <EmptyState
            icon={<LockKeyhole className="h-8 w-8" />}
            title={t('orders.authRequiredTitle')}
            description={t('messages.orders.authRequired')}
            action={
              <Link to="/customer/login?redirect=%2Forders" className={buttonClasses('primary')}>
                {t('header.login')}
              </Link>
            }
          />
        ) : (
          <OrderListError
            title={t('orders.fetchErrorTitle')}
            error={orders.error}
            fallback={t('orders.unknownErrorDot')}
          />
        )
      ) : orders.data.orders.length === 0 ? (
        <NoOrders
          description={t(
            filter === 'all' ? 'messages.orders.emptyCustomer' : 'messages.orders.emptyFiltered',
          )}
          action={
            <Link to="/marketplace" className={buttonClasses('primary')}>
              {t('cart.continueShopping')}
            </Link>
          }
        />
      ) : (
        <>
          <ul
            className={cn('space-y-4', orders.isPlaceholderData && 'opacity-60')}
            aria-busy={orders.isFetching}
          >
            {orders.data.orders.map((order) => (
              <li key={order.id}>
                <CustomerOrderCard order={order} />
              </li>
            ))}
          </ul>
          <Pagination
            labels={ORDERS_PAGINATION}
            className="mt-8 print:hidden"
            items={pageItems(orders.data.pagination.currentPage, orders.data.pagination.totalPages)}
            page={orders.data.pagination.currentPage}
            totalPages={orders.data.pagination.totalPages}
            hrefFor={(p) => hrefFor({ page: p })}
          />
        </>
      )}
    </div>
  );
}

function CustomerOrderCard({ order }: { order: Order }) {
  const { t } = useTranslation();
  return (
    <Card className="p-4 sm:p-5" data-testid="order-card">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="text-lg font-semibold text-ink">{t('orders.orderNumber', { id: order.id })}</h2>
          <p className="text-sm text-muted">
            {t('orders.placedOn', { date: formatOrderDate(order.createdAt) })}
          </p>
          <p className="text-sm font-medium text-brand-800">
            {order.seller.shopName ?? t('checkout.unknownShop')}
          </p>
        </div>
        <StatusBadge status={order.status} />
      </div>
      <OrderCardBody order={order} />
    </Card>
  );
}
