import { useTranslation } from 'react-i18next';
import type { OrderItem } from '../../../../../api/contract/orders';
import { ProductThumb } from '../../../components/ui/product-thumb';
import { formatPrice } from '../../../lib/format';

/** The lines of an order card: image, name, quantity × unit price, line total (2 decimals, docs/product-rules.md §9). */
export function OrderItems({ items }: { items: OrderItem[] }) {
  const { t } = useTranslation();
  return (
    <ul className="divide-y divide-stone-100">
      {items.map((item) => {
        const image = item.product.images[0];
        return (
          <li key={item.id} className="flex items-center gap-3 py-2">
            <ProductThumb src={image} size="sm" lazy />
            <div className="min-w-0 flex-1 text-sm">
              <p className="font-medium break-words text-ink">{item.product.name}</p>
              <p className="text-muted">
                {t('orders.quantityTimesPrice', {
                  quantity: item.quantity,
                  price: formatPrice(item.price, t('common.priceNotAvailable')),
                })}
              </p>
            </div>
            <p className="shrink-0 text-sm font-medium text-ink">{formatPrice(item.lineTotal)}</p>
          </li>
        );
      })}
    </ul>
  );
}
