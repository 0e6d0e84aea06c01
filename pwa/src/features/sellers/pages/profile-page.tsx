import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { UserRoundX } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { SellerProfileUpdateSchema, type SellerProfile } from '../../../../../api/contract/sellers';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { sessionQuery } from '../../../lib/session';
import { useUpdateSellerProfileMutation } from '../api';
import { ApprovalBanner } from '../components/approval-banner';
import { useOwnProfile } from '../components/page-states';
import {
  SHOP_TEXT_FIELDS,
  ShopFields,
  type ShopField,
  type ShopTextField,
  type ShopValues,
} from '../components/shop-fields';
import { VideoSettings } from '../components/video-settings';
import {
  apiFieldErrors,
  focusFirstInvalid,
  zodFieldErrors,
  type FieldErrors,
} from '../../../lib/form-errors';
import { storePath } from '../../../lib/store-path';

/** Required on the profile: left blank they are refused ('X is required.'), not silently skipped. */
const REQUIRED = new Set<ShopTextField>(['shopName', 'shopAddress', 'city', 'state', 'pincode', 'phone']);

function valuesOf(profile: SellerProfile): ShopValues {
  const values = { certifications: [...profile.certifications] } as ShopValues;
  for (const f of SHOP_TEXT_FIELDS) values[f] = profile[f] ?? '';
  return values;
}

/**
 * What to send: the fields that changed, trimmed; blank optional fields are omitted (docs/product-rules.md §5), blank required
 * ones are kept so the schema says which is required.
 */
export function profileChanges(before: ShopValues, after: ShopValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of SHOP_TEXT_FIELDS) {
    const next = after[f].trim();
    if (next === before[f].trim()) continue;
    if (next === '' && !REQUIRED.has(f)) continue;
    out[f] = next;
  }
  if (after.certifications.join('\n') !== before.certifications.join('\n')) {
    out.certifications = after.certifications;
  }
  return out;
}

/** /seller/profile (seller, admin): the shop profile form and the #video-settings section. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { profile, pending } = useOwnProfile(t('seller.profile.title'));

  let body: ReactNode;
  if (pending) body = pending;
  else if (!profile.data) body = <NoProfile />;
  else
    body = (
      <>
        <ApprovalBanner isApproved={profile.data.isApproved} />
        <ProfileForm key={profile.data.id} profile={profile.data} />
        <VideoSettings profile={profile.data} />
      </>
    );

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold text-brand-800">{t('seller.profile.title')}</h1>
        <p className="text-muted">{t('seller.profile.subtitle')}</p>
      </div>
      {body}
    </div>
  );
}

function NoProfile() {
  const { t } = useTranslation();
  const session = useQuery(sessionQuery());
  const to = session.data?.role === 'admin' ? '/seller/register' : '/seller/profile/setup';
  return (
    <Card>
      <EmptyState
        icon={<UserRoundX className="h-8 w-8" />}
        title={t('seller.profile.notFoundTitle')}
        description={t('seller.profile.notFound')}
        action={
          <Link to={to} className={buttonClasses()}>
            {t('seller.profile.completeRegistration')}
          </Link>
        }
      />
    </Card>
  );
}

function ProfileForm({ profile }: { profile: SellerProfile }) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const update = useUpdateSellerProfileMutation();
  const [baseline, setBaseline] = useState(() => valuesOf(profile));
  const [values, setValues] = useState(baseline);
  const [errors, setErrors] = useState<FieldErrors<ShopField>>({});

  const onChange = <K extends ShopField>(field: K, value: ShopValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (update.isPending) return;
    const changes = profileChanges(baseline, values);
    if (Object.keys(changes).length === 0) {
      toast.info(t('seller.profile.noChanges'));
      return;
    }
    const parsed = SellerProfileUpdateSchema.safeParse(changes);
    if (!parsed.success) {
      setErrors(zodFieldErrors<ShopField>(parsed.error));
      focusFirstInvalid(formRef.current);
      return;
    }
    try {
      const { profile: saved } = await update.mutateAsync(parsed.data);
      const next = valuesOf(saved);
      setBaseline(next);
      // Keep what the server normalised (trimmed text, upper-case GST); blanks left by the seller stay blank.
      setValues(next);
      setErrors({});
      toast.success(t('seller.profile.saved'));
    } catch (err) {
      setErrors(apiFieldErrors<ShopField>(err, { url_slug_taken: 'urlSlug' }));
      focusFirstInvalid(formRef.current);
      toast.error(t('seller.profile.saveFailed'), { description: translateMessage(errorMessage(err)) });
    }
  }

  const store = storePath({ urlSlug: values.urlSlug.trim() || profile.urlSlug, userId: profile.userId });
  return (
    <Card>
      <CardHeader>
        <h2 className="text-xl font-semibold text-ink">{t('seller.profile.formTitle')}</h2>
        <CardDescription>
          {t('seller.profile.storeAt')}{' '}
          <a href={storePath(profile)} className="break-all text-brand-700 underline">
            {new URL(store, window.location.origin).href}
          </a>
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form ref={formRef} noValidate onSubmit={onSubmit} className="space-y-6">
          <ShopFields
            values={values}
            errors={errors}
            onChange={onChange}
            withSlug
            disabled={update.isPending}
          />
          <div className="flex justify-end">
            <Button type="submit" size="lg" loading={update.isPending} className="w-full sm:w-auto">
              {update.isPending ? t('seller.profile.saving') : t('seller.profile.save')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
