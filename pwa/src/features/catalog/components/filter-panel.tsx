import * as Slider from '@radix-ui/react-slider';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PRODUCT_MATERIALS, type ProductMaterial } from '../../../../../api/contract/constants';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { formatPrice } from '../../../lib/format';
import { PRICE_MAX, PRICE_MIN, PRICE_STEP, type MarketplaceFilters } from '../utils/marketplace-params';

export interface FilterChange {
  material?: ProductMaterial | undefined;
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
}

function PriceRange({
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
  const label = (v: number) => formatPrice(v, 'whole');
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
            aria-valuetext={label(range[i])}
            className="block h-5 w-5 rounded-full border-2 border-brand-700 bg-white shadow focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          />
        ))}
      </Slider.Root>
      <p className="flex justify-between text-sm text-ink" aria-hidden="true">
        <span>{label(range[0])}</span>
        <span>{label(range[1])}</span>
      </p>
    </fieldset>
  );
}

/** Material and price filters; the same panel sits beside the grid on wide screens and in a sheet on phones. */
export function FilterPanel({
  filters,
  onChange,
  idPrefix,
}: {
  filters: MarketplaceFilters;
  onChange: (change: FilterChange) => void;
  idPrefix: string;
}) {
  const { t } = useTranslation();
  const hasFilters =
    filters.material !== undefined || filters.minPrice !== undefined || filters.maxPrice !== undefined;
  return (
    <div className="space-y-6">
      <fieldset>
        <legend className="mb-2 text-sm font-semibold text-ink">{t('catalog.filters.material')}</legend>
        <ul className="grid grid-cols-2 gap-1 md:grid-cols-1">
          {[undefined, ...PRODUCT_MATERIALS].map((m) => {
            const id = `${idPrefix}-material-${m ?? 'all'}`;
            const checked = filters.material === m;
            return (
              <li key={m ?? 'all'}>
                <input
                  type="radio"
                  id={id}
                  name={`${idPrefix}-material`}
                  className="peer sr-only"
                  checked={checked}
                  onChange={() => onChange({ material: m })}
                />
                <label
                  htmlFor={id}
                  className={cn(
                    'flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm',
                    'peer-focus-visible:outline-2 peer-focus-visible:outline-brand-600',
                    checked ? 'bg-brand-50 font-semibold text-brand-800' : 'text-ink hover:bg-stone-100',
                  )}
                >
                  <span
                    aria-hidden="true"
                    className={cn(
                      'inline-block h-3.5 w-3.5 shrink-0 rounded-full border-2',
                      checked
                        ? 'border-brand-700 bg-brand-700 ring-2 ring-white ring-inset'
                        : 'border-stone-400',
                    )}
                  />
                  <span className="first-letter:uppercase">
                    {m ? t(`catalog.materials.${m}`) : t('catalog.filters.allMaterials')}
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <PriceRange
        min={filters.minPrice ?? PRICE_MIN}
        max={filters.maxPrice ?? PRICE_MAX}
        onCommit={(min, max) => onChange({ minPrice: min, maxPrice: max })}
      />
      {hasFilters && (
        <Button
          variant="outline"
          className="w-full"
          onClick={() => onChange({ material: undefined, minPrice: undefined, maxPrice: undefined })}
        >
          {t('catalog.filters.clear')}
        </Button>
      )}
    </div>
  );
}
