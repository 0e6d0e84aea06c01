import { AlertTriangle, SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../../../api/contract/catalog';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { cn } from '../../../lib/cn';
import { HydrateLater } from '../../../lib/hydrate-later';
import { ProductCard } from './product-card';

export const GRID_CLASSES = 'grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-4';

/** Placeholder cards of the same shape as real ones while a page loads. */
export function ProductGridSkeleton({ count, className }: { count: number; className?: string }) {
  const { t } = useTranslation();
  return (
    <div role="status" aria-live="polite" className={cn(GRID_CLASSES, className)}>
      <span className="sr-only">{t('catalog.grid.loading')}</span>
      {Array.from({ length: count }, (_, i) => (
        <div
          key={i}
          data-testid="product-skeleton"
          className="overflow-hidden rounded-xl border border-stone-200 bg-white"
        >
          <Skeleton className="aspect-square w-full rounded-none" />
          <div className="space-y-2 p-3">
            <Skeleton className="h-3 w-1/2" />
            <Skeleton className="h-4 w-4/5" />
            <Skeleton className="h-5 w-1/3" />
          </div>
        </div>
      ))}
    </div>
  );
}

/**
 * A grid of product cards with the product rules' states: `skeletons` placeholders while loading, an error, an empty
 * message. Cards link to each product's own address, opened as a dialog over the page.
 */
export function ProductGrid({
  products,
  isPending,
  isError,
  skeletons,
  empty,
  error,
  stale = false,
  headingLevel = 2,
}: {
  products: Product[] | undefined;
  isPending: boolean;
  isError: boolean;
  skeletons: number;
  empty: { title: string; description: string; action?: ReactNode };
  error?: ReactNode;
  /** The previous page is shown while the next loads. */
  stale?: boolean;
  headingLevel?: 2 | 3;
}) {
  const { t } = useTranslation();
  if (isPending) return <ProductGridSkeleton count={skeletons} />;
  if (isError || !products)
    return (
      <div role="alert">
        <EmptyState
          headingLevel={headingLevel}
          icon={<AlertTriangle className="h-8 w-8" />}
          title={t('catalog.grid.errorTitle')}
          description={
            <>
              <p>{t('catalog.grid.errorText')}</p>
              {error}
            </>
          }
        />
      </div>
    );
  if (products.length === 0)
    return (
      <EmptyState
        headingLevel={headingLevel}
        icon={<SearchX className="h-8 w-8" />}
        title={empty.title}
        description={<p>{empty.description}</p>}
        action={empty.action}
      />
    );
  return (
    <ul
      className={cn(GRID_CLASSES, 'transition-opacity', stale && 'opacity-60')}
      aria-busy={stale || undefined}
    >
      {products.map((p, i) => (
        <li key={p.id} className="flex">
          <div className="flex w-full [&>article]:w-full">
            {/* The first row of a phone loads at once; the rest wait until they near the screen. */}
            <HydrateLater>
              <ProductCard product={p} eager={i < 2} />
            </HydrateLater>
          </div>
        </li>
      ))}
    </ul>
  );
}
