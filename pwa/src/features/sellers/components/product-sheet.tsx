import { Suspense, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Product } from '../../../../../api/contract/catalog';
import { PRODUCT_CATEGORIES, PRODUCT_MATERIALS } from '../../../../../api/contract/constants';
import {
  MAX_CERTIFICATE_BYTES,
  ProductCreateSchema,
  ProductUpdateSchema,
  TRY_ON_CATEGORIES,
  type ProductCreateInput,
  type ProductUpdateInput,
  type TryOnImageInput,
} from '../../../../../api/contract/products';
import { PRICING_MESSAGES } from '../../../../../api/contract/invoices';
import { formatInr, toPaise } from '../../../../../api/contract/money';
import {
  ALL_PURITIES,
  gstInInclusive,
  METAL_PURITIES,
  METALS,
  type Metal,
} from '../../../../../api/contract/pricing';
import { Button } from '../../../components/ui/button';
import { Field, InputField, TextareaField } from '../../../components/ui/field';
import { Sheet, SheetClose, SheetContent, SheetDescription, SheetTitle } from '../../../components/ui/sheet';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { useCreateProductMutation, useUpdateProductMutation } from '../api';
import {
  apiFieldErrors,
  focusFirstInvalid,
  zodFieldErrors,
  type FieldErrors,
} from '../../../lib/form-errors';
import { TryOnImageField } from '../../tryon/public';
import { ImageEditor } from './image-editor';
import { productValueLabel } from '../utils/product-labels';
import { ListEditor } from './list-editor';

/** Text-like product fields as the form holds them (strings; blank means "not given"). */
const TEXT_FIELDS = [
  'name',
  'description',
  'price',
  'category',
  'material',
  'stockQuantity',
  'sku',
  'width',
  'height',
  'size',
  'purity',
  'weight',
  'diamondsTotalCount',
  'diamondsType',
  'diamondsTotalWeight',
  'gemstoneTotalCount',
  'gemstoneType',
  'makingCharges',
  'stoneCharges',
  'discountAmount',
  'gstAmount',
  // Rate-linked pricing and hallmark (docs/product-rules.md §10).
  'pricingMode',
  'metal',
  'metalPurity',
  'netWeight',
  'makingType',
  'makingValue',
  'huid',
  'certificateLab',
  'certificateNumber',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];
type FormField = TextField | 'images' | 'sizeAvailable' | 'isCustomMade' | 'certificateFile' | 'tryOnImage';

interface ProductValues extends Record<TextField, string> {
  images: string[];
  sizeAvailable: string[];
  isCustomMade: boolean;
  /** The certificate's file: its stored path, a chosen file (data URI), or '' for none. */
  certificateFile: string;
  /** The try-on image (its stored path or a chosen file) with its anchor, or null for none. */
  tryOnImage: TryOnImageInput | null;
}

/** docs/product-rules.md §3: a new product defaults to price 0 and stock 1. */
const NEW_PRODUCT: ProductValues = {
  ...(Object.fromEntries(TEXT_FIELDS.map((f) => [f, ''])) as Record<TextField, string>),
  price: '0',
  stockQuantity: '1',
  pricingMode: 'fixed',
  makingType: 'percent',
  images: [],
  sizeAvailable: [],
  isCustomMade: false,
  certificateFile: '',
  tryOnImage: null,
};

function valuesOf(product: Product): ProductValues {
  const values = { ...NEW_PRODUCT };
  const fields = {
    ...product,
    pricingMode: product.rateLinked ? 'rate' : 'fixed',
    metal: product.rateLinked?.metal,
    metalPurity: product.rateLinked?.purity,
    netWeight: product.rateLinked?.netWeight,
    makingType: product.rateLinked?.makingType ?? 'percent',
    makingValue: product.rateLinked?.makingValue,
    certificateLab: product.certificate?.lab,
    certificateNumber: product.certificate?.number,
  } as Record<string, unknown>;
  for (const f of TEXT_FIELDS) {
    const v = fields[f];
    values[f] = v === null || v === undefined ? '' : String(v);
  }
  values.images = product.images.map((i) => i.url);
  values.sizeAvailable = [...product.sizeAvailable];
  values.isCustomMade = product.isCustomMade;
  values.certificateFile = product.certificate?.fileUrl ?? '';
  values.tryOnImage = product.tryOnImage
    ? {
        image: product.tryOnImage.url,
        anchorX: product.tryOnImage.anchorX,
        anchorY: product.tryOnImage.anchorY,
      }
    : null;
  return values;
}

