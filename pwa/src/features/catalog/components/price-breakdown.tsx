import { BadgeCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatInr, toPaise } from '../../../../../api/contract/money';
import type { Product } from '../../../../../api/contract/catalog';
import { gramsToMg, priceBreakdown } from '../../../../../api/contract/pricing';

const inr = (paise: number) => formatInr(paise / 100);

/** Trailing zeros of a decimal string dropped: "10.500" → "10.5". */
const trim = (v: string) => (v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v);

/**
 * A rate-linked product's price breakdown (docs/product-rules.md §10): metal (purity, net and gross weight, the
 * rate, the value), making charge, stones, subtotal, GST 3 %, total, computed with the contract's arithmetic
 * from the rate the price was set from.
 */
export function PriceBreakdown({ product }: { product: Product }) {
  const { t } = useTranslation();
  const r = product.rateLinked;
  if (!r) return null;
  const b = priceBreakdown({
    ratePaisePerGram: toPaise(r.ratePerGram),
    netWeightMg: gramsToMg(r.netWeight),
    makingType: r.makingType,
    makingHundredths: toPaise(r.makingValue),
    stonePaise: product.stoneCharges ? toPaise(product.stoneCharges) : 0,
  });
  const metal = t(`catalog.pricing.metals.${r.metal}`);
  const rows: [string, string, string?][] = [
    [
      t('catalog.pricing.metalValue', { metal, purity: r.purity }),
      inr(b.metalValue),
      t('catalog.pricing.metalDetail', {
        net: trim(r.netWeight),
        rate: formatInr(toPaise(r.ratePerGram) / 100),
      }),
    ],
    [
      r.makingType === 'percent'
        ? t('catalog.pricing.makingPercent', { value: trim(r.makingValue) })
        : t('catalog.pricing.makingPerGram', { value: formatInr(toPaise(r.makingValue) / 100) }),
      inr(b.making),
    ],
    [t('catalog.pricing.stones'), inr(b.stones)],
    [t('catalog.pricing.subtotal'), inr(b.subtotal)],
    [t('catalog.pricing.gst'), inr(b.gst)],
  ];
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
        {rows.map(([label, value, detail]) => (
          <div key={label} className="flex justify-between gap-3">
            <dt className="text-muted">
              {label}
              {detail && <span className="block text-xs">{detail}</span>}
            </dt>
            <dd className="font-medium text-ink tabular-nums">{value}</dd>
          </div>
        ))}
        <div className="flex justify-between gap-3 border-t border-stone-200 pt-1 font-semibold">
          <dt>{t('catalog.pricing.total')}</dt>
          <dd className="tabular-nums">{inr(b.total)}</dd>
        </div>
      </dl>
      {product.weight !== null && (
        <p className="mt-2 text-xs text-muted">
          {t('catalog.pricing.weights', { net: trim(r.netWeight), gross: String(product.weight) })}
        </p>
      )}
      <p className="mt-1 text-xs text-muted">{t('catalog.pricing.rateNote')}</p>
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
