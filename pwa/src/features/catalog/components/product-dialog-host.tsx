import { lazy, Suspense } from 'react';
import { useOpenProductId } from '../hooks/use-product-dialog';

// Radix dialog and collapsible load only when a product is opened, keeping them out of the first page load.
const ProductDetailDialog = lazy(() => import('./product-detail-dialog'));

/** Mounted once on every page (extension `globals`): opens the detail dialog for `?product=<id>`. */
export function ProductDialogHost() {
  const id = useOpenProductId();
  if (id === null) return null;
  return (
    <Suspense fallback={null}>
      <ProductDetailDialog productId={id} />
    </Suspense>
  );
}