const REQUIRED_ON_UPDATE = new Set<TextField>(['name', 'description', 'price', 'category', 'material']);
const RATE_FIELDS = new Set<TextField>(['metal', 'metalPurity', 'netWeight', 'makingType', 'makingValue']);
/**
 * What a rate-linked product's form does not ask a second time (issue #48): its making charge and GST are worked
 * out from the shop's rate, its purity is the metal's purity (asSaved), and its gross weight sits beside the net.
 */
const WORKED_OUT_BY_RATE = new Set<TextField>(['makingCharges', 'gstAmount']);

/** The values as saved: a rate-linked product's purity is its metal purity. */
function asSaved(values: ProductValues): ProductValues {
  return values.pricingMode === 'rate' ? { ...values, purity: values.metalPurity } : values;
}

/** A new product's body: only the fields given (the create schema is strict). */
function createBody(form: ProductValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const values = asSaved(form);
  const rateLinked = values.pricingMode === 'rate';
  for (const f of TEXT_FIELDS) {
    const v = values[f].trim();
    // A rate-linked price comes from the shop's rate; a fixed price has no metal fields.
    if (f === 'price' && rateLinked) continue;
    if (RATE_FIELDS.has(f) && !rateLinked) continue;
    if (rateLinked && WORKED_OUT_BY_RATE.has(f)) continue;
    if (v !== '' || REQUIRED_ON_UPDATE.has(f)) body[f] = v;
  }
  body.images = values.images;
  if (values.sizeAvailable.length > 0) body.sizeAvailable = values.sizeAvailable;
  body.isCustomMade = values.isCustomMade;
  if (values.certificateFile) body.certificateFile = values.certificateFile;
  if (values.tryOnImage && canTryOn(values.category)) body.tryOnImage = values.tryOnImage;
  return body;
}

/** An edit's body: the id and the fields that changed; a cleared optional field is sent as null. */
function updateBody(id: number, before: ProductValues, form: ProductValues): Record<string, unknown> {
  const body: Record<string, unknown> = { id };
  const after = asSaved(form);
  const rateLinked = after.pricingMode === 'rate';
  for (const f of TEXT_FIELDS) {
    const v = after[f].trim();
    if (v === before[f].trim()) continue;
    // The shop's rate works these out (a value typed before switching to rate-linked is not sent).
    if (rateLinked && WORKED_OUT_BY_RATE.has(f)) continue;
    body[f] = v === '' && !REQUIRED_ON_UPDATE.has(f) ? null : v;
  }
  if (after.images.join('\n') !== before.images.join('\n')) body.images = after.images;
  if (after.sizeAvailable.join('\n') !== before.sizeAvailable.join('\n'))
    body.sizeAvailable = after.sizeAvailable;
  if (after.isCustomMade !== before.isCustomMade) body.isCustomMade = after.isCustomMade;
  if (after.certificateFile !== before.certificateFile) body.certificateFile = after.certificateFile || null;
  // A piece moved to a category that is not tried on keeps its image unsent (and unshown).
  if (
    JSON.stringify(after.tryOnImage) !== JSON.stringify(before.tryOnImage) &&
    (after.tryOnImage === null || canTryOn(after.category))
  )
    body.tryOnImage = after.tryOnImage;
  return body;
}

/** The GST inside a typed price (docs/product-rules.md §20.1), or a general hint while it is no price. */
function gstHint(price: string, t: (key: string, values?: Record<string, unknown>) => string): string {
  const text = price.trim();
  if (!/^\d{1,10}(\.\d{1,2})?$/.test(text) || !/[1-9]/.test(text)) return t('seller.productForm.gstHintAny');
  const paise = toPaise(text);
  return t('seller.productForm.gstHint', {
    price: formatInr(paise / 100),
    gst: formatInr(gstInInclusive(paise) / 100),
  });
}

const canTryOn = (category: string) => (TRY_ON_CATEGORIES as readonly string[]).includes(category);

/** The add and edit sheet: every product field of docs/product-rules.md §3 with the rules of §5. */
export function ProductSheet({
  open,
  onOpenChange,
  product,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The product to edit; absent to add a new one. */
  product?: Product;
}) {
  const { t } = useTranslation();
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        side="right"
        width="2xl"
        closeLabel={t('common.close')}
        aria-describedby="product-sheet-description"
      >
        <div className="border-b border-stone-200 px-5 py-4 pr-14 sm:px-6">
          <SheetTitle className="text-xl font-semibold text-ink">
            {product ? t('seller.products.editTitle') : t('seller.products.addTitle')}
          </SheetTitle>
          <SheetDescription id="product-sheet-description" className="text-sm text-muted">
            {product ? t('seller.products.editDescription') : t('seller.products.addDescription')}
          </SheetDescription>
        </div>
        {/* Mounted while open: each opening starts from the product (or the defaults). */}
        <ProductForm key={product?.id ?? 'new'} product={product} onDone={() => onOpenChange(false)} />
      </SheetContent>
    </Sheet>
  );
}

