import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { readsAsInvoice, type Order } from '../../../../../api/contract/orders';
import { buttonClasses } from '../../../components/ui/button';
import { formatPrice } from '../../../lib/format';
import { CancelReasonLine } from './cancel-reason';
import { OrderItems } from './order-items';
import { PaymentLine } from './order-states';

/** The lines, total, payment and invoice link of an order card (the customer's and the seller's lists). */
export function OrderCardBody({ order }: { order: Order }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="mt-3">
        <OrderItems items={order.items} />
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3 border-t border-stone-200 pt-3 text-sm">
        <div>
          <p className="font-semibold text-ink">
            {t('orders.total')}: <span data-testid="order-total">{formatPrice(order.totalAmount)}</span>
          </p>
          <p className="text-muted">
            <PaymentLine method={order.paymentMethod} status={order.paymentStatus} />
          </p>
          <CancelReasonLine order={order} />
        </div>
        <Link to={`/orders/${order.id}`} className={buttonClasses('outline', 'sm')}>
          {/* An order is an invoice only once paid with its tax invoice issued (issue #49). */}
          {readsAsInvoice(order) ? t('orders.viewInvoice') : t('orders.viewOrder')}
          <span className="sr-only"> {t('orders.orderNumber', { id: order.id })}</span>
        </Link>
      </div>
    </>
  );
}
