import { useQuery } from '@tanstack/react-query';
import { FileDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatInr, toPaise } from '../../../../../api/contract/money';
import type { TaxInvoice } from '../../../../../api/contract/invoices';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { buttonClasses } from '../../../components/ui/button';
import { api, ApiError } from '../../../lib/api-client';
import { formatOrderDate } from './format-date';
import { translateValue } from '../../catalog/public';

export const gstInvoiceQuery = (orderId: number) => ({
  queryKey: ['orders', 'gst-invoice', orderId] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api.call(API_ROUTES.orderInvoice, { orderId }, { signal }),
  // An order placed before invoices were issued has none (404): nothing to show, nothing to retry.
  retry: (n: number, err: unknown) => !(err instanceof ApiError && err.status === 404) && n < 1,
});

const inr = (v: string) => formatInr(toPaise(v) / 100);

/** The PDF of the order's tax invoice (GET /_api/order/invoice.pdf), for the page's toolbar. */
export function InvoicePdfLink({ orderId }: { orderId: number }) {
  const { t, i18n } = useTranslation();
  // The Tamil invoice adds the amount in Tamil words (docs/product-rules.md §20.5).
  const lang = i18n.language === 'ta' ? '&lang=ta' : '';
  const invoice = useQuery(gstInvoiceQuery(orderId));
  if (!invoice.data) return null;
  return (
    <a
      href={`${API_ROUTES.orderInvoicePdf.path}?orderId=${orderId}${lang}`}
      className={buttonClasses('outline', 'sm')}
      download
      data-testid="invoice-pdf"
    >
      <FileDown aria-hidden="true" className="h-4 w-4" />
      {t('orders.gstInvoice.download')}
    </a>
  );
}

/**
 * The GST tax invoice of a shop order (docs/product-rules.md §10): number and date, the parties with GSTIN and
 * state, place of supply, lines with HSN, purity, weight and taxable value, the tax split, total, amount in words.
 */
export function GstInvoice({ orderId }: { orderId: number }) {
  const { t } = useTranslation();
  const invoice = useQuery(gstInvoiceQuery(orderId));
  // Not issued yet: it is issued when the order is paid (cash on delivery: when it ships), never before.
  if (invoice.error instanceof ApiError && invoice.error.code === 'invoice_not_due') {
    return (
      <p
        role="note"
        className="mt-6 border-t border-stone-200 pt-4 text-sm text-muted"
        data-testid="gst-invoice-not-due"
      >
        {t('orders.gstInvoice.notDue')}
      </p>
    );
  }
  if (!invoice.data) return null;
  return <GstInvoiceBody invoice={invoice.data.invoice} />;
}

/** How and when the order was paid, in the reader's language (the PDF prints the same in English). */
function PaymentNote({ payment }: { payment: TaxInvoice['payment'] }) {
  const { t } = useTranslation();
  const method = t(`checkout.payment.${payment.method}`);
  return (
    <p data-testid="gst-payment">
      {payment.paidAt
        ? t('orders.gstInvoice.paidBy', { method, date: formatOrderDate(payment.paidAt, true) })
        : t('orders.gstInvoice.paymentDue', { method })}
      {payment.reference && (
        <>
          {' '}
          <span className="break-all">
            {t('orders.gstInvoice.reference', { reference: payment.reference })}
          </span>
        </>
      )}
    </p>
  );
}

