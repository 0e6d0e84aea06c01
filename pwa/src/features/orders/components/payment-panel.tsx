import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Order } from '../../../../../api/contract/orders';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { Button } from '../../../components/ui/button';
import { api, errorMessage } from '../../../lib/api-client';
import { formatPrice } from '../../../lib/format';
import { translateMessage } from '../../../lib/i18n';
import { payOnline } from '../../../lib/pay-online';
import { sessionQuery } from '../../../lib/session';
import { CancelReasonLine } from './cancel-reason';
import { formatOrderDate } from './format-date';

/**
 * Where an order's payment stands (docs/product-rules.md "Payments"): "Pay now" for its customer while it awaits
 * an online payment (until its payBefore), the refund of a cancelled paid order, the buyer's PAN masked.
 */
export function PaymentPanel({ order }: { order: Order }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery());
  const [paying, setPaying] = useState(false);
  const mine = session.data?.id === order.customer.id;

  async function payNow() {
    setPaying(true);
    try {
      const start = await api.call(API_ROUTES.paymentStart, { checkoutRef: order.checkoutRef });
      const outcome = await payOnline(start, order.seller.shopName ?? 'Nagai');
      if (outcome.kind === 'paid') toast.success(t('orders.payment.paid'));
      else if (outcome.kind === 'failed') toast.error(t('checkout.payFailed'));
    } catch (err) {
      toast.error(translateMessage(errorMessage(err)));
    } finally {
      setPaying(false);
      await queryClient.invalidateQueries({ queryKey: ['orders'] });
    }
  }

  return (
    <>
      <CancelReasonLine order={order} />
      {order.payBefore && (
        <p className="text-amber-900" data-testid="pay-before">
          {t('orders.paymentStatus.payBefore', { time: formatOrderDate(order.payBefore, true) })}
        </p>
      )}
      {order.payBefore && mine && (
        <Button size="sm" loading={paying} onClick={() => void payNow()}>
          {t('orders.payment.payNow')}
        </Button>
      )}
      {order.refund && (
        <p className="text-muted" data-testid="refund-status">
          {t('orders.payment.refund', {
            amount: formatPrice(order.refund.amountPaise / 100),
            status: t(`orders.payment.refundStatus.${order.refund.status}`),
          })}
        </p>
      )}
      {order.buyerPanMasked && (
        <p className="text-muted" data-testid="buyer-pan">
          {t('orders.payment.pan', { pan: order.buyerPanMasked })}
        </p>
      )}
    </>
  );
}
