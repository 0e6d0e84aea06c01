import { useTranslation } from 'react-i18next';
import { Field } from '../../../components/ui/field';
import { Input, Textarea } from '../../../components/ui/input';
import { ListEditor } from './list-editor';

/** The text fields of a shop profile as a form holds them (everything a string; blanks mean "not given"). */
export const SHOP_TEXT_FIELDS = [
  'shopName',
  'description',
  'shopAddress',
  'city',
  'state',
  'pincode',
  'phone',
  'whatsappNumber',
  'gstNumber',
  'businessLicense',
  'establishedDate',
  'urlSlug',
] as const;
export type ShopTextField = (typeof SHOP_TEXT_FIELDS)[number];
export type ShopField = ShopTextField | 'certifications';

export interface ShopValues extends Record<ShopTextField, string> {
  certifications: string[];
}

export const EMPTY_SHOP_VALUES: ShopValues = {
  shopName: '',
  description: '',
  shopAddress: '',
  city: '',
  state: '',
  pincode: '',
  phone: '',
  whatsappNumber: '',
  gstNumber: '',
  businessLicense: '',
  establishedDate: '',
  urlSlug: '',
  certifications: [],
};

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The shop profile fields shared by the setup, registration and profile forms. Required ones are marked in
 * the label; hints carry the product rules' '10-digit mobile number' and the unique URL-friendly slug.
 */
export function ShopFields({
  values,
  errors,
  onChange,
  withSlug = false,
  disabled,
}: {
  values: ShopValues;
  errors: Partial<Record<ShopField, string>>;
  onChange: <K extends ShopField>(field: K, value: ShopValues[K]) => void;
  withSlug?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const label = (field: ShopTextField | 'certifications', optional = false) =>
    optional ? `${t(`seller.form.${field}`)} (${t('common.optional')})` : t(`seller.form.${field}`);

  const text = (
    field: ShopTextField,
    opts: {
      optional?: boolean;
      hint?: string;
      type?: string;
      inputMode?: 'numeric' | 'tel' | 'text';
      autoComplete?: string;
      maxLength?: number;
      className?: string;
    } = {},
  ) => (
    <Field
      label={label(field, opts.optional)}
      hint={opts.hint}
      error={errors[field]}
      className={opts.className}
    >
      {(control) => (
        <Input
          {...control}
          name={field}
          type={opts.type ?? 'text'}
          inputMode={opts.inputMode}
          autoComplete={opts.autoComplete ?? 'off'}
          maxLength={opts.maxLength}
          max={opts.type === 'date' ? today() : undefined}
          value={values[field]}
          onChange={(e) => onChange(field, e.target.value)}
        />
      )}
    </Field>
  );

  return (
    <fieldset className="grid grid-cols-1 gap-4 sm:grid-cols-2" disabled={disabled}>
      <legend className="sr-only">{t('seller.form.legend')}</legend>
      {text('shopName', {
        autoComplete: 'organization',
        maxLength: 100,
        className: 'space-y-1.5 sm:col-span-2',
      })}
      <Field
        label={label('description', true)}
        hint={t('seller.form.descriptionHint', { count: values.description.length })}
        error={errors.description}
        className="space-y-1.5 sm:col-span-2"
      >
        {(control) => (
          <Textarea
            {...control}
            name="description"
            rows={3}
            maxLength={500}
            value={values.description}
            onChange={(e) => onChange('description', e.target.value)}
          />
        )}
      </Field>
      <Field label={label('shopAddress')} error={errors.shopAddress} className="space-y-1.5 sm:col-span-2">
        {(control) => (
          <Textarea
            {...control}
            name="shopAddress"
            rows={2}
            maxLength={300}
            autoComplete="street-address"
            value={values.shopAddress}
            onChange={(e) => onChange('shopAddress', e.target.value)}
          />
        )}
      </Field>
      {text('city', { autoComplete: 'address-level2', maxLength: 100 })}
      {text('state', { autoComplete: 'address-level1', maxLength: 100 })}
      {text('pincode', { inputMode: 'numeric', autoComplete: 'postal-code', maxLength: 6 })}
      {text('phone', {
        type: 'tel',
        inputMode: 'tel',
        autoComplete: 'tel-national',
        hint: t('seller.form.mobileHint'),
      })}
      {text('whatsappNumber', {
        optional: true,
        type: 'tel',
        inputMode: 'tel',
        hint: t('seller.form.mobileHint'),
      })}
      {text('gstNumber', { optional: true, maxLength: 15, hint: t('seller.form.gstHint') })}
      {text('businessLicense', { optional: true, maxLength: 100 })}
      {text('establishedDate', { optional: true, type: 'date' })}
      {withSlug &&
        text('urlSlug', {
          optional: true,
          maxLength: 50,
          hint: t('seller.form.urlSlugHint'),
          className: 'space-y-1.5 sm:col-span-2',
        })}
      <div className="sm:col-span-2">
        <ListEditor
          label={label('certifications', true)}
          hint={t('seller.form.certificationsHint')}
          placeholder={t('seller.form.certificationPlaceholder')}
          addLabel={t('seller.form.addCertification')}
          removeLabel={(name) => t('seller.form.removeCertification', { name })}
          value={values.certifications}
          onChange={(next) => onChange('certifications', next)}
          max={20}
          maxLength={100}
          error={errors.certifications}
          disabled={disabled}
        />
      </div>
    </fieldset>
  );
}
