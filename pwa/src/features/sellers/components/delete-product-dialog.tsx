import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Product } from '../../../../../api/contract/catalog';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { sellerQueries, useDeleteProductMutation } from '../api';

/**
 * Asks the product rules' question before deleting, naming the open orders that include the product (issue #48);
 * orders that include it stay intact (soft delete).
 */
export function DeleteProductDialog({
  product,
  onOpenChange,
}: {
  product: Product | null;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteProductMutation();
  const open = useQuery({ ...sellerQueries.openOrders(product?.id ?? 0), enabled: product !== null });
  const openOrders = open.data?.openOrders ?? 0;

  const onConfirm = () => {
    if (!product) return;
    remove.mutate(product.id, {
      onSuccess: () => {
        toast.success(t('seller.products.deleted', { name: product.name }));
        onOpenChange(false);
      },
      onError: (err) =>
        toast.error(t('seller.products.deleteFailed'), { description: translateMessage(errorMessage(err)) }),
    });
  };

  return (
    <Dialog open={product !== null} onOpenChange={(open) => !remove.isPending && onOpenChange(open)}>
      <DialogContent closeLabel={t('common.close')} role="alertdialog">
        <DialogHeader>
          <DialogTitle>{t('seller.products.deleteTitle', { name: product?.name ?? '' })}</DialogTitle>
          <DialogDescription>{t('seller.products.deleteConfirm')}</DialogDescription>
        </DialogHeader>
        {openOrders > 0 && (
          <p
            className="rounded-md bg-amber-50 p-3 text-sm font-semibold text-amber-950"
            data-testid="delete-open-orders"
          >
            {t('sellerCare.deleteOpenOrders', { count: openOrders })}
          </p>
        )}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={remove.isPending}>
              {t('common.cancel')}
            </Button>
          </DialogClose>
          <Button
            variant="destructive"
            loading={remove.isPending}
            disabled={open.isPending && product !== null}
            onClick={onConfirm}
          >
            {remove.isPending ? t('seller.products.deleting') : t('seller.products.delete')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
