import { Gem } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Product } from '../../../../../api/contract/catalog';
import { useExtensions } from '../../../app/extensions';
import { ResponsiveImage } from '../../../components/ui/responsive-image';
import { formatPrice } from '../../../lib/format';
import { storePath } from '../../../lib/store-path';
import { useProductLink } from '../hooks/use-product-dialog';

const CARD_SIZE = 400;
/** A card's width on screen: the grid's columns (GRID_CLASSES) inside the page's padding. */
const CARD_SIZES = '(min-width: 1280px) 300px, (min-width: 768px) 33vw, 50vw';

/**
 * The product page's module and its dialog's, fetched side by side as a finger or a pointer comes down on a card
 * (before the click).
 */
const preloadProductPage = () => {
  void import('../pages/product-page').catch(() => undefined);
  void import('./product-detail-dialog').catch(() => undefined);
};

/**
 * A product in a grid: the image is a link to the product's own address (it works before the app has started),
 * which the app opens as a dialog over the page; the shop name links to its store, other features add actions
 * (the calls' camera button). The image box has a fixed ratio, so the grid never shifts.
 */
export function ProductCard({
  product,
  eager = false,
}: {
  product: Product;
  /** The first cards of a page are above the fold: load them at once (LCP). */
  eager?: boolean;
}) {
  const { t } = useTranslation();
  const { productCardActions } = useExtensions();
  const link = useProductLink(product);
  const cover = product.images[0];
  const src = product.imageUrl ?? cover?.cardUrl ?? null;
  return (
    <article className="group flex flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm">
      <div className="relative">
        <Link
          {...link}
          onPointerDown={preloadProductPage}
          className="block aspect-square w-full overflow-hidden bg-stone-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
          aria-label={t('catalog.card.open', { name: product.name })}
        >
          {src ? (
            <ResponsiveImage
              src={src}
              alt=""
              sizes={CARD_SIZES}
              maxWidth={720}
              placeholder={cover?.placeholder}
              width={cover?.width ?? CARD_SIZE}
              height={cover?.height ?? CARD_SIZE}
              loading={eager ? 'eager' : 'lazy'}
              fetchPriority={eager ? 'high' : 'auto'}
              decoding="async"
              className="h-full w-full object-cover transition-transform duration-300 group-hover:scale-105 motion-reduce:transition-none"
            />
          ) : (
            <span className="flex h-full w-full items-center justify-center text-stone-400">
              <Gem aria-hidden="true" className="h-12 w-12" />
            </span>
          )}
        </Link>
        {productCardActions.length > 0 && (
          <div className="absolute top-2 right-2 flex gap-1.5">
            {productCardActions.map((Action, i) => (
              <Action key={i} product={product} />
            ))}
          </div>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3">
        <Link
          to={storePath(product)}
          className="w-fit max-w-full truncate py-1 text-xs font-medium text-gold-600 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          {product.shopName}
        </Link>
        {/* The name opens the product like the photo does (issue #40). Both links are at least 24 px tall, so a
            finger meets one or the other (WCAG 2.2 target size). */}
        <h3 className="line-clamp-2 text-sm font-semibold text-ink">
          <Link
            {...link}
            onPointerDown={preloadProductPage}
            className="py-[3px] hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            {product.name}
          </Link>
        </h3>
        <p className="mt-auto pt-1 text-base font-bold text-brand-800">
          {formatPrice(product.price, t('common.priceNotAvailable'))}
        </p>
      </div>
    </article>
  );
}
