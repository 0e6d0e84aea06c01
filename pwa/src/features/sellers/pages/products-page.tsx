import type { ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight, ExternalLink, Package, Pencil, Plus, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { Product } from '../../../../../api/contract/catalog';
import type { SellerProfile } from '../../../../../api/contract/sellers';
import { Badge } from '../../../components/ui/badge';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api-client';
import { formatPrice } from '../../../lib/format';
import { translateMessage } from '../../../lib/i18n';
import { PRODUCTS_PAGE_LIMIT, sellerQueries } from '../api';
import { DeleteProductDialog } from '../components/delete-product-dialog';
import { ErrorCard, useOwnProfile } from '../components/page-states';
import { ProductCards } from '../components/product-cards';
import { ProductSheet } from '../components/product-sheet';
import { ProductsCsv } from '../components/products-csv';
import { storePath } from '../../../lib/store-path';
import { productValueLabel } from '../utils/product-labels';

function pageFrom(value: string | null): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/**
 * /seller/products (seller, admin): the products as cards on a phone and as a table from the md width, with add
 * and edit sheets, delete, and paging.
 */
export default function ProductsPage() {
  const { t } = useTranslation();
  const { profile, pending } = useOwnProfile(t('seller.products.title'));

  let body: ReactNode;
  if (pending) body = pending;
  else if (!profile.data)
    body = (
      <Card>
        <EmptyState
          icon={<Package className="h-8 w-8" />}
          title={t('seller.profile.notFoundTitle')}
          description={t('seller.profile.notFound')}
          action={
            <Link to="/seller/dashboard" className={buttonClasses()}>
              {t('header.nav.dashboard')}
            </Link>
          }
        />
      </Card>
    );
  else return <Products profile={profile.data} />;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8">
      <h1 className="text-3xl font-bold text-brand-800">{t('seller.products.title')}</h1>
      {body}
    </div>
  );
}

