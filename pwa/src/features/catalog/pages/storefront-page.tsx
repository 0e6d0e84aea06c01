import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, CalendarDays, MapPin, Store } from 'lucide-react';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams, useSearchParams } from 'react-router-dom';
import type { StoreProfile } from '../../../../../api/contract/catalog';
import { useExtensions } from '../../../app/extensions';
import { CallStateBadge } from '../../../components/call-state-badge';
import { buttonClasses } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { sellerQueries } from '../api';
import { Pagination } from '../../../components/pagination';
import { CATALOG_PAGINATION } from '../utils/pagination-keys';
import { ProductGrid } from '../components/product-grid';
import { ShareButton } from '../components/share-button';
import { storePath } from '../../../lib/store-path';
import { useLiveCallState } from '../../../lib/live-call-state';
import { useScrollToTopOnChange } from '../hooks/use-scroll-to-top';
import { parsePage } from '../utils/marketplace-params';

function StoreHeader({ store: rendered }: { store: StoreProfile }) {
  const { t } = useTranslation();
  // The badge and the call actions follow the shop's live call state (issue #50).
  const callState = useLiveCallState(rendered.sellerId, rendered.callState, rendered.videoCallEnabled);
  const store = useMemo(
    () => (callState === rendered.callState ? rendered : { ...rendered, callState: callState! }),
    [rendered, callState],
  );
  const { storefrontActions } = useExtensions();
  const address = [store.shopAddress, store.city, store.state, store.pincode].filter(Boolean).join(', ');
  const since = store.establishedDate
    ? new Date(`${store.establishedDate}T00:00:00Z`).getUTCFullYear()
    : null;
  return (
    <header className="rounded-2xl border border-stone-200 bg-gradient-to-br from-brand-50 to-gold-100 p-5 sm:p-8">
      <div className="flex flex-col gap-5 sm:flex-row sm:items-start">
        <span
          aria-hidden="true"
          className="inline-flex h-16 w-16 shrink-0 items-center justify-center rounded-full bg-brand-700 text-2xl font-bold text-white sm:h-20 sm:w-20"
        >
          {store.avatarInitials}
        </span>
        <div className="min-w-0 flex-1 space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-2xl font-bold text-ink sm:text-3xl">{store.shopName}</h1>
            {store.videoCallEnabled && <CallStateBadge state={store.callState} />}
          </div>
          {store.description && <p className="max-w-3xl whitespace-pre-line text-ink">{store.description}</p>}
          <p className="flex items-start gap-1.5 text-sm text-ink">
            <MapPin aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-muted" />
            <span>{address}</span>
          </p>
          {store.establishedDate && (
            <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink">
              <CalendarDays aria-hidden="true" className="h-4 w-4 text-muted" />
              <span>{t('catalog.store.yearsInBusiness', { count: store.yearsInBusiness ?? 0 })}</span>
              <span aria-hidden="true" className="text-muted">
                ·
              </span>
              <span>{t('catalog.store.since', { year: since })}</span>
            </p>
          )}
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          {storefrontActions.map((Action, i) => (
            <Action key={i} store={store} />
          ))}
          <ShareButton
            title={store.shopName}
            text={t('catalog.share.storeText', {
              shop: store.shopName,
              place: [store.city, store.state].filter(Boolean).join(', '),
            })}
            path={storePath(store)}
          />
        </div>
      </div>
    </header>
  );
}

function HeaderSkeleton() {
  return (
    <div className="rounded-2xl border border-stone-200 p-5 sm:p-8">
      <div className="flex gap-5">
        <Skeleton className="h-16 w-16 rounded-full sm:h-20 sm:w-20" />
        <div className="flex-1 space-y-3">
          <Skeleton className="h-8 w-1/2" />
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="h-4 w-2/3" />
        </div>
      </div>
    </div>
  );
}

/** A public store: /{sellerSlug}, or /sellers/{id} for shops without a slug (docs/product-rules.md §2), 12 products a page. */
export default function StorefrontPage() {
  const { t } = useTranslation();
  const { sellerSlug, sellerId } = useParams();
  const [params] = useSearchParams();
  const base = useLocation().pathname;
  const page = parsePage(params.get('page'));
  const idNum = Number(sellerId);
  const key =
    sellerSlug !== undefined
      ? { slug: sellerSlug }
      : Number.isSafeInteger(idNum) && idNum > 0
        ? { sellerId: idNum }
        : null;
  const store = useQuery({
    ...sellerQueries.store(key ?? { slug: '' }, page),
    enabled: key !== null,
  });
  const gridRef = useRef<HTMLElement>(null);
  useScrollToTopOnChange(gridRef, page);
  const notFound = key === null || (store.error instanceof ApiError && store.error.status === 404);
  useDocumentTitle(notFound ? t('catalog.store.notFoundTitle') : store.data?.sellerProfile.shopName);

  if (notFound)
    return (
      <EmptyState
        headingLevel={1}
        icon={<Store className="h-8 w-8" />}
        title={t('catalog.store.notFoundTitle')}
        description={<p>{t('catalog.store.notFoundText')}</p>}
        action={
          <Link to="/sellers" className={buttonClasses('primary')}>
            {t('catalog.store.browseJewellers')}
          </Link>
        }
      />
    );
  if (store.isError && !store.data)
    return (
      <div role="alert">
        <EmptyState
          headingLevel={1}
          icon={<AlertTriangle className="h-8 w-8" />}
          title={t('catalog.store.loadFailed')}
          description={<p>{translateMessage(errorMessage(store.error))}</p>}
        />
      </div>
    );

  const data = store.data;
  return (
    <div className="mx-auto w-full max-w-7xl space-y-8 px-3 py-6 sm:px-4 md:py-8">
      {data ? <StoreHeader store={data.sellerProfile} /> : <HeaderSkeleton />}
      <section ref={gridRef} aria-labelledby="store-products" className="scroll-mt-20">
        <h2 id="store-products" className="mb-4 text-xl font-semibold text-ink">
          {t('catalog.store.ourProducts')}
        </h2>
        <ProductGrid
          products={data?.productsData.products}
          isPending={store.isPending}
          isError={false}
          stale={store.isPlaceholderData}
          skeletons={6}
          headingLevel={3}
          empty={{
            title: t('catalog.store.noProductsTitle'),
            description: t('catalog.store.noProductsText'),
          }}
        />
        {data && (
          <Pagination
            labels={CATALOG_PAGINATION}
            className="mt-8"
            page={page}
            totalPages={data.productsData.pagination.totalPages}
            hrefFor={(p) => (p > 1 ? `${base}?page=${p}` : base)}
          />
        )}
      </section>
    </div>
  );
}
