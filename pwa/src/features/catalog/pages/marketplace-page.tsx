import { useQuery } from '@tanstack/react-query';
import { SlidersHorizontal } from 'lucide-react';
import { lazy, Suspense, useCallback, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { LIMITS, SORT_OPTIONS } from '../../../../../api/contract/constants';
import { buttonClasses } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { HydrateLater } from '../../../lib/hydrate-later';
import { cn } from '../../../lib/cn';
import { pressOnSpace } from '../../../lib/link-button';
import { translateMessage } from '../../../lib/i18n';
import { useAdoptValueOnMount } from '../../../lib/pre-hydration';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { productQueries } from '../api';
import { CategoryStrip } from '../components/category-strip';
import { FilterPanel, type FilterChange } from '../components/filter-panel';
import { Pagination } from '../../../components/pagination';
import { CATALOG_PAGINATION } from '../utils/pagination-keys';
import { ProductGrid } from '../components/product-grid';
import { DidYouMean } from '../components/did-you-mean';
import { MissingKindNotice, PriceChip, ShopMatches } from '../components/search-understood';
import { SearchBox, type Suggestion } from '../components/search-box';
import { productPath } from '../../../../../api/contract/product-path';
import { overlayState } from '../../../lib/background-location';
import { storePath } from '../../../lib/store-path';
import { useScrollToTopOnChange } from '../hooks/use-scroll-to-top';
import {
  MARKETPLACE_SORTS,
  defaultSort,
  parseMarketplaceParams,
  resultRange,
  toListRequest,
  toMarketplaceParams,
  withFilters,
  type MarketplaceFilters,
  type MarketplaceSort,
} from '../utils/marketplace-params';

const FilterSheet = lazy(() => import('../components/filter-sheet'));

/** The sort select. A sort chosen before the app took over applies once it has (lib/pre-hydration.ts). */
function SortSelect({
  value,
  onSort,
  searching,
}: {
  value: MarketplaceSort;
  onSort: (sortBy: MarketplaceSort) => void;
  /** Best match is an order of a search only. */
  searching: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const ref = useAdoptValueOnMount<HTMLSelectElement>(value, (sortBy) => onSort(sortBy as MarketplaceSort));
  return (
    // On a phone the sort takes its own row and the select shrinks to it (long Tamil option names).
    <div className="flex w-full min-w-0 items-center gap-2 sm:w-auto">
      <label htmlFor={id} className="shrink-0 text-sm font-medium text-ink">
        {t('catalog.sort.label')}
      </label>
      <select
        ref={ref}
        id={id}
        name="sortBy"
        value={value}
        onChange={(e) => onSort(e.target.value as MarketplaceSort)}
        className="h-10 w-full min-w-0 rounded-md border border-stone-300 bg-white px-3 text-sm text-ink focus-visible:outline-2 focus-visible:outline-brand-600 sm:w-auto"
      >
        {(searching ? MARKETPLACE_SORTS : SORT_OPTIONS).map((s) => (
          <option key={s} value={s}>
            {t(`catalog.sort.${s}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The marketplace (docs/product-rules.md §2): search, categories, filters, sort, 20 per page; every filter lives in the URL. */
export default function MarketplacePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const filters = parseMarketplaceParams(params);
  const list = useQuery(productQueries.list(toListRequest(filters)));
  const [sheetOpen, setSheetOpen] = useState(false);
  useDocumentTitle(t('catalog.marketplace.title'));
  const resultsRef = useRef<HTMLElement>(null);
  useScrollToTopOnChange(resultsRef, filters.page);

  const href = useCallback((f: MarketplaceFilters) => {
    const qs = toMarketplaceParams(f).toString();
    return qs ? `/marketplace?${qs}` : '/marketplace';
  }, []);
  const go = (change: Partial<MarketplaceFilters>) => navigate(href(withFilters(filters, change)));

  const onFilterChange = (change: FilterChange) => go(change);
  const filterHref = (change: FilterChange) => href(withFilters(filters, change));
  const onPick = (s: Suggestion) => {
    if (s.kind === 'category') go({ category: s.id, query: '' });
    else if (s.kind === 'seller') navigate(storePath({ urlSlug: s.urlSlug, sellerId: s.id }));
    else {
      // Open the product over a search for its name, so closing the dialog leaves matching results behind.
      const results = new URL(href(withFilters(filters, { query: s.label })), window.location.origin);
      navigate(productPath({ id: s.id, name: s.label }), {
        state: overlayState(
          { pathname: results.pathname, search: results.search, hash: '', state: null, key: 'search' },
          true,
        ),
      });
    }
  };

  const data = list.data;
  const total = data?.pagination.totalProducts ?? 0;
  const { from, to } = resultRange(filters.page, LIMITS.marketplacePageSize, total);
  const activeFilterCount =
    (filters.material ? 1 : 0) + (filters.minPrice !== undefined || filters.maxPrice !== undefined ? 1 : 0);

  return (
    <div className="mx-auto w-full max-w-7xl px-3 py-6 sm:px-4 md:py-8">
      <h1 className="mb-4 text-2xl font-bold text-ink md:text-3xl">{t('catalog.marketplace.title')}</h1>
      {/* The page's top, each a part of its own: a long task less on a phone (lib/hydrate-later.tsx). */}
      <HydrateLater>
        <div className="mb-4">
          <SearchBox
            value={filters.query}
            // A new search keeps a sort the reader chose, and is otherwise in its own default order.
            onSearch={(text) =>
              go({
                query: text,
                sortBy: filters.sortBy === defaultSort(filters.query) ? defaultSort(text) : filters.sortBy,
              })
            }
            onPick={onPick}
          />
        </div>
      </HydrateLater>
      <HydrateLater>
        <CategoryStrip
          current={filters.category}
          hrefFor={(category) => href(withFilters(filters, { category }))}
        />
      </HydrateLater>
      <div className="mt-4 flex flex-col gap-8 md:flex-row">
        {/* Phones (up to 767 px) get the Filters button and sheet instead; CSS decides, so the page the
            server rendered is the page every screen hydrates. Before the app has started, the Filters button
            is a link to this panel (#filters), which then shows on a phone too. */}
        <aside
          id="filters"
          aria-labelledby="filters-heading"
          className="hidden w-full shrink-0 target:block md:block md:w-60"
        >
          <h2 id="filters-heading" className="mb-4 text-lg font-semibold text-ink">
            {t('catalog.filters.title')}
          </h2>
          {/* Hidden on a phone until the Filters link targets it: hydrated when it shows or is used. */}
          <HydrateLater>
            <FilterPanel filters={filters} onChange={onFilterChange} hrefFor={filterHref} idPrefix="side" />
          </HydrateLater>
        </aside>
        <section ref={resultsRef} aria-labelledby="results-heading" className="min-w-0 flex-1 scroll-mt-20">
          <h2 id="results-heading" className="sr-only">
            {t('catalog.marketplace.results')}
          </h2>
          <HydrateLater>
            <div className="mb-4 flex flex-wrap items-center gap-3">
              <p className="mr-auto text-sm text-muted" aria-live="polite">
                {/* All on one page: "1 piece", "7 pieces"; else "Showing 21-40 of 97 results". */}
                {data &&
                  total > 0 &&
                  (from === 1 && to === total
                    ? t('catalog.marketplace.showingAll', { count: total })
                    : t('catalog.marketplace.showing', { from, to, count: total }))}
              </p>
              <a
                href="#filters"
                role="button"
                onClick={(e) => {
                  e.preventDefault();
                  setSheetOpen(true);
                }}
                onKeyDown={pressOnSpace}
                aria-haspopup="dialog"
                className={cn(buttonClasses('outline'), 'md:hidden')}
              >
                <SlidersHorizontal aria-hidden="true" className="h-4 w-4" />
                {activeFilterCount > 0
                  ? t('catalog.filters.buttonCount', { count: activeFilterCount })
                  : t('catalog.filters.title')}
              </a>
              <SortSelect
                value={filters.sortBy}
                onSort={(sortBy) => go({ sortBy })}
                searching={!!filters.query}
              />
            </div>
          </HydrateLater>
          {/* What the search understood (§20.2): its price as a chip, a missing kind, the shops it names. */}
          {data && (data.priceFilter || data.missingKind || (data.shops?.length && filters.page === 1)) ? (
            <div className="mb-6 flex flex-col gap-4">
              {data.priceFilter && (
                <PriceChip
                  filter={data.priceFilter}
                  removeHref={href(withFilters(filters, { query: data.priceFilter.rest }))}
                />
              )}
              {data.missingKind && <MissingKindNotice missing={data.missingKind} />}
              {data.shops?.length && filters.page === 1 ? (
                <ShopMatches text={filters.query} shops={data.shops} shopPieces={data.shopPieces ?? []} />
              ) : null}
            </div>
          ) : null}
          {data?.didYouMean && data.products.length === 0 ? (
            <DidYouMean
              text={filters.query}
              offer={data.didYouMean}
              categoryHref={(category) => href(withFilters(filters, { category, query: '' }))}
            />
          ) : (
            <ProductGrid
              products={data?.products}
              isPending={list.isPending}
              isError={list.isError && !list.isPlaceholderData}
              stale={list.isPlaceholderData}
              skeletons={12}
              empty={{
                title: t('catalog.grid.emptyTitle'),
                description: t('catalog.grid.emptyText'),
              }}
              error={
                list.error && (
                  <p className="mt-2 text-sm text-red-800">
                    {t('catalog.grid.errorDetail', { message: translateMessage(errorMessage(list.error)) })}
                  </p>
                )
              }
            />
          )}
          {data && (
            <HydrateLater>
              <Pagination
                labels={CATALOG_PAGINATION}
                className="mt-8"
                page={filters.page}
                totalPages={data.pagination.totalPages}
                hrefFor={(page) => href({ ...filters, page })}
              />
            </HydrateLater>
          )}
        </section>
      </div>
      {sheetOpen && (
        <Suspense fallback={null}>
          <FilterSheet
            open={sheetOpen}
            onOpenChange={setSheetOpen}
            filters={filters}
            onChange={onFilterChange}
            hrefFor={filterHref}
            resultCount={data?.pagination.totalProducts}
          />
        </Suspense>
      )}
    </div>
  );
}
