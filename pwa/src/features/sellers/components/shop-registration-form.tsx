import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  SellerRegistrationSchema,
  type SellerProfile,
  type SellerRegistrationInput,
} from '../../../../../api/contract/sellers';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import {
  apiFieldErrors,
  focusFirstInvalid,
  zodFieldErrors,
  type FieldErrors,
} from '../../../lib/form-errors';
import { EMPTY_SHOP_VALUES, ShopFields, type ShopField, type ShopValues } from './shop-fields';

/**
 * The seller registration form of docs/product-rules.md §5 (plus established date and certifications), used by the new
 * seller's shop setup and the admin's registration page. What was typed stays on failure.
 */
export function ShopRegistrationForm({
  submit,
  submitLabel,
  busyLabel,
  onCreated,
  onFailure,
}: {
  submit: (input: SellerRegistrationInput) => Promise<{ profile: SellerProfile }>;
  submitLabel: string;
  busyLabel: string;
  onCreated: (profile: SellerProfile) => void;
  /** Returns true when it showed the failure itself (e.g. a page-level message). */
  onFailure?: (err: unknown) => boolean;
}) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<ShopValues>(EMPTY_SHOP_VALUES);
  const [errors, setErrors] = useState<FieldErrors<ShopField>>({});
  const [saving, setSaving] = useState(false);

  const onChange = <K extends ShopField>(field: K, value: ShopValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const { urlSlug: _slug, ...fields } = values;
    const parsed = SellerRegistrationSchema.safeParse(fields);
    if (!parsed.success) {
      setErrors(zodFieldErrors<ShopField>(parsed.error));
      focusFirstInvalid(formRef.current);
      return;
    }
    setSaving(true);
    try {
      const { profile } = await submit(parsed.data);
      toast.success(t('seller.setup.created', { shopName: profile.shopName }));
      onCreated(profile);
    } catch (err) {
      setErrors(apiFieldErrors<ShopField>(err, { url_slug_taken: 'urlSlug' }));
      focusFirstInvalid(formRef.current);
      if (!onFailure?.(err)) {
        toast.error(t('seller.setup.failed'), { description: translateMessage(errorMessage(err)) });
      }
    } finally {
      setSaving(false);
    }
  }

  return (
    <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-6">
      <ShopFields values={values} errors={errors} onChange={onChange} disabled={saving} />
      <div className="flex justify-end">
        <Button type="submit" size="lg" loading={saving} className="w-full sm:w-auto">
          {saving ? busyLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}
