import { lazy, Suspense, useId, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TRY_ON, TRY_ON_MESSAGES, type TryOnImageInput } from '../../../../api/contract/products';
import { Button } from '../../components/ui/button';
import { translateMessage } from '../../lib/i18n';
import { DEFAULT_ANCHOR, tryOnKind } from './geometry';

// The sample face's picture and landmarks load with the first try-on image chosen, not with the form.
const SamplePreview = lazy(() => import('./sample-preview'));

export interface TryOnImageFieldProps {
  category: string;
  value: TryOnImageInput | null;
  onChange: (value: TryOnImageInput | null) => void;
  onError: (message: string) => void;
  error: string | undefined;
  /** The piece's millimetres as the form holds them (blank: a typical piece of its kind). */
  widthMm: string;
  heightMm: string;
  disabled?: boolean;
}

const mm = (v: string) => {
  const n = Number(v.trim());
  return v.trim() !== '' && Number.isFinite(n) && n > 0 ? n : null;
};
const percent = (f: number) => Math.round(f * 1000) / 10;

/**
 * The try-on image of an earring, nose pin, necklace or pendant (docs/product-rules.md §16): a front view on a
 * transparent background, the point it is held by (a tap on the picture, or the two numbers), and a live
 * preview on a sample face drawn by the try-on's own geometry. The server checks the file again.
 */
export default function TryOnImageField({
  category,
  value,
  onChange,
  onError,
  error,
  widthMm,
  heightMm,
  disabled,
}: TryOnImageFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const kind = tryOnKind(category);
  if (!kind) return null;

  const choose = (file: File) => {
    if (file.size > TRY_ON.maxBytes || !['image/png', 'image/webp'].includes(file.type)) {
      onError(translateMessage(TRY_ON_MESSAGES.imageInvalid));
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      const anchor = value ?? { anchorX: DEFAULT_ANCHOR[kind].x, anchorY: DEFAULT_ANCHOR[kind].y };
      onChange({ image: String(reader.result), anchorX: anchor.anchorX, anchorY: anchor.anchorY });
    };
    reader.readAsDataURL(file);
  };

  const pick = (e: MouseEvent<HTMLImageElement>) => {
    if (!value || disabled) return;
    const box = e.currentTarget.getBoundingClientRect();
    const clamp = (n: number) => Math.min(1, Math.max(0, Math.round(n * 1000) / 1000));
    onChange({
      ...value,
      anchorX: clamp((e.clientX - box.left) / box.width),
      anchorY: clamp((e.clientY - box.top) / box.height),
    });
  };

  const anchorInput = (axis: 'anchorX' | 'anchorY') =>
    value && (
      <label className="block min-w-0 flex-1 text-sm font-medium text-ink">
        {t(`seller.tryOnImage.${axis}`)}
        <input
          type="number"
          name={axis}
          min={0}
          max={100}
          step={0.5}
          inputMode="decimal"
          disabled={disabled}
          value={percent(value[axis])}
          onChange={(e) => {
            const n = Number(e.target.value);
            if (Number.isFinite(n)) onChange({ ...value, [axis]: Math.min(100, Math.max(0, n)) / 100 });
          }}
          className="mt-1 block h-10 w-full min-w-0 rounded-md border border-stone-300 bg-white px-3 text-base text-ink"
        />
      </label>
    );

  return (
    <fieldset className="space-y-3" disabled={disabled} data-testid="try-on-image-field">
      <legend className="mb-1 text-base font-semibold text-brand-800">
        {t('seller.tryOnImage.legend')} – {t('common.optional')}
      </legend>
      <p id={`${id}-hint`} className="text-sm text-muted">
        {t(`seller.tryOnImage.hint.${kind}`)}
      </p>
      <div className="space-y-1">
        <label htmlFor={id} className="block text-sm font-medium text-ink">
          {value ? t('seller.tryOnImage.replace') : t('seller.tryOnImage.choose')}
        </label>
        <input
          id={id}
          type="file"
          accept="image/png,image/webp"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          className="block w-full min-w-0 text-sm"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) choose(file);
            e.target.value = '';
          }}
        />
        {error && (
          <p id={`${id}-error`} className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
      {value && (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <div className="min-w-0 space-y-2">
            <p className="text-sm font-medium text-ink">{t('seller.tryOnImage.anchor')}</p>
            <div className="relative inline-block max-w-full rounded-md bg-[repeating-conic-gradient(#e7e5e4_0_25%,#fff_0_50%)] bg-[length:16px_16px]">
              {/* A pointer's way to set the anchor; the two number fields below are the keyboard's. */}
              <img
                src={value.image}
                alt={t('seller.tryOnImage.imageAlt')}
                onClick={pick}
                data-testid="try-on-anchor-image"
                className="block max-h-56 max-w-full cursor-crosshair"
              />
              <span
                aria-hidden="true"
                className="pointer-events-none absolute h-4 w-4 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-red-700 shadow"
                style={{ left: `${value.anchorX * 100}%`, top: `${value.anchorY * 100}%` }}
              />
            </div>
            <div className="flex gap-3">
              {anchorInput('anchorX')}
              {anchorInput('anchorY')}
            </div>
            <Button type="button" variant="outline" size="sm" onClick={() => onChange(null)}>
              {t('seller.tryOnImage.remove')}
            </Button>
          </div>
          <div className="min-w-0 space-y-2">
            <p className="text-sm font-medium text-ink">{t('seller.tryOnImage.preview')}</p>
            <Suspense fallback={<div className="aspect-square w-full max-w-72 rounded-md bg-stone-200" />}>
              <SamplePreview
                kind={kind}
                image={value.image}
                anchorX={value.anchorX}
                anchorY={value.anchorY}
                widthMm={mm(widthMm)}
                heightMm={mm(heightMm)}
                label={t('seller.tryOnImage.previewLabel')}
              />
            </Suspense>
          </div>
        </div>
      )}
    </fieldset>
  );
}