function GstInvoiceBody({ invoice: inv }: { invoice: TaxInvoice }) {
  const { t, i18n } = useTranslation();
  const weight = (net: string | null, gross: string | null) =>
    [net && t('orders.gstInvoice.net', { n: net }), gross && t('orders.gstInvoice.gross', { n: gross })]
      .filter(Boolean)
      .join(', ') || '–';
  return (
    <section
      aria-labelledby="gst-invoice-title"
      data-testid="gst-invoice"
      className="mt-6 border-t border-stone-200 pt-4 text-sm"
    >
      <h2 id="gst-invoice-title" className="text-lg font-semibold text-ink">
        {t('orders.gstInvoice.title')}
      </h2>
      <p data-testid="gst-invoice-number">{t('orders.gstInvoice.number', { number: inv.invoice.number })}</p>
      <p className="text-muted">
        {t('orders.gstInvoice.date', { date: formatOrderDate(inv.invoice.issuedAt, false) })}
      </p>
      {inv.creditNote && (
        <p role="note" className="mt-1 font-medium text-red-800" data-testid="gst-credit-note">
          {t('orders.gstInvoice.creditNote', {
            number: inv.creditNote.number,
            date: formatOrderDate(inv.creditNote.issuedAt, false),
          })}
        </p>
      )}
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <div>
          <h3 className="font-semibold text-ink">{t('orders.gstInvoice.soldBy')}</h3>
          <p className="text-ink">{inv.seller.legalName}</p>
          <p className="text-muted">{inv.seller.address}</p>
          {inv.seller.gstin && <p>{t('orders.gstInvoice.gstin', { gstin: inv.seller.gstin })}</p>}
          {inv.seller.stateCode && (
            <p className="text-muted">{t('orders.gstInvoice.stateCode', { code: inv.seller.stateCode })}</p>
          )}
        </div>
        <div>
          <h3 className="font-semibold text-ink">{t('orders.gstInvoice.billedTo')}</h3>
          <p className="text-ink">{inv.buyer.name}</p>
          <p className="text-muted">{inv.buyer.address}</p>
          {inv.buyer.gstin && (
            <p data-testid="gst-buyer-gstin">
              {t('orders.gstInvoice.buyerGstin', { gstin: inv.buyer.gstin })}
            </p>
          )}
          {inv.buyer.panMasked && (
            <p data-testid="gst-buyer-pan">{t('orders.payment.pan', { pan: inv.buyer.panMasked })}</p>
          )}
          <p data-testid="gst-place">{t('orders.gstInvoice.placeOfSupply', { place: inv.placeOfSupply })}</p>
        </div>
      </div>
      <div
        className="mt-3 overflow-x-auto"
        tabIndex={0}
        role="region"
        aria-label={t('orders.gstInvoice.caption')}
        data-testid="gst-invoice-items"
      >
        {/* Stacked lines on a phone, a table from 640 px (invoice.css). */}
        <table className="invoice-table w-full min-w-[36rem] text-left">
          <caption className="sr-only">{t('orders.gstInvoice.caption')}</caption>
          <thead>
            <tr className="border-b border-stone-200 text-muted">
              <th scope="col" className="py-1 pr-2 font-medium">
                {t('orders.gstInvoice.item')}
              </th>
              <th scope="col" className="px-2 py-1 font-medium">
                {t('orders.gstInvoice.hsn')}
              </th>
              <th scope="col" className="px-2 py-1 font-medium">
                {t('orders.gstInvoice.purity')}
              </th>
              <th scope="col" className="px-2 py-1 font-medium">
                {t('orders.gstInvoice.weight')}
              </th>
              <th scope="col" className="px-2 py-1 text-right font-medium">
                {t('orders.gstInvoice.quantity')}
              </th>
              <th scope="col" className="px-2 py-1 text-right font-medium">
                {t('orders.gstInvoice.taxable')}
              </th>
              <th scope="col" className="py-1 pl-2 text-right font-medium">
                {t('orders.gstInvoice.gst')}
              </th>
            </tr>
          </thead>
          <tbody>
            {inv.lines.map((l, i) => (
              <tr key={i} className="border-b border-stone-100" data-testid="gst-line">
                <th scope="row" className="py-1 pr-2 font-medium text-ink">
                  {l.description}
                  {l.huid && (
                    <span className="block text-xs text-muted" data-testid="gst-line-huid">
                      {t('orders.gstInvoice.huid', { huid: l.huid })}
                    </span>
                  )}
                </th>
                <td className="px-2 py-1" data-label={t('orders.gstInvoice.hsn')}>
                  {l.hsn}
                </td>
                <td className="px-2 py-1" data-label={t('orders.gstInvoice.purity')}>
                  {l.purity ? translateValue('purity', l.purity) : '–'}
                </td>
                <td className="px-2 py-1" data-label={t('orders.gstInvoice.weight')}>
                  {weight(l.netWeight, l.grossWeight)}
                </td>
                <td className="px-2 py-1 text-right" data-label={t('orders.gstInvoice.quantity')}>
                  {l.quantity}
                </td>
                <td className="px-2 py-1 text-right" data-label={t('orders.gstInvoice.taxable')}>
                  {inr(l.taxableValue)}
                </td>
                <td className="py-1 pl-2 text-right" data-label={t('orders.gstInvoice.gst')}>
                  {inr(l.gst)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="mt-3 ml-auto max-w-xs space-y-1">
        <div className="flex justify-between gap-4">
          <dt className="text-muted">{t('orders.gstInvoice.taxable')}</dt>
          <dd>{inr(inv.taxableValue)}</dd>
        </div>
        {inv.supply === 'intra' ? (
          <>
            <div className="flex justify-between gap-4" data-testid="gst-cgst">
              <dt className="text-muted">{t('orders.gstInvoice.cgst')}</dt>
              <dd>{inr(inv.cgst)}</dd>
            </div>
            <div className="flex justify-between gap-4" data-testid="gst-sgst">
              <dt className="text-muted">{t('orders.gstInvoice.sgst')}</dt>
              <dd>{inr(inv.sgst)}</dd>
            </div>
          </>
        ) : (
          <div className="flex justify-between gap-4" data-testid="gst-igst">
            <dt className="text-muted">{t('orders.gstInvoice.igst')}</dt>
            <dd>{inr(inv.igst)}</dd>
          </div>
        )}
        <div className="flex justify-between gap-4 border-t border-stone-200 pt-1 font-semibold">
          <dt>{t('orders.gstInvoice.total')}</dt>
          <dd>{inr(inv.total)}</dd>
        </div>
      </dl>
      {/* The amount in words in the invoice's language (the Tamil PDF prints both). */}
      <p className="mt-2" data-testid="gst-in-words">
        {t('orders.gstInvoice.inWords', {
          words: i18n.language === 'ta' ? inv.amountInWordsTa : inv.amountInWords,
        })}
      </p>
      <p className="text-muted">{t('orders.gstInvoice.reverseCharge')}</p>
      <PaymentNote payment={inv.payment} />
    </section>
  );
}
