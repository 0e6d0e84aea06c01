import { ChevronDown, Gem } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Product } from '../../../../../api/contract/catalog';
import { productPath } from '../../../../../api/contract/product-path';
import { useExtensions } from '../../../app/extensions';
import { ResponsiveImage } from '../../../components/ui/responsive-image';
import { cn } from '../../../lib/cn';
import { formatPrice } from '../../../lib/format';
import { formatMeasure, translateValue } from '../utils/product-values';
import { HydrateLater } from '../../../lib/hydrate-later';
import { HallmarkDetails, PriceBreakdown } from './price-breakdown';
import { ShareButton } from './share-button';
import { storePath } from '../../../lib/store-path';
import { useLiveCallState } from '../../../lib/live-call-state';

type SpecRow = { key: string; value: string };

/**
 * Every specification field that has a value, as label key and display text in the reader's language
 * (docs/product-rules.md §2 'More details', §8).
 */
export function specRows(p: Product, price: (v: string) => string): SpecRow[] {
  const rows: [string, unknown, ((v: never) => string)?][] = [
    ['category', p.category, (v: string) => translateValue('category', v)],
    ['material', p.material, (v: string) => translateValue('material', v)],
    ['sku', p.sku],
    ['purity', p.purity, (v: string) => translateValue('purity', v)],
    ['weight', p.weight, (v: number) => formatMeasure('grams', v)],
    ['width', p.width, (v: number) => formatMeasure('millimetres', v)],
    ['height', p.height, (v: number) => formatMeasure('millimetres', v)],
    ['size', p.size],
    ['sizeAvailable', p.sizeAvailable.length ? p.sizeAvailable : null, (v: string[]) => v.join(', ')],
    ['diamondsTotalCount', p.diamondsTotalCount],
    ['diamondsType', p.diamondsType, (v: string) => translateValue('text', v)],
    ['diamondsTotalWeight', p.diamondsTotalWeight, (v: number) => formatMeasure('carats', v)],
    ['gemstoneTotalCount', p.gemstoneTotalCount],
    ['gemstoneType', p.gemstoneType, (v: string) => translateValue('text', v)],
    ['makingCharges', p.makingCharges, price],
    ['stoneCharges', p.stoneCharges, price],
    ['discountAmount', p.discountAmount, price],
    ['gstAmount', p.gstAmount, price],
    ['stockQuantity', p.stockQuantity],
  ];
  return rows
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([key, v, fmt]) => ({ key, value: fmt ? (fmt as (x: unknown) => string)(v) : String(v) }));
}

