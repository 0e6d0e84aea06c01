import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ReceiptIndianRupee } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { TaxSettingsSchema, type TaxSettings } from '../../../../../api/contract/invoices';
import {
  documentNumber,
  financialYear,
  GST_STATE_CODES,
  GST_STATES,
} from '../../../../../api/contract/pricing';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Field, InputField } from '../../../components/ui/field';
import { api, errorMessage } from '../../../lib/api-client';
import { zodFieldErrors, type FieldErrors } from '../../../lib/form-errors';
import { translateMessage } from '../../../lib/i18n';

type Fields = 'legalName' | 'gstin' | 'stateCode' | 'invoicePrefix';
const taxQuery = { queryKey: ['sellers', 'tax-settings'] as const };

/** The shop's legal name, GSTIN, GST state and invoice prefix for its tax invoices (docs/product-rules.md §10). */
export function TaxSettingsCard() {
  const settings = useQuery({
    ...taxQuery,
    queryFn: ({ signal }) => api.call(API_ROUTES.sellerTaxSettings, undefined, { signal }),
  });
  if (!settings.data?.settings) return null;
  return <TaxSettingsForm key={JSON.stringify(settings.data.settings)} initial={settings.data.settings} />;
}

function TaxSettingsForm({ initial }: { initial: TaxSettings }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Record<Fields, string>>({
    legalName: initial.legalName ?? '',
    gstin: initial.gstin ?? '',
    stateCode: initial.stateCode ?? '',
    invoicePrefix: initial.invoicePrefix,
  });
  const [errors, setErrors] = useState<FieldErrors<Fields>>({});
  const save = useMutation({
    mutationFn: (input: Record<Fields, string>) => api.call(API_ROUTES.sellerTaxSettingsSet, input),
    onSuccess: (answer) => {
      queryClient.setQueryData(taxQuery.queryKey, answer);
      toast.success(t('seller.taxSettings.saved'));
    },
    onError: (err) =>
      toast.error(t('seller.taxSettings.failed', { message: translateMessage(errorMessage(err)) })),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = TaxSettingsSchema.safeParse(values);
    if (!parsed.success) return setErrors(zodFieldErrors<Fields>(parsed.error));
    setErrors({});
    save.mutate(parsed.data);
  };
  const set = (field: Fields, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };
  const prefix = /^[A-Za-z]{2,6}$/.test(values.invoicePrefix) ? values.invoicePrefix.toUpperCase() : 'LAK';
  return (
    <Card data-testid="tax-settings-card">
      <CardHeader className="flex flex-row items-center gap-2">
        <ReceiptIndianRupee aria-hidden="true" className="h-5 w-5 text-brand-700" />
        <CardTitle className="text-lg">{t('seller.taxSettings.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        <p className="mb-3 text-sm text-muted">{t('seller.taxSettings.description')}</p>
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <InputField
            label={t('seller.taxSettings.legalName')}
            name="legalName"
            value={values.legalName}
            error={errors.legalName}
            onChange={(e) => set('legalName', e.target.value)}
          />
          <InputField
            label={t('seller.taxSettings.gstin')}
            name="gstin"
            autoComplete="off"
            value={values.gstin}
            error={errors.gstin}
            onChange={(e) => set('gstin', e.target.value)}
          />
          <Field label={t('seller.taxSettings.stateCode')} error={errors.stateCode}>
            {(control) => (
              <select
                {...control}
                name="stateCode"
                value={values.stateCode}
                onChange={(e) => set('stateCode', e.target.value)}
                className="block h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-base text-ink"
              >
                <option value="">{t('seller.taxSettings.chooseState')}</option>
                {GST_STATE_CODES.map((code) => (
                  <option key={code} value={code}>
                    {code} – {GST_STATES[code]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <InputField
            label={t('seller.taxSettings.invoicePrefix')}
            name="invoicePrefix"
            autoComplete="off"
            value={values.invoicePrefix}
            error={errors.invoicePrefix}
            hint={t('seller.taxSettings.prefixHint', {
              example: documentNumber('invoice', prefix, financialYear(new Date()), 1),
            })}
            onChange={(e) => set('invoicePrefix', e.target.value)}
          />
          <div className="sm:col-span-2">
            <Button type="submit" size="sm" loading={save.isPending}>
              {t('seller.taxSettings.save')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
