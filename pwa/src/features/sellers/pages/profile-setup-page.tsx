import { useQuery } from '@tanstack/react-query';
import { Store } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { sellerQueries, useSetupProfileMutation } from '../api';
import { ErrorCard, SellerPageSkeleton } from '../components/page-states';
import { ShopRegistrationForm } from '../components/shop-registration-form';

/** /seller/profile/setup: right after signing up, the new seller creates the shop (pending approval). */
export default function ProfileSetupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const profile = useQuery(sellerQueries.profile());
  const setup = useSetupProfileMutation();
  useDocumentTitle(t('seller.setup.title'));

  let body;
  if (profile.isPending) body = <SellerPageSkeleton label={t('common.loading')} />;
  else if (profile.isError)
    body = (
      <ErrorCard
        title={t('seller.dashboard.failedToLoadProfile')}
        message={translateMessage(errorMessage(profile.error))}
        onRetry={() => void profile.refetch()}
      />
    );
  // One profile per seller: someone who already has a shop manages it from the dashboard.
  else if (profile.data) return <Navigate to="/seller/dashboard" replace />;
  else
    body = (
      <Card>
        <CardHeader>
          <h2 className="flex items-center gap-2 text-xl font-semibold text-ink">
            <Store aria-hidden="true" className="h-5 w-5 text-brand-700" />
            {t('seller.setup.formTitle')}
          </h2>
          <CardDescription>{t('seller.setup.formDescription')}</CardDescription>
        </CardHeader>
        <CardContent>
          <ShopRegistrationForm
            submit={(input) => setup.mutateAsync(input)}
            submitLabel={t('seller.setup.submit')}
            busyLabel={t('seller.setup.submitting')}
            onCreated={() => navigate('/seller/dashboard')}
          />
        </CardContent>
      </Card>
    );

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold text-brand-800">{t('seller.setup.title')}</h1>
        <p className="text-muted">{t('seller.setup.subtitle')}</p>
      </div>
      {body}
    </div>
  );
}
