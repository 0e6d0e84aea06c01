import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { productQueries } from '../api';
import { useProductDialog } from '../hooks/use-product-dialog';
import { ProductDetails } from './product-details';

/** The product's name and 'by {shop}' as the dialog's title and description. */
function DialogHeading({ name, byShop }: { name: string; byShop: ReactNode }) {
  return (
    <>
      <DialogTitle className="pr-8 text-2xl">{name}</DialogTitle>
      <DialogDescription asChild>
        <p>{byShop}</p>
      </DialogDescription>
    </>
  );
}

/** The product detail dialog (docs/product-rules.md §2): gallery, name, 'by {shop}', price, actions, description, details. */
export default function ProductDetailDialog({
  productId,
  onClose,
}: {
  productId: number;
  /** What closing does; by default it goes back to the page under the dialog. */
  onClose?: () => void;
}) {
  const { t } = useTranslation();
  const { close } = useProductDialog();
  const product = useQuery(productQueries.detail(productId));
  // Opened from a grid, the product has its own title (its address is its own too); closing restores the page's.
  useDocumentTitle(product.data?.name);
  return (
    <Dialog open onOpenChange={(open) => !open && (onClose ?? close)()}>
      <DialogContent closeLabel={t('common.close')} className="max-w-4xl">
        {product.data ? (
          <ProductDetails product={product.data} Heading={DialogHeading} />
        ) : product.isError ? (
          <div role="alert" className="py-6">
            <DialogTitle>{t('catalog.detail.notFound')}</DialogTitle>
            <DialogDescription className="mt-2">
              {translateMessage(errorMessage(product.error))}
            </DialogDescription>
          </div>
        ) : (
          <div role="status" className="grid grid-cols-1 gap-5 md:grid-cols-2">
            <DialogTitle className="sr-only">{t('catalog.detail.loading')}</DialogTitle>
            <DialogDescription className="sr-only">{t('catalog.detail.loading')}</DialogDescription>
            <Skeleton className="aspect-square w-full" />
            <div className="space-y-3">
              <Skeleton className="h-8 w-3/4" />
              <Skeleton className="h-4 w-1/3" />
              <Skeleton className="h-7 w-1/4" />
              <Skeleton className="h-20 w-full" />
            </div>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
