import { BadgeCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatInr, toPaise } from '../../../../../api/contract/money';
import type { Product } from '../../../../../api/contract/catalog';
import { pieceFigures } from '../../../../../api/contract/figures';

const inr = (paise: number) => formatInr(paise / 100);

/** Trailing zeros of a decimal string dropped: "10.500" → "10.5". */
const trim = (v: string) => (v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v);

/**
 * A product's price breakdown (docs/product-rules.md §10, §20.1), on every piece's page. A rate-linked piece:
 * metal (purity, net and gross weight, the rate, the value), making charge, stones, subtotal, GST 3 %, total,
 * computed with the contract's arithmetic from the rate the price was set from. A fixed-price piece: the making
 * charge and stones the jeweller stated (when they fit), the rest as metal and other value, the price before
 * GST and the GST inside the price, as the invoice reads them (api/contract/figures.ts). A stones row of ₹0 is
 * not shown.
 */
export function PriceBreakdown({ product }: { product: Product }) {
  const { t } = useTranslation();
  const r = product.rateLinked;
  const f = pieceFigures(product);
  const rows: [string, string, string, string?][] = [];
  if (r && f.kind === 'rate') {
    const metal = t(`catalog.pricing.metals.${r.metal}`);
    rows.push(
      [
        'metal',
        t('catalog.pricing.metalValue', { metal, purity: r.purity }),
        inr(f.metal),
        t('catalog.pricing.metalDetail', {
          net: trim(r.netWeight),
          rate: formatInr(toPaise(r.ratePerGram) / 100),
        }),
      ],
      [
        'making',
        r.makingType === 'percent'
          ? t('catalog.pricing.makingPercent', { value: trim(r.makingValue) })
          : t('catalog.pricing.makingPerGram', { value: formatInr(toPaise(r.makingValue) / 100) }),
        inr(f.making),
      ],
    );
  } else if (f.making > 0 || f.stones > 0) {
    rows.push(['metal', t('catalog.pricing.metalOther'), inr(f.metal)]);
    if (f.making > 0) rows.push(['making', t('catalog.pricing.making'), inr(f.making)]);
  }
  if (f.stones > 0) rows.push(['stones', t('catalog.pricing.stones'), inr(f.stones)]);
  rows.push(
    ['subtotal', t('catalog.pricing.subtotal'), inr(f.beforeGst)],
    ['gst', t('catalog.pricing.gst'), inr(f.gst)],
  );
  return (
    <section
      aria-labelledby="price-breakdown"
      data-testid="price-breakdown"
      className="rounded-lg border border-stone-200 p-3 text-sm"
    >
      <h2 id="price-breakdown" className="mb-2 font-semibold text-ink">
        {t('catalog.pricing.title')}
      </h2>
      <dl className="space-y-1">
        {rows.map(([id, label, value, detail]) => (
          <div key={id} className="flex justify-between gap-3" data-testid={`price-breakdown-${id}`}>
            <dt className="text-muted">
              {label}
              {detail && <span className="block text-xs">{detail}</span>}
            </dt>
            <dd className="font-medium text-ink tabular-nums">{value}</dd>
          </div>
        ))}
        <div className="flex justify-between gap-3 border-t border-stone-200 pt-1 font-semibold">
          <dt>{t('catalog.pricing.total')}</dt>
          <dd className="tabular-nums">{inr(f.total)}</dd>
        </div>
      </dl>
      {r && f.kind === 'rate' && product.weight !== null && (
        <p className="mt-2 text-xs text-muted">
          {t('catalog.pricing.weights', { net: trim(r.netWeight), gross: String(product.weight) })}
        </p>
      )}
      <p className="mt-1 text-xs text-muted">
        {f.kind === 'rate' ? t('catalog.pricing.rateNote') : t('catalog.pricing.fixedNote')}
      </p>
    </section>
  );
}

/** The hallmark (HUID) with how to verify it, and a stone certificate, when the product has them. */
export function HallmarkDetails({ product }: { product: Product }) {
  const { t } = useTranslation();
  if (!product.huid && !product.certificate) return null;
  return (
    <section
      data-testid="hallmark"
      className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm"
    >
      {product.huid && (
        <>
          <p className="flex items-center gap-1.5 font-semibold text-ink">
            <BadgeCheck aria-hidden="true" className="h-4 w-4 text-emerald-700" />
            {t('catalog.pricing.huid', { huid: product.huid })}
          </p>
          <p className="mt-1 text-xs text-muted">{t('catalog.pricing.huidVerify')}</p>
        </>
      )}
      {product.certificate && (
        <p className="mt-1 text-ink">
          {t('catalog.pricing.certificate', {
            lab: product.certificate.lab,
            number: product.certificate.number,
          })}
          {product.certificate.fileUrl && (
            <>
              {' '}
              <a href={product.certificate.fileUrl} className="font-medium text-brand-700 underline">
                {t('catalog.pricing.certificateFile')}
              </a>
            </>
          )}
        </p>
      )}
    </section>
  );
}
