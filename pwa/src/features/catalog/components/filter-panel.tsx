import { lazy, startTransition, Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PRODUCT_MATERIALS, type ProductMaterial } from '../../../../../api/contract/constants';
import { buttonClasses } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import {
  PRICE_MAX,
  PRICE_MIN,
  PRICE_STEP,
  toMarketplaceParams,
  type MarketplaceFilters,
} from '../utils/marketplace-params';

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
    // A transition: it never hurries the hydration of a server-rendered page. The price form stays while the
    // reader is in it (typing a price before the app started): the slider comes once they leave it.
    const show = () => {
      if (el.contains(document.activeElement)) {
        el.addEventListener('focusout', () => setTimeout(show, 0), { once: true });
        return;
      }
      startTransition(() => setShown(true));
    };
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
      <div ref={priceRef} className="min-h-20">
        {priceShown ? (
          <Suspense fallback={<PriceForm filters={filters} idPrefix={idPrefix} />}>
            <PriceRange
              min={filters.minPrice ?? PRICE_MIN}
              max={filters.maxPrice ?? PRICE_MAX}
              onCommit={(min, max) => onChange({ minPrice: min, maxPrice: max })}
            />
          </Suspense>
        ) : (
          <PriceForm filters={filters} idPrefix={idPrefix} />
        )}
      </div>
      {hasFilters && (
        <Link
          to={hrefFor({ material: undefined, minPrice: undefined, maxPrice: undefined })}
          replace={replace}
          className={cn(buttonClasses('outline'), 'h-10 w-full px-4 text-sm')}
        >
          {t('catalog.filters.clear')}
        </Link>
      )}
    </div>
  );
}

/**
 * The price filter as a plain form (minimum and maximum in rupees): what the server renders, so a price can be
 * set before the app has started (it submits to the marketplace's own URL with the other filters kept). Once
 * the app runs, the slider takes its place (a form submitted in between loads the filtered page).
 */
function PriceForm({ filters, idPrefix }: { filters: MarketplaceFilters; idPrefix: string }) {
  const { t } = useTranslation();
  const kept = [...toMarketplaceParams({ ...filters, page: 1, minPrice: undefined, maxPrice: undefined })];
  const field = (which: 'min' | 'max', value: number | undefined) => (
    <div className="min-w-0 flex-1">
      <label htmlFor={`${idPrefix}-${which}-price`} className="mb-1 block text-xs text-ink">
        {t(`catalog.filters.${which}Price`)}
      </label>
      <input
        id={`${idPrefix}-${which}-price`}
        name={`${which}Price`}
        type="number"
        inputMode="numeric"
        min={PRICE_MIN}
        max={PRICE_MAX}
        step={PRICE_STEP}
        defaultValue={value}
        placeholder={String(which === 'min' ? PRICE_MIN : PRICE_MAX)}
        className="h-10 w-full min-w-0 rounded-md border border-stone-300 bg-white px-2 text-sm text-ink focus-visible:outline-2 focus-visible:outline-brand-600"
      />
    </div>
  );
  return (
    <form method="get" action="/marketplace" aria-labelledby={`${idPrefix}-price-heading`}>
      <p id={`${idPrefix}-price-heading`} className="mb-2 text-sm font-semibold text-ink">
        {t('catalog.filters.price')}
      </p>
      {kept.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="flex gap-2">
        {field('min', filters.minPrice)}
        {field('max', filters.maxPrice)}
      </div>
      <button type="submit" className={cn(buttonClasses('outline'), 'mt-2 h-10 w-full px-3 text-sm')}>
        {t('catalog.filters.applyPrice')}
      </button>
    </form>
  );
}
