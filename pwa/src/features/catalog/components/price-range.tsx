import * as Slider from '@radix-ui/react-slider';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPrice } from '../../../lib/format';
import { PRICE_MAX, PRICE_MIN, PRICE_STEP } from '../utils/marketplace-params';

/** The price range slider: 0 to 500000 in steps of 1000 (docs/product-rules.md §5); the URL changes when a thumb is let go. */
export default function PriceRange({
  min,
  max,
  onCommit,
}: {
  min: number;
  max: number;
  onCommit: (min: number, max: number) => void;
}) {
  const { t } = useTranslation();
  const [range, setRange] = useState<[number, number]>([min, max]);
  const [synced, setSynced] = useState(`${min}-${max}`);
  if (synced !== `${min}-${max}`) {
    setSynced(`${min}-${max}`);
    setRange([min, max]);
  }
  // The top of the scale is no upper limit (marketplace-params.ts): "₹5,00,000+", read as "₹5,00,000 or more".
  const label = (v: number) => (v >= PRICE_MAX ? `${formatPrice(v)}+` : formatPrice(v));
  const spoken = (v: number) =>
    v >= PRICE_MAX ? t('catalog.filters.orMore', { price: formatPrice(v) }) : formatPrice(v);
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold text-ink">{t('catalog.filters.price')}</legend>
      <Slider.Root
        className="relative flex h-6 w-full touch-none items-center select-none"
        min={PRICE_MIN}
        max={PRICE_MAX}
        step={PRICE_STEP}
        minStepsBetweenThumbs={0}
        value={range}
        onValueChange={(v) => setRange([v[0], v[1]])}
        onValueCommit={(v) => onCommit(v[0], v[1])}
      >
        <Slider.Track className="relative h-1.5 grow rounded-full bg-stone-200">
          <Slider.Range className="absolute h-full rounded-full bg-brand-700" />
        </Slider.Track>
        {(['min', 'max'] as const).map((which, i) => (
          <Slider.Thumb
            key={which}
            aria-label={t(`catalog.filters.${which}Price`)}
            aria-valuetext={spoken(range[i])}
            className="block h-5 w-5 rounded-full border-2 border-brand-700 bg-white shadow focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          />
        ))}
      </Slider.Root>
      <p
        className="flex justify-between text-sm text-ink"
        aria-hidden="true"
        data-testid="price-range-labels"
      >
        <span>{label(range[0])}</span>
        <span>{label(range[1])}</span>
      </p>
    </fieldset>
  );
}
