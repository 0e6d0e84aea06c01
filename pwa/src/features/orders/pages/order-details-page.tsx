import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, ArrowLeft, FileX, Printer } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { readsAsInvoice, type Order } from '../../../../../api/contract/orders';
import { Button, buttonClasses } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatPrice } from '../../../lib/format';
import { translateMessage } from '../../../lib/i18n';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { sessionQuery } from '../../../lib/session';
import { orderQueries } from '../api';
import { formatOrderDate } from '../components/format-date';
import { PaymentLine } from '../components/order-states';
import { PaymentPanel } from '../components/payment-panel';
import { GstInvoice, InvoicePdfLink } from '../components/gst-invoice';
import { GivenRating, RatingForm } from '../components/rating';
import { StatusBadge } from '../components/status-badge';
import { invoiceTotals } from '../invoice';
import '../invoice.css';

function parseOrderId(value: string | undefined): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** /orders/{orderId} (docs/product-rules.md §2): the printable invoice (§9) and, on a delivered order, the ratings. */
export default function OrderDetailsPage() {
  const { t } = useTranslation();
  const { orderId } = useParams();
  const id = parseOrderId(orderId);
  const session = useQuery(sessionQuery());
  const backTo = session.data && session.data.role !== 'customer' ? '/seller/orders' : '/orders';
  const order = useQuery({ ...orderQueries.details(id ?? 0), enabled: id !== null });
  // An order is an order until it is paid with its tax invoice issued (issue #49, docs/product-rules.md §20.1).
  const invoice = order.data ? readsAsInvoice(order.data) : false;
  useDocumentTitle(invoice ? t('orders.invoice.title') : t('orders.invoice.orderTitle'));

  const back = (
    <Link to={backTo} className={buttonClasses('ghost', 'sm')}>
      <ArrowLeft aria-hidden="true" className="h-4 w-4" />
      {t('orders.invoice.back')}
    </Link>
  );

  let body;
  if (id === null || (order.isError && order.error instanceof ApiError && order.error.status === 404)) {
    body = (
      <EmptyState
        headingLevel={1}
        icon={<FileX className="h-8 w-8" />}
        title={t('messages.orders.notFound')}
        description={t('orders.invoice.notFoundBody')}
        action={back}
      />
    );
  } else if (order.isPending) {
    body = (
      <div role="status" aria-label={t('common.loading')} className="space-y-4">
        <Skeleton className="h-8 w-56" />
        <Skeleton className="h-32 w-full" />
        <Skeleton className="h-48 w-full" />
      </div>
    );
  } else if (order.isError) {
    body = (
      <div role="alert">
        <EmptyState
          headingLevel={1}
          icon={<AlertTriangle className="h-8 w-8" />}
          title={t('orders.invoice.loadFailed')}
          description={translateMessage(errorMessage(order.error, 'Failed to fetch order details'))}
          action={
            <Button variant="outline" onClick={() => void order.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      </div>
    );
  } else {
    return (
      <div className="mx-auto max-w-4xl px-3 py-6 sm:px-4 md:py-10">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2 print:hidden">
          {back}
          <InvoicePdfLink orderId={order.data.id} />
          <Button variant="outline" size="sm" onClick={() => window.print()}>
            <Printer aria-hidden="true" className="h-4 w-4" />
            {invoice ? t('orders.invoice.print') : t('orders.invoice.printOrder')}
          </Button>
        </div>
        <Invoice order={order.data} />
      </div>
    );
  }
  return <div className="mx-auto max-w-4xl px-3 py-6 sm:px-4 md:py-10">{body}</div>;
}

function Invoice({ order }: { order: Order }) {
  const { t } = useTranslation();
  const totals = invoiceTotals(order);
  const s = order.seller;
  const sellerPlace = [s.city, s.state, s.pincode].filter(Boolean).join(', ');
  const money = (v: string) => formatPrice(v, t('common.priceNotAvailable'));
  const showRatings = order.status === 'delivered' && order.items.some((i) => i.canRate || i.rating);

  return (
    <article
      data-invoice
      aria-labelledby="invoice-title"
      className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm sm:p-8"
    >
      <div className="flex flex-wrap items-start justify-between gap-4 border-b border-stone-200 pb-4">
        <div>
          <h1 id="invoice-title" className="text-2xl font-bold text-ink">
            {readsAsInvoice(order) ? t('orders.invoice.title') : t('orders.invoice.orderTitle')}
          </h1>
          <p className="text-sm text-muted">{t('orders.orderNumber', { id: order.id })}</p>
          <p className="text-sm text-muted">
            {t('orders.placedOn', { date: formatOrderDate(order.createdAt, true) })}
          </p>
        </div>
        <div className="flex flex-col items-end gap-1 text-sm">
          <StatusBadge status={order.status} />
          <p className="text-muted">
            <PaymentLine method={order.paymentMethod} status={order.paymentStatus} />
          </p>
          <PaymentPanel order={order} />
        </div>
      </div>

      <div className="grid gap-6 border-b border-stone-200 py-4 text-sm sm:grid-cols-3">
        <section aria-labelledby="invoice-seller">
          <h2 id="invoice-seller" className="mb-1 font-semibold text-ink">
            {t('orders.invoice.soldBy')}
          </h2>
          <p className="font-medium text-ink" data-testid="invoice-shop">
            {s.shopName ?? t('checkout.unknownShop')}
          </p>
          {s.shopAddress && <p className="text-muted">{s.shopAddress}</p>}
          {sellerPlace && <p className="text-muted">{sellerPlace}</p>}
          {s.phone && <p className="text-muted">{t('orders.invoice.phone', { phone: s.phone })}</p>}
          <p className="text-muted" data-testid="invoice-gstin">
            {t('orders.invoice.gstin', { gstin: s.gstNumber ?? t('orders.invoice.notProvided') })}
          </p>
        </section>
        <section aria-labelledby="invoice-customer">
          <h2 id="invoice-customer" className="mb-1 font-semibold text-ink">
            {t('orders.invoice.billedTo')}
          </h2>
          <p className="font-medium text-ink">{order.customer.name || order.customer.displayName}</p>
          <p className="break-all text-muted">{order.customer.email}</p>
          {order.customer.phone && <p className="text-muted">{order.customer.phone}</p>}
        </section>
        <section aria-labelledby="invoice-shipping">
          <h2 id="invoice-shipping" className="mb-1 font-semibold text-ink">
            {t('orders.invoice.shipTo')}
          </h2>
          <p className="break-words whitespace-pre-line text-muted">{order.shippingAddress}</p>
          <p className="text-muted">{[order.city, order.state, order.pinCode].filter(Boolean).join(', ')}</p>
        </section>
      </div>

      {/* Stacked lines on a phone (invoice.css); a table from 640 px, scrolling sideways if still too narrow:
          focusable, so a keyboard can scroll it too. */}
      <div
        className="overflow-x-auto py-4"
        tabIndex={0}
        role="region"
        aria-label={t('orders.invoice.itemsCaption')}
        data-testid="invoice-items"
      >
        <table className="invoice-table w-full min-w-[32rem] text-left text-sm">
          <caption className="sr-only">{t('orders.invoice.itemsCaption')}</caption>
          <thead>
            <tr className="border-b border-stone-200 text-muted">
              <th scope="col" className="py-2 pr-2 font-medium">
                {t('orders.invoice.item')}
              </th>
              <th scope="col" className="px-2 py-2 text-right font-medium">
                {t('orders.invoice.quantity')}
              </th>
              <th scope="col" className="px-2 py-2 text-right font-medium">
                {t('orders.invoice.unitPrice')}
              </th>
              <th scope="col" className="px-2 py-2 text-right font-medium">
                {t('orders.invoice.gstPerUnit')}
              </th>
              <th scope="col" className="py-2 pl-2 text-right font-medium">
                {t('orders.invoice.amount')}
              </th>
            </tr>
          </thead>
          <tbody>
            {order.items.map((item) => (
              <tr key={item.id} className="border-b border-stone-100" data-testid="invoice-line">
                <th scope="row" className="py-2 pr-2 font-medium text-ink">
                  {item.product.name}
                </th>
                <td className="px-2 py-2 text-right" data-label={t('orders.invoice.quantity')}>
                  {item.quantity}
                </td>
                <td className="px-2 py-2 text-right" data-label={t('orders.invoice.unitPrice')}>
                  {money(item.price)}
                </td>
                <td className="px-2 py-2 text-right" data-label={t('orders.invoice.gstPerUnit')}>
                  {money(item.gstAmount)}
                </td>
                <td className="py-2 pl-2 text-right font-medium" data-label={t('orders.invoice.amount')}>
                  {money(item.lineTotal)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <dl className="ml-auto max-w-xs space-y-1.5 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-muted">{t('cart.subtotal')}</dt>
          <dd className="font-medium" data-testid="invoice-subtotal">
            {money(totals.subtotal)}
          </dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-muted">{t('cart.shipping')}</dt>
          <dd className="font-medium" data-testid="invoice-shipping">
            {Number(totals.shipping) === 0 ? t('common.shippingFree') : money(totals.shipping)}
          </dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-muted">{t('orders.invoice.gstIncluded')}</dt>
          <dd className="font-medium" data-testid="invoice-gst">
            {money(totals.gst)}
          </dd>
        </div>
        <div className="flex justify-between gap-4 border-t border-stone-200 pt-2 text-base">
          <dt className="font-semibold text-ink">{t('cart.total')}</dt>
          <dd className="font-semibold text-ink" data-testid="invoice-total">
            {money(totals.total)}
          </dd>
        </div>
      </dl>

      <GstInvoice orderId={order.id} />

      {showRatings && (
        <section
          aria-labelledby="invoice-ratings"
          className="mt-8 border-t border-stone-200 pt-6 print:hidden"
        >
          <h2 id="invoice-ratings" className="mb-4 text-lg font-semibold text-ink">
            {t('orders.rating.title')}
          </h2>
          <ul className="space-y-6">
            {order.items.map((item) => (
              <li key={item.id} data-testid="rating-item">
                {item.rating ? (
                  <>
                    <p className="mb-1 text-sm font-medium text-ink">{item.product.name}</p>
                    <GivenRating rating={item.rating} />
                  </>
                ) : item.canRate ? (
                  <RatingForm
                    orderId={order.id}
                    productId={item.product.id}
                    productName={item.product.name}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