function ProductForm({ product, onDone }: { product?: Product; onDone: () => void }) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const create = useCreateProductMutation(setProgress);
  const update = useUpdateProductMutation(setProgress);
  const [initial] = useState(() => (product ? valuesOf(product) : NEW_PRODUCT));
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<FormField>>({});
  const saving = create.isPending || update.isPending;
  const rateLinked = values.pricingMode === 'rate';

  const set = <K extends FormField>(field: K, value: ProductValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    let input: ProductCreateInput | ProductUpdateInput;
    if (product) {
      const body = updateBody(product.id, initial, values);
      if (Object.keys(body).length === 1) {
        toast.info(t('seller.products.noChanges'));
        onDone();
        return;
      }
      const parsed = ProductUpdateSchema.safeParse(body);
      if (!parsed.success) return showErrors(zodFieldErrors<FormField>(parsed.error));
      input = parsed.data;
    } else {
      const parsed = ProductCreateSchema.safeParse(createBody(values));
      if (!parsed.success) return showErrors(zodFieldErrors<FormField>(parsed.error));
      input = parsed.data;
    }
    setProgress(0);
    try {
      const { product: saved } = product
        ? await update.mutateAsync(input as ProductUpdateInput)
        : await create.mutateAsync(input as ProductCreateInput);
      toast.success(t(product ? 'seller.products.updated' : 'seller.products.created', { name: saved.name }));
      onDone();
    } catch (err) {
      // The sheet stays open with everything typed; the toast and the fields say what to fix.
      showErrors(apiFieldErrors<FormField>(err));
      toast.error(t(product ? 'seller.products.updateFailed' : 'seller.products.createFailed'), {
        description: translateMessage(errorMessage(err)),
      });
    } finally {
      setProgress(null);
    }
  }

  function showErrors(next: FieldErrors<FormField>) {
    setErrors(next);
    focusFirstInvalid(formRef.current);
  }

  const text = (
    field: TextField,
    opts: { optional?: boolean; unit?: string; inputMode?: 'decimal' | 'numeric'; hint?: string } = {},
  ) => {
    const base = t(`seller.productForm.${field}`);
    const withUnit = opts.unit ? `${base} (${opts.unit})` : base;
    const label = opts.optional ? `${withUnit} – ${t('common.optional')}` : withUnit;
    return (
      <InputField
        label={label}
        error={errors[field]}
        hint={opts.hint}
        name={field}
        inputMode={opts.inputMode}
        autoComplete="off"
        value={values[field]}
        onChange={(e) => set(field, e.target.value)}
      />
    );
  };

  const select = (field: 'category' | 'material', options: readonly string[]) => (
    <Field label={t(`seller.productForm.${field}`)} error={errors[field]}>
      {(control) => (
        <select
          {...control}
          name={field}
          value={values[field]}
          onChange={(e) => set(field, e.target.value)}
          className="block h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-base text-ink focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600/40 aria-[invalid=true]:border-red-700"
        >
          <option value="">{t(`seller.productForm.choose.${field}`)}</option>
          {options.map((o) => (
            <option key={o} value={o}>
              {productValueLabel(t, field, o)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );

  const choice = (field: TextField, label: string, options: [string, string][], placeholder = false) => (
    <Field label={label} error={errors[field]}>
      {(control) => (
        <select
          {...control}
          name={field}
          value={values[field]}
          onChange={(e) => set(field, e.target.value)}
          className="block h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-base text-ink focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600/40 aria-[invalid=true]:border-red-700"
        >
          {placeholder && <option value="">{label}</option>}
          {options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );

  const pricingText = (
    field: TextField,
    labelKey: string,
    inputMode?: 'decimal' | 'numeric',
    hint?: string,
  ) => (
    <InputField
      label={t(`seller.productPricing.${labelKey}`)}
      error={errors[field]}
      hint={hint}
      name={field}
      inputMode={inputMode}
      autoComplete="off"
      value={values[field]}
      onChange={(e) => set(field, e.target.value)}
    />
  );

  const section = (title: string, children: ReactNode) => (
    <fieldset className="space-y-4">
      <legend className="mb-2 text-base font-semibold text-brand-800">{title}</legend>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="flex min-h-0 flex-1 flex-col">
      <div className="min-h-0 flex-1 space-y-8 overflow-y-auto px-5 py-5 sm:px-6">
        <fieldset disabled={saving} className="space-y-8">
          {section(
            t('seller.productForm.sections.basics'),
            <>
              <div className="sm:col-span-2">{text('name')}</div>
              <div className="sm:col-span-2">
                <TextareaField
                  label={t('seller.productForm.description')}
                  error={errors.description}
                  name="description"
                  rows={4}
                  value={values.description}
                  onChange={(e) => set('description', e.target.value)}
                />
              </div>
              {values.pricingMode === 'rate' ? null : text('price', { unit: '₹', inputMode: 'decimal' })}
              {text('stockQuantity', { optional: true, inputMode: 'numeric' })}
              {select('category', PRODUCT_CATEGORIES)}
              {select('material', PRODUCT_MATERIALS)}
              {text('sku', { optional: true })}
              <label className="flex items-center gap-2 self-end pb-2 text-sm font-medium text-ink">
                <input
                  type="checkbox"
                  name="isCustomMade"
                  checked={values.isCustomMade}
                  onChange={(e) => set('isCustomMade', e.target.checked)}
                  className="h-4 w-4 accent-brand-700"
                />
                {t('seller.productForm.isCustomMade')}
              </label>
            </>,
          )}
        </fieldset>

        <fieldset disabled={saving} className="space-y-4" data-testid="pricing-fields">
          <legend className="mb-2 text-base font-semibold text-brand-800">
            {t('seller.productPricing.legend')}
          </legend>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            {choice('pricingMode', t('seller.productPricing.mode'), [
              ['fixed', t('seller.productPricing.fixed')],
              ['rate', t('seller.productPricing.rate')],
            ])}
            {values.pricingMode === 'rate' && (
              <>
                {choice(
                  'metal',
                  t('seller.productPricing.metal'),
                  METALS.map((m) => [m, t(`catalog.pricing.metals.${m}`)]),
                  true,
                )}
                {choice(
                  'metalPurity',
                  t('seller.productPricing.purity'),
                  (values.metal ? METAL_PURITIES[values.metal as Metal] : ALL_PURITIES).map((p) => [p, p]),
                  true,
                )}
                {pricingText('netWeight', 'netWeight', 'decimal', t('sellerPhone.form.netWeightHint'))}
                <InputField
                  label={t('sellerPhone.form.grossWeight')}
                  error={errors.weight}
                  hint={t('sellerPhone.form.grossWeightHint')}
                  name="weight"
                  inputMode="decimal"
                  autoComplete="off"
                  value={values.weight}
                  onChange={(e) => set('weight', e.target.value)}
                />
                {choice('makingType', t('seller.productPricing.makingType'), [
                  ['percent', t('seller.productPricing.percent')],
                  ['per_gram', t('seller.productPricing.perGram')],
                ])}
                {pricingText('makingValue', 'makingValue', 'decimal')}
              </>
            )}
            {pricingText('huid', 'huid', undefined, t('seller.productPricing.huidHint'))}
            {pricingText('certificateLab', 'certificateLab')}
            {pricingText('certificateNumber', 'certificateNumber')}
            <CertificateFileField
              value={values.certificateFile}
              error={errors.certificateFile}
              onChange={(file) => set('certificateFile', file)}
              onError={(message) => setErrors((e) => ({ ...e, certificateFile: message }))}
            />
          </div>
        </fieldset>

        <ImageEditor
          images={values.images}
          onChange={(update) => {
            setValues((v) => ({ ...v, images: update(v.images) }));
            setErrors((e) => ({ ...e, images: undefined }));
          }}
          error={errors.images}
          disabled={saving}
        />

        {canTryOn(values.category) && (
          <Suspense fallback={null}>
            <TryOnImageField
              category={values.category}
              value={values.tryOnImage}
              onChange={(next) => set('tryOnImage', next)}
              onError={(message) => setErrors((e) => ({ ...e, tryOnImage: message }))}
              error={errors.tryOnImage}
              widthMm={values.width}
              heightMm={values.height}
              disabled={saving}
            />
          </Suspense>
        )}

        <fieldset disabled={saving} className="space-y-8">
          {section(
            t('seller.productForm.sections.details'),
            <>
              {rateLinked ? (
                <p className="text-sm text-muted sm:col-span-2">{t('sellerPhone.form.rateNote')}</p>
              ) : (
                <>
                  {text('purity', { optional: true, hint: t('seller.productForm.purityHint') })}
                  {text('weight', { optional: true, unit: 'g', inputMode: 'decimal' })}
                </>
              )}
              {text('width', { optional: true, unit: 'mm', inputMode: 'decimal' })}
              {text('height', { optional: true, unit: 'mm', inputMode: 'decimal' })}
              {text('size', { optional: true })}
              <div className="sm:col-span-2">
                <ListEditor
                  label={`${t('seller.productForm.sizeAvailable')} – ${t('common.optional')}`}
                  hint={t('seller.productForm.sizeAvailableHint')}
                  addLabel={t('seller.productForm.addSize')}
                  removeLabel={(name) => t('seller.productForm.removeSize', { name })}
                  value={values.sizeAvailable}
                  onChange={(next) => set('sizeAvailable', next)}
                  max={30}
                  maxLength={50}
                  error={errors.sizeAvailable}
                  disabled={saving}
                />
              </div>
            </>,
          )}
          {section(
            t('seller.productForm.sections.stones'),
            <>
              {text('diamondsTotalCount', { optional: true, inputMode: 'numeric' })}
              {text('diamondsType', { optional: true })}
              {text('diamondsTotalWeight', { optional: true, unit: 'ct', inputMode: 'decimal' })}
              {text('gemstoneTotalCount', { optional: true, inputMode: 'numeric' })}
              {text('gemstoneType', { optional: true })}
            </>,
          )}
          {section(
            t('seller.productForm.sections.charges'),
            <>
              {!rateLinked && text('makingCharges', { optional: true, unit: '₹', inputMode: 'decimal' })}
              {text('stoneCharges', { optional: true, unit: '₹', inputMode: 'decimal' })}
              {text('discountAmount', { optional: true, unit: '₹', inputMode: 'decimal' })}
              {/* The GST is the one inside the price (issue #49): the server refuses a figure that disagrees,
                  on this field; the hint names it. */}
              {!rateLinked &&
                text('gstAmount', {
                  optional: true,
                  unit: '₹',
                  inputMode: 'decimal',
                  hint: gstHint(values.price, t),
                })}
            </>,
          )}
        </fieldset>
      </div>

      <div className="space-y-3 border-t border-stone-200 bg-white px-5 py-4 sm:px-6">
        {progress !== null && (
          <div className="space-y-1">
            <p className="text-sm text-muted" aria-live="polite">
              {progress < 1
                ? t('seller.products.uploading', { percent: Math.round(progress * 100) })
                : t('seller.products.processing')}
            </p>
            <div
              role="progressbar"
              aria-label={t('seller.products.uploadProgress')}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(progress * 100)}
              className="h-1.5 w-full overflow-hidden rounded-full bg-stone-200"
            >
              <div
                className="h-full bg-brand-700 transition-all"
                style={{ width: `${Math.round(progress * 100)}%` }}
              />
            </div>
          </div>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <SheetClose asChild>
            <Button variant="outline" disabled={saving}>
              {t('common.cancel')}
            </Button>
          </SheetClose>
          <Button type="submit" loading={saving}>
            {saving
              ? t('seller.products.saving')
              : product
                ? t('seller.products.saveChanges')
                : t('seller.products.create')}
          </Button>
        </div>
      </div>
    </form>
  );
}

/**
 * The certificate's file (a lab's PDF or a photo), read in the browser as a data URI; the server checks the
 * bytes and the size again (docs/product-rules.md §10).
 */
function CertificateFileField({
  value,
  error,
  onChange,
  onError,
}: {
  value: string;
  error: string | undefined;
  onChange: (file: string) => void;
  onError: (message: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const stored = value.startsWith('/media/');
  return (
    <div className="space-y-1 sm:col-span-2">
      <label htmlFor={id} className="block text-sm font-medium text-ink">
        {t('seller.productPricing.certificateFile')}
      </label>
      {value ? (
        <p className="flex flex-wrap items-center gap-3 text-sm">
          {stored ? (
            <a href={value} className="text-brand-700 underline">
              {t('seller.productPricing.certificateFileView')}
            </a>
          ) : (
            <span>{t('seller.productPricing.certificateFileChosen')}</span>
          )}
          <Button type="button" variant="outline" size="sm" onClick={() => onChange('')}>
            {t('seller.productPricing.certificateFileRemove')}
          </Button>
        </p>
      ) : (
        <input
          id={id}
          type="file"
          accept="application/pdf,image/png,image/jpeg,image/webp"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="block w-full text-sm"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            if (file.size > MAX_CERTIFICATE_BYTES) {
              onError(translateMessage(PRICING_MESSAGES.certificateFileInvalid));
              e.target.value = '';
              return;
            }
            const reader = new FileReader();
            reader.onload = () => onChange(String(reader.result));
            reader.readAsDataURL(file);
          }}
        />
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