function Gallery({ product }: { product: Product }) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const images = product.images;
  const current = images[Math.min(index, images.length - 1)];
  if (!current)
    return (
      <div className="flex aspect-square w-full items-center justify-center rounded-lg bg-stone-100 text-stone-400">
        <Gem aria-hidden="true" className="h-16 w-16" />
      </div>
    );
  return (
    <div className="space-y-2">
      <ResponsiveImage
        key={current.url}
        src={current.url}
        sizes="(min-width: 768px) 440px, calc(100vw - 2rem)"
        placeholder={current.placeholder}
        alt={t('catalog.detail.imageAlt', { name: product.name, n: index + 1, total: images.length })}
        width={current.width ?? 800}
        height={current.height ?? 800}
        // The page's largest paint: fetched before the page's scripts.
        fetchPriority="high"
        className="aspect-square w-full rounded-lg bg-stone-100 object-cover"
      />
      {images.length > 1 && (
        <ul className="flex gap-2 overflow-x-auto pb-1" aria-label={t('catalog.detail.gallery')}>
          {images.map((img, i) => (
            <li key={img.url} className="shrink-0">
              <button
                type="button"
                onClick={() => setIndex(i)}
                aria-label={t('catalog.detail.showImage', { n: i + 1 })}
                aria-pressed={i === index}
                className={cn(
                  'block h-16 w-16 overflow-hidden rounded-md border-2 focus-visible:outline-2 focus-visible:outline-brand-600',
                  i === index ? 'border-brand-700' : 'border-transparent',
                )}
              >
                <ResponsiveImage
                  src={img.cardUrl}
                  alt=""
                  sizes="64px"
                  maxWidth={240}
                  width={64}
                  height={64}
                  loading="lazy"
                  className="h-full w-full object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** "More details": a disclosure of the browser's own, so it opens before the page's code has loaded too. */
function MoreDetails({ product }: { product: Product }) {
  const { t } = useTranslation();
  const rows = specRows(product, (v) => formatPrice(v, t('common.priceNotAvailable')));
  if (rows.length === 0) return null;
  return (
    <details className="group rounded-lg border border-stone-200">
      <summary className="flex w-full cursor-pointer list-none items-center justify-between px-4 py-3 text-left font-medium focus-visible:outline-2 focus-visible:outline-brand-600 [&::-webkit-details-marker]:hidden">
        {t('catalog.detail.moreDetails')}
        <ChevronDown aria-hidden="true" className="h-4 w-4 transition-transform group-open:rotate-180" />
      </summary>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 border-t border-stone-200 px-4 py-3 text-sm">
        {rows.map((r) => (
          <div key={r.key} className="contents">
            <dt className="text-muted">{t(`catalog.spec.${r.key}`)}</dt>
            <dd className="font-medium text-ink">{r.value}</dd>
          </div>
        ))}
        {product.isCustomMade && (
          <div className="contents">
            <dt className="text-muted">{t('catalog.spec.isCustomMade')}</dt>
            <dd className="font-medium text-ink">{t('catalog.spec.yes')}</dd>
          </div>
        )}
      </dl>
    </details>
  );
}

/** 'by {shop name}' with the shop name as a link, in either language's word order. */
function ByShop({ product }: { product: Product }) {
  const { t } = useTranslation();
  const MARK = '\u0000';
  const [before, after = ''] = t('catalog.detail.by', { shop: MARK }).split(MARK);
  return (
    <>
      {before}
      <Link to={storePath(product)} className="font-medium text-brand-700 underline-offset-4 hover:underline">
        {product.shopName}
      </Link>
      {after}
    </>
  );
}

/** The product's name and 'by {shop}' as the page's heading (/product/{slug}-{id}, rendered on the server). */
function PageHeading({ name, byShop }: { name: string; byShop: ReactNode }) {
  return (
    <>
      <h1 className="text-2xl font-bold text-ink">{name}</h1>
      <p className="text-sm text-muted">{byShop}</p>
    </>
  );
}

/**
 * A product's details: as the page itself (/product/{slug}-{id} opened directly, rendered on the server), where
 * the name is the page's heading, or in the dialog over a page, which gives its own `Heading`
 * (product-detail-dialog.tsx: the dialog's title and description).
 */

/**
 * The piece's actions (call, try-on, appointment, cart, share), following the shop's live call state (issue
 * #50). The state is read here, inside the actions' own part, not in the page around it: the app's first look
 * at it after hydration re-renders its reader at once, in one task, and from the page it reached every part
 * of the page still waiting to hydrate, which React then hydrated in that same task (issue #49: the product
 * page's longest task).
 */
function ProductActions({ product }: { product: Product }) {
  const { t } = useTranslation();
  const { productDialogActions } = useExtensions();
  const callState = useLiveCallState(product.sellerId, product.callState, product.videoCallEnabled);
  const live = useMemo(
    () => (callState === product.callState ? product : { ...product, callState }),
    [product, callState],
  );
  return (
    <div className="flex flex-wrap gap-2">
      {productDialogActions.map((Action, i) => (
        <Action key={i} product={live} />
      ))}
      <ShareButton
        title={product.name}
        text={t('catalog.share.productText', {
          name: product.name,
          shop: product.shopName,
          price: formatPrice(product.price, t('common.priceNotAvailable')),
        })}
        path={productPath(product)}
      />
    </div>
  );
}

export function ProductDetails({
  product,
  Heading = PageHeading,
}: {
  product: Product;
  Heading?: (props: { name: string; byShop: ReactNode }) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
      <HydrateLater>
        <Gallery product={product} />
      </HydrateLater>
      <div className="flex flex-col gap-3">
        <Heading name={product.name} byShop={<ByShop product={product} />} />
        <p className="text-2xl font-bold text-brand-800">
          {formatPrice(product.price, t('common.priceNotAvailable'))}
        </p>
        {/* Seen, not only used: what it offers depends on who is signed in, known once the app runs. */}
        <HydrateLater>
          <ProductActions product={product} />
        </HydrateLater>
        <HydrateLater>
          <PriceBreakdown product={product} />
        </HydrateLater>
        <HydrateLater>
          <HallmarkDetails product={product} />
        </HydrateLater>
        <p className="whitespace-pre-line text-ink">{product.description}</p>
        {/* Text until it is used: its labels are looked up only then. */}
        <HydrateLater>
          <MoreDetails product={product} />
        </HydrateLater>
      </div>
    </div>
  );
}
