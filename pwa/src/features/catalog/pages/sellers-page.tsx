import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Search, Store } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { LIMITS } from '../../../../../api/contract/constants';
import { EmptyState } from '../../../components/ui/empty-state';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { cn } from '../../../lib/cn';
import { HydrateLater } from '../../../lib/hydrate-later';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { sellerQueries } from '../api';
import { Pagination } from '../../../components/pagination';
import { CATALOG_PAGINATION } from '../utils/pagination-keys';
import { SellerCard, SellerCardSkeleton } from '../components/seller-card';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { useScrollToTopOnChange } from '../hooks/use-scroll-to-top';
import { parsePage } from '../utils/marketplace-params';

type TextFilter = 'query' | 'city' | 'state';
const TEXT_FILTERS: readonly TextFilter[] = ['query', 'city', 'state'];

/** The jeweller directory (docs/product-rules.md §2): 12 per page; search, city and state typed freely, applied after 300 ms. */
export default function SellersPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const id = useId();
  useDocumentTitle(t('catalog.directory.title'));

  const fromUrl = (k: TextFilter) => (params.get(k) ?? '').trim();
  const page = parsePage(params.get('page'));
  const [draft, setDraft] = useState<Record<TextFilter, string>>(() => ({
    query: fromUrl('query'),
    city: fromUrl('city'),
    state: fromUrl('state'),
  }));
  const settled = useDebouncedValue(draft, LIMITS.suggestionDebounceMs);
  // Back and forward change the URL: the boxes follow it. The URL this page wrote itself from the settled
  // boxes is not such a change: the router may render it only after newer typing (it renders navigations in
  // a transition), and taking the boxes back to it then undid what was typed since ('lakshmi' came back into
  // a search box just emptied, beside the city typed next).
  const urlKey = TEXT_FILTERS.map(fromUrl).join('\u0000');
  const [syncedKey, setSyncedKey] = useState(urlKey);
  if (syncedKey !== urlKey) {
    setSyncedKey(urlKey);
    if (urlKey !== TEXT_FILTERS.map((k) => settled[k].trim()).join('\u0000')) {
      setDraft({ query: fromUrl('query'), city: fromUrl('city'), state: fromUrl('state') });
    }
  }
  useEffect(() => {
    const changed = TEXT_FILTERS.some((k) => settled[k].trim() !== (params.get(k) ?? '').trim());
    if (!changed) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const k of TEXT_FILTERS) {
          const v = settled[k].trim();
          if (v) next.set(k, v);
          else next.delete(k);
        }
        next.delete('page');
        return next;
      },
      { replace: true },
    );
    // Only a settled edit writes the URL; URL changes alone must not write it back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);

  const list = useQuery(
    sellerQueries.list({
      page,
      limit: LIMITS.directoryPageSize,
      searchQuery: fromUrl('query') || undefined,
      city: fromUrl('city') || undefined,
      state: fromUrl('state') || undefined,
    }),
  );
  const listRef = useRef<HTMLElement>(null);
  useScrollToTopOnChange(listRef, page);

  const hrefFor = (p: number) => {
    const next = new URLSearchParams(params);
    if (p > 1) next.set('page', String(p));
    else next.delete('page');
    const qs = next.toString();
    return qs ? `/sellers?${qs}` : '/sellers';
  };

  const field = (k: TextFilter, label: string, placeholder: string, icon = false) => (
    <div className="space-y-1.5">
      <Label htmlFor={`${id}-${k}`}>{label}</Label>
      <div className="relative">
        {icon && (
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-muted"
          />
        )}
        <Input
          id={`${id}-${k}`}
          type={k === 'query' ? 'search' : 'text'}
          value={draft[k]}
          maxLength={100}
          placeholder={placeholder}
          autoComplete={k === 'city' ? 'address-level2' : k === 'state' ? 'address-level1' : 'off'}
          onChange={(e) => setDraft((d) => ({ ...d, [k]: e.target.value }))}
          className={cn(icon && 'pl-9')}
        />
      </div>
    </div>
  );

  const data = list.data;
  return (
    <div className="mx-auto w-full max-w-7xl px-3 py-6 sm:px-4 md:py-8">
      <h1 className="text-2xl font-bold text-ink md:text-3xl">{t('catalog.directory.title')}</h1>
      <p className="mt-1 text-muted">{t('catalog.directory.subtitle')}</p>
      <form
        role="search"
        aria-label={t('catalog.directory.searchLabel')}
        onSubmit={(e) => e.preventDefault()}
        className="mt-5 grid gap-3 sm:grid-cols-[2fr_1fr_1fr]"
      >
        {field('query', t('catalog.directory.search'), t('catalog.directory.searchPlaceholder'), true)}
        {field('city', t('catalog.directory.city'), t('catalog.directory.cityPlaceholder'))}
        {field('state', t('catalog.directory.state'), t('catalog.directory.statePlaceholder'))}
      </form>
      <section ref={listRef} aria-labelledby={`${id}-results`} className="mt-6 scroll-mt-20">
        <h2 id={`${id}-results`} className="sr-only">
          {t('catalog.directory.results')}
        </h2>
        {list.isPending ? (
          <div role="status" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <span className="sr-only">{t('catalog.directory.loading')}</span>
            {Array.from({ length: 3 }, (_, i) => (
              <SellerCardSkeleton key={i} />
            ))}
          </div>
        ) : list.isError && !data ? (
          <div role="alert">
            <EmptyState icon={<AlertTriangle className="h-8 w-8" />} title={t('catalog.directory.error')} />
          </div>
        ) : data && data.sellers.length === 0 ? (
          <EmptyState icon={<Store className="h-8 w-8" />} title={t('catalog.directory.empty')} />
        ) : (
          data && (
            <>
              <p className="mb-3 text-sm text-muted" aria-live="polite">
                {t('catalog.directory.count', { count: data.pagination.totalSellers })}
              </p>
              <ul
                className={cn(
                  'grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3',
                  list.isPlaceholderData && 'opacity-60',
                )}
                aria-busy={list.isPlaceholderData || undefined}
              >
                {data.sellers.map((s) => (
                  <li key={s.sellerId}>
                    <HydrateLater>
                      <SellerCard seller={s} />
                    </HydrateLater>
                  </li>
                ))}
              </ul>
              <Pagination
                labels={CATALOG_PAGINATION}
                className="mt-8"
                page={page}
                totalPages={data.pagination.totalPages}
                hrefFor={hrefFor}
              />
            </>
          )
        )}
      </section>
    </div>
  );
}
