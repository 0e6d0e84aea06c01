import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import { statusBadgeVariant } from '../invoice';

/** An order status with the product rules' badge style (docs/product-rules.md §4). */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Badge variant={statusBadgeVariant(status)} data-testid="order-status">
      {t(`orders.status.${status}`, { defaultValue: status })}
    </Badge>
  );
}
