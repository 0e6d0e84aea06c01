import { useTranslation } from 'react-i18next';
import type { PieceFigures } from '../../../api/contract/figures';
import { formatInr } from '../../../api/contract/money';

const inr = (paise: number) => formatInr(paise / 100);

/**
 * What a price is made of (issue #49, docs/product-rules.md §20.1): metal, making charge, stones, the price before
 * GST and the GST 3 % inside the price, as rows of a description list that add up on the screen. A stones row
 * of ₹0 is not shown; a fixed price with nothing stated beside it shows only the price before GST and the GST.
 * `total` adds the total row (left out where the caller shows its own).
 */
export function PriceFigureRows({
  figures,
  testIdPrefix,
  total = false,
}: {
  figures: PieceFigures;
  testIdPrefix: string;
  total?: boolean;
}) {
  const { t } = useTranslation();
  const parts = figures.kind === 'rate' || figures.making > 0 || figures.stones > 0;
  const rows: [string, string, number][] = [];
  if (parts) {
    rows.push([
      'metal',
      figures.kind === 'rate' ? t('cart.figures.metal') : t('cart.figures.metalOther'),
      figures.metal,
    ]);
    if (figures.kind === 'rate' || figures.making > 0)
      rows.push(['making', t('cart.figures.making'), figures.making]);
    if (figures.stones > 0) rows.push(['stones', t('cart.figures.stones'), figures.stones]);
  }
  rows.push(['before-gst', t('cart.figures.beforeGst'), figures.beforeGst]);
  rows.push(['gst', t('cart.figures.gst'), figures.gst]);
  if (total) rows.push(['total', t('cart.figures.total'), figures.total]);
  return (
    <>
      {rows.map(([id, label, paise]) => (
        <div
          key={id}
          className={
            id === 'total'
              ? 'flex justify-between gap-3 border-t border-stone-200 pt-1 font-semibold text-ink'
              : 'flex justify-between gap-3'
          }
        >
          <dt className={id === 'total' ? '' : 'text-muted'}>{label}</dt>
          <dd className="font-medium text-ink tabular-nums" data-testid={`${testIdPrefix}-${id}`}>
            {inr(paise)}
          </dd>
        </div>
      ))}
    </>
  );
}

/** A line's unit figures behind a disclosure of the browser's own ("Price breakdown"), for the cart and checkout. */
export function LineFigures({ figures, testIdPrefix }: { figures: PieceFigures; testIdPrefix: string }) {
  const { t } = useTranslation();
  return (
    <details className="mt-1 text-xs" data-testid={`${testIdPrefix}-details`}>
      <summary className="cursor-pointer text-brand-800 underline focus-visible:outline-2 focus-visible:outline-brand-600">
        {t('cart.figures.lineTitle')}
      </summary>
      <dl className="mt-1 space-y-0.5">
        <PriceFigureRows figures={figures} testIdPrefix={testIdPrefix} total />
      </dl>
    </details>
  );
}
