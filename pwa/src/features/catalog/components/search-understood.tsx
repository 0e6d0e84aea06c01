import { Info, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type {
  MissingKind,
  SearchPriceFilter,
  SellerCard as SellerCardData,
} from '../../../../../api/contract/catalog';
import { formatPrice } from '../../../lib/format';
import { SellerCard } from './seller-card';

/**
 * What a search understood, shown above its pieces (docs/product-rules.md §20.2): the price it named as a
 * removable chip, a kind of piece the catalogue has none of, and the shops it names.
 */

/** The price a search named, as the chip says it ("Under ₹30,000"). */
export function usePriceLabel(filter: SearchPriceFilter): string {
  const { t } = useTranslation();
  const rupees = (paise: number) => formatPrice(paise / 100);
  if (filter.minPaise !== undefined && filter.maxPaise !== undefined) {
    return t('shopperSearch.price.range', { min: rupees(filter.minPaise), max: rupees(filter.maxPaise) });
  }
  if (filter.maxPaise !== undefined) return t('shopperSearch.price.max', { max: rupees(filter.maxPaise) });
  return t('shopperSearch.price.min', { min: rupees(filter.minPaise ?? 0) });
}

/** The price filter a search applied, removed by searching its other words alone. */
export function PriceChip({ filter, removeHref }: { filter: SearchPriceFilter; removeHref: string }) {
  const { t } = useTranslation();
  const label = usePriceLabel(filter);
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="price-chip">
      <span className="text-sm text-muted">{t('shopperSearch.price.applied')}</span>
      <Link
        to={removeHref}
        aria-label={t('shopperSearch.price.remove', { price: label })}
        className="inline-flex min-h-10 items-center gap-1 rounded-full border border-brand-300 bg-brand-50 px-3 text-sm font-medium text-brand-800 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <span>{label}</span>
        <X aria-hidden="true" className="h-4 w-4" />
      </Link>
    </div>
  );
}

/** "We have no mangalsutras yet — showing chains, the nearest kind." */
export function MissingKindNotice({ missing }: { missing: MissingKind }) {
  const { t } = useTranslation();
  return (
    <p
      role="status"
      className="flex items-start gap-2 rounded-lg border border-gold-400 bg-gold-100 p-3 text-sm text-ink"
    >
      <Info aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
      <span>
        {t('shopperSearch.missingKind', {
          piece: t(`shopperSearch.pieces.${missing.piece}`),
          category: t(`catalog.categories.${missing.category}`),
        })}
      </span>
    </p>
  );
}

/** The shops a search names, before its pieces; named whole, the pieces below are theirs. */
export function ShopMatches({
  text,
  shops,
  shopPieces,
}: {
  text: string;
  shops: SellerCardData[];
  /** The shops (seller ids) whose pieces are shown below. */
  shopPieces: readonly number[];
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="shop-matches-heading" className="flex flex-col gap-3">
      <h3 id="shop-matches-heading" className="text-lg font-semibold text-ink">
        {t('shopperSearch.shopsHeading', { text })}
      </h3>
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {shops.map((s) => (
          <li key={s.sellerId}>
            <SellerCard seller={s} headingLevel={4} />
          </li>
        ))}
      </ul>
      {shopPieces.length > 0 && (
        <p className="text-base font-medium text-ink">
          {t('shopperSearch.shopPieces', {
            shops: shops
              .filter((s) => shopPieces.includes(s.sellerId))
              .map((s) => s.shopName)
              .join(', '),
          })}
        </p>
      )}
    </section>
  );
}
