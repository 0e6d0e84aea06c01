import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, SearchX } from 'lucide-react';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { productIdFromRef, productPath } from '../../../../../api/contract/product-path';
import { buttonClasses } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api-client';
import { backgroundLocation } from '../../../lib/background-location';
import { translateMessage } from '../../../lib/i18n';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { productQueries } from '../api';
import { ProductDetails } from '../components/product-details';

// The dialog (Radix's, with its focus trap and scroll lock) is not part of the product's own page. A card
// fetches it with this module as it is pressed (product-card.tsx).
const ProductDetailDialog = lazy(() => import('../components/product-detail-dialog'));

/** The product as a page of its own: a shared link, a reload, a search engine (rendered on the server). */
function ProductView({ id }: { id: number }) {
  const { t } = useTranslation();
  const product = useQuery(productQueries.detail(id));
  useDocumentTitle(product.data?.name ?? (product.isError ? t('catalog.detail.notFound') : undefined));
  return (
    <div className="mx-auto w-full max-w-5xl px-3 py-6 sm:px-4 md:py-8">
      <Link
        to="/marketplace"
        className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        {t('catalog.marketplace.title')}
      </Link>
      {product.data ? (
        <ProductDetails product={product.data} />
      ) : product.isError ? (
        <EmptyState
          headingLevel={1}
          icon={<SearchX className="h-8 w-8" />}
          title={t('catalog.detail.notFound')}
          description={<p>{translateMessage(errorMessage(product.error))}</p>}
          action={
            <Link to="/marketplace" className={buttonClasses('primary')}>
              {t('catalog.marketplace.title')}
            </Link>
          }
        />
      ) : (
        <div role="status" className="grid grid-cols-1 gap-5 md:grid-cols-2">
          <span className="sr-only">{t('catalog.detail.loading')}</span>
          <Skeleton className="aspect-square w-full" />
          <div className="space-y-3">
            <Skeleton className="h-8 w-3/4" />
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-7 w-1/4" />
            <Skeleton className="h-20 w-full" />
          </div>
        </div>
      )}
    </div>
  );
}

/**
 * /product/{slug}-{id}: a product's own address, the one cards, shared links and the sitemap use (its tags for
 * link previews come from the server, api/src/features/catalog/seo.ts). Opened from a card it shows as a dialog
 * over the page the card was on (app/router.tsx keeps that page rendered); otherwise as a page of its own.
 * An address with an old or missing slug is replaced by the product's current one.
 */
export default function ProductPage() {
  const { productRef = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const id = productIdFromRef(productRef);
  const product = useQuery({ ...productQueries.detail(id ?? 0), enabled: id !== null });
  const canonical = product.data ? productPath(product.data) : undefined;
  useEffect(() => {
    if (canonical && canonical !== location.pathname)
      void navigate(
        { pathname: canonical, search: location.search, hash: location.hash },
        { replace: true, state: location.state, preventScrollReset: true },
      );
  }, [canonical, location, navigate]);
  if (id === null) return <Navigate to="/marketplace" replace />;
  return backgroundLocation(location.state) ? (
    <Suspense fallback={null}>
      <ProductDetailDialog productId={id} />
    </Suspense>
  ) : (
    <ProductView id={id} />
  );
}