function Products({ profile }: { profile: SellerProfile }) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const page = pageFrom(searchParams.get('page'));
  const products = useQuery({
    ...sellerQueries.products(profile.userId, page, PRODUCTS_PAGE_LIMIT),
    placeholderData: keepPreviousData,
  });
  const [sheet, setSheet] = useState<{ open: boolean; product?: Product }>({ open: false });
  const [toDelete, setToDelete] = useState<Product | null>(null);
  const store = storePath(profile);

  const goTo = (next: number) =>
    setSearchParams(
      (p) => {
        const copy = new URLSearchParams(p);
        if (next <= 1) copy.delete('page');
        else copy.set('page', String(next));
        return copy;
      },
      { preventScrollReset: false },
    );

  const totalPages = products.data?.pagination.totalPages ?? 1;
  const list = products.data?.products ?? [];
  // The last product of a later page was deleted (or the URL names a page past the end): step back.
  const pastEnd = Boolean(products.data) && !products.isPlaceholderData && list.length === 0 && page > 1;
  useEffect(() => {
    if (pastEnd) goTo(Math.max(1, Math.min(totalPages, page - 1)));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- goTo is stable enough: it reads the URL itself
  }, [pastEnd]);

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-3xl font-bold text-brand-800">{t('seller.products.title')}</h1>
          <p className="text-muted">{t('seller.products.subtitle', { shopName: profile.shopName })}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={store} className={buttonClasses('outline')}>
            <ExternalLink aria-hidden="true" className="h-4 w-4" />
            {t('seller.viewStore')}
          </a>
          <Button onClick={() => setSheet({ open: true })}>
            <Plus aria-hidden="true" className="h-4 w-4" />
            {t('seller.products.add')}
          </Button>
        </div>
      </div>
      <ProductsCsv />

      {products.isPending ? (
        <div role="status" aria-label={t('common.loading')} className="space-y-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-16 w-full" />
          ))}
        </div>
      ) : products.isError ? (
        <ErrorCard
          title={t('seller.dashboard.failedToLoadProducts')}
          message={translateMessage(errorMessage(products.error))}
          onRetry={() => void products.refetch()}
        />
      ) : list.length === 0 && page === 1 ? (
        <Card>
          <EmptyState
            icon={<Package className="h-8 w-8" />}
            title={t('seller.products.emptyTitle')}
            description={t('seller.products.empty')}
          />
        </Card>
      ) : (
        <Card className="overflow-hidden">
          {/* A phone gets cards; the table from the md width up (issue #48). */}
          <div className="md:hidden">
            <ProductCards
              products={list}
              busy={products.isPlaceholderData}
              label={t('sellerPhone.products.listLabel', { page, totalPages })}
              onEdit={(product) => setSheet({ open: true, product })}
              onDelete={setToDelete}
            />
          </div>
          <div className="hidden overflow-x-auto md:block">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{t('seller.products.caption', { page, totalPages })}</caption>
              <thead className="bg-stone-50 text-xs text-muted uppercase">
                <tr>
                  <th scope="col" className="px-4 py-3">
                    {t('seller.products.columns.product')}
                  </th>
                  <th scope="col" className="hidden px-4 py-3 md:table-cell">
                    {t('seller.products.columns.category')}
                  </th>
                  <th scope="col" className="px-4 py-3">
                    {t('seller.products.columns.price')}
                  </th>
                  <th scope="col" className="hidden px-4 py-3 sm:table-cell">
                    {t('seller.products.columns.stock')}
                  </th>
                  <th scope="col" className="hidden px-4 py-3 sm:table-cell">
                    {t('seller.products.columns.status')}
                  </th>
                  <th scope="col" className="px-4 py-3 text-right">
                    {t('seller.products.columns.actions')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-200">
                {list.map((p) => (
                  <tr key={p.id} aria-busy={products.isPlaceholderData || undefined}>
                    <td className="px-4 py-3">
                      <div className="flex items-center gap-3">
                        {p.imageUrl ? (
                          <img
                            src={p.imageUrl}
                            alt=""
                            loading="lazy"
                            className="h-12 w-12 shrink-0 rounded-md bg-stone-100 object-cover"
                          />
                        ) : (
                          <div aria-hidden="true" className="h-12 w-12 shrink-0 rounded-md bg-stone-100" />
                        )}
                        <span className="font-medium break-words text-ink">{p.name}</span>
                      </div>
                    </td>
                    <td className="hidden px-4 py-3 md:table-cell">
                      {productValueLabel(t, 'category', p.category)} ·{' '}
                      {productValueLabel(t, 'material', p.material)}
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap">
                      {formatPrice(p.price, t('common.priceNotAvailable'))}
                    </td>
                    <td className="hidden px-4 py-3 sm:table-cell">{p.stockQuantity ?? '—'}</td>
                    <td className="hidden px-4 py-3 sm:table-cell">
                      <Badge variant="success">{t('seller.products.active')}</Badge>
                    </td>
                    <td className="px-4 py-3">
                      <div className="flex justify-end gap-1">
                        <Button
                          variant="ghost"
                          size="icon"
                          onClick={() => setSheet({ open: true, product: p })}
                          aria-label={t('seller.products.editNamed', { name: p.name })}
                        >
                          <Pencil aria-hidden="true" className="h-4 w-4" />
                        </Button>
                        <Button
                          variant="ghost"
                          size="icon"
                          onClick={() => setToDelete(p)}
                          aria-label={t('seller.products.deleteNamed', { name: p.name })}
                          className="text-red-800 hover:bg-red-50"
                        >
                          <Trash2 aria-hidden="true" className="h-4 w-4" />
                        </Button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {totalPages > 1 && (
            <nav
              aria-label={t('seller.products.pagination')}
              className="flex items-center justify-between gap-2 border-t border-stone-200 px-4 py-3"
            >
              <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => goTo(page - 1)}>
                <ChevronLeft aria-hidden="true" className="h-4 w-4" />
                {t('seller.products.previous')}
              </Button>
              <span className="text-sm text-muted">{t('seller.products.pageOf', { page, totalPages })}</span>
              <Button
                variant="outline"
                size="sm"
                disabled={page >= totalPages}
                onClick={() => goTo(page + 1)}
              >
                {t('seller.products.next')}
                <ChevronRight aria-hidden="true" className="h-4 w-4" />
              </Button>
            </nav>
          )}
        </Card>
      )}

      <ProductSheet
        open={sheet.open}
        product={sheet.product}
        onOpenChange={(open) => setSheet((s) => ({ ...s, open }))}
      />
      <DeleteProductDialog product={toDelete} onOpenChange={(open) => !open && setToDelete(null)} />
    </div>
  );
}
