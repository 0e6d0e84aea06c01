import { MapPin, Package, Star } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { SellerCard as SellerCardData } from '../../../../../api/contract/catalog';
import { Skeleton } from '../../../components/ui/skeleton';
import { storePath } from '../../../lib/store-path';
import { VideoBadge } from './video-badge';

/** A jeweller in the directory and the landing's top sellers; the whole card links to the store. */
export function SellerCard({
  seller,
  headingLevel = 3,
}: {
  seller: SellerCardData;
  headingLevel?: 2 | 3 | 4;
}) {
  const { t } = useTranslation();
  const Heading = `h${headingLevel}` as const;
  const place = [seller.city, seller.state].filter(Boolean).join(', ');
  return (
    <article className="relative flex h-full flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4 shadow-sm transition-shadow focus-within:ring-2 focus-within:ring-brand-600 hover:shadow-md">
      <div className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className="inline-flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-brand-700 text-base font-semibold text-white"
        >
          {seller.avatarInitials}
        </span>
        <div className="min-w-0">
          <Heading className="truncate text-base font-semibold text-ink">
            <Link
              to={storePath(seller)}
              className="outline-none after:absolute after:inset-0 after:content-['']"
            >
              {seller.shopName}
            </Link>
          </Heading>
          <p className="truncate text-sm text-muted">{seller.sellerName}</p>
        </div>
      </div>
      {place && (
        <p className="flex items-center gap-1.5 text-sm text-muted">
          <MapPin aria-hidden="true" className="h-4 w-4 shrink-0" />
          <span className="truncate">{place}</span>
        </p>
      )}
      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-ink">
        <div className="flex items-center gap-1">
          <dt>
            <Package aria-hidden="true" className="h-4 w-4 text-muted" />
            <span className="sr-only">{t('catalog.seller.products')}</span>
          </dt>
          <dd>{t('catalog.seller.productCount', { count: seller.productCount })}</dd>
        </div>
        <div className="flex items-center gap-1">
          <dt>
            <Star aria-hidden="true" className="h-4 w-4 text-gold-600" />
            <span className="sr-only">{t('catalog.seller.rating')}</span>
          </dt>
          <dd>{seller.ratingCount > 0 ? seller.averageRating.toFixed(1) : t('catalog.seller.noRatings')}</dd>
        </div>
        {seller.yearsInBusiness !== null && (
          <div className="flex items-center gap-1">
            <dt className="sr-only">{t('catalog.seller.experience')}</dt>
            <dd>{t('catalog.store.yearsInBusiness', { count: seller.yearsInBusiness })}</dd>
          </div>
        )}
      </dl>
      <div className="mt-auto">
        <VideoBadge seller={seller} />
      </div>
    </article>
  );
}

export function SellerCardSkeleton() {
  return (
    <div aria-hidden="true" className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4">
      <div className="flex items-center gap-3">
        <Skeleton className="h-12 w-12 rounded-full" />
        <div className="flex-1 space-y-2">
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="h-3 w-1/2" />
        </div>
      </div>
      <Skeleton className="h-3 w-2/3" />
      <Skeleton className="h-5 w-24 rounded-full" />
    </div>
  );
}
