import { lazy, startTransition, Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PRODUCT_MATERIALS, type ProductMaterial } from '../../../../../api/contract/constants';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { Skeleton } from '../../../components/ui/skeleton';
import { PRICE_MAX, PRICE_MIN, type MarketplaceFilters } from '../utils/marketplace-params';

// The slider (Radix) loads after the page's first paint, and only where the panel shows (not in the sidebar a
// phone hides): it keeps the marketplace's first load small.
const PriceRange = lazy(() => import('./price-range'));

/**
 * Whether the element has been laid out (a phone's hidden sidebar never is). Known only after mount, so the
 * server's page and the hydrating browser agree on the first render (the placeholder).
 */
function useShown(ref: RefObject<HTMLElement | null>): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || shown) return;
    const laidOut = () => el.getClientRects().length > 0;
    // A transition: it never hurries the hydration of a server-rendered page.
    const show = () => startTransition(() => setShown(true));
    if (laidOut()) {
      show();
      return;
    }
    // Shown later (a phone turned to landscape, a window widened): the box gets a size.
    const observer = new ResizeObserver(() => {
      if (laidOut()) show();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, shown]);
  return shown;
}

export interface FilterChange {
  material?: ProductMaterial | undefined;
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
}

/**
 * Material and price filters; the same panel sits beside the grid on wide screens and in a sheet on phones.
 * Materials are links to their filtered page (`hrefFor`); the price slider reports through `onChange`.
 */
export function FilterPanel({
  filters,
  onChange,
  hrefFor,
  replace = false,
  idPrefix,
}: {
  filters: MarketplaceFilters;
  onChange: (change: FilterChange) => void;
  hrefFor: (change: FilterChange) => string;
  /** In the phone's sheet, picks replace each other in the history instead of piling up. */
  replace?: boolean;
  idPrefix: string;
}) {
  const { t } = useTranslation();
  const priceRef = useRef<HTMLDivElement>(null);
  const priceShown = useShown(priceRef);
  const hasFilters =
    filters.material !== undefined || filters.minPrice !== undefined || filters.maxPrice !== undefined;
  return (
    <div className="space-y-6">
      <div role="group" aria-labelledby={`${idPrefix}-material-heading`}>
        <p id={`${idPrefix}-material-heading`} className="mb-2 text-sm font-semibold text-ink">
          {t('catalog.filters.material')}
        </p>
        {/* Links, so a material picked before the app has started still filters (the server renders it). */}
        <ul className="grid grid-cols-2 gap-1 md:grid-cols-1">
          {[undefined, ...PRODUCT_MATERIALS].map((m) => {
            const checked = filters.material === m;
            return (
              <li key={m ?? 'all'}>
                <Link
                  to={hrefFor({ material: m })}
                  replace={replace}
                  aria-current={checked ? 'true' : undefined}
                  className={cn(
                    'flex items-center gap-2 rounded-md px-2 py-1.5 text-sm',
                    'focus-visible:outline-2 focus-visible:outline-brand-600',
                    checked ? 'bg-brand-50 font-semibold text-brand-800' : 'text-ink hover:bg-stone-100',
                  )}
                >
                  <span
                    aria-hidden="true"
                    className={cn(
                      'inline-block h-3.5 w-3.5 shrink-0 rounded-full border-2',
                      checked
                        ? 'border-brand-700 bg-brand-700 ring-2 ring-white ring-inset'
                        : 'border-stone-400',
                    )}
                  />
                  <span className="first-letter:uppercase">
                    {m ? t(`catalog.materials.${m}`) : t('catalog.filters.allMaterials')}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </div>
      <div ref={priceRef}>
        {priceShown ? (
          <Suspense fallback={<Skeleton className="h-20 w-full" />}>
            <PriceRange
              min={filters.minPrice ?? PRICE_MIN}
              max={filters.maxPrice ?? PRICE_MAX}
              onCommit={(min, max) => onChange({ minPrice: min, maxPrice: max })}
            />
          </Suspense>
        ) : (
          <Skeleton className="h-20 w-full" />
        )}
      </div>
      {hasFilters && (
        <Button
          variant="outline"
          className="w-full"
          onClick={() => onChange({ material: undefined, minPrice: undefined, maxPrice: undefined })}
        >
          {t('catalog.filters.clear')}
        </Button>
      )}
    </div>
  );
}
