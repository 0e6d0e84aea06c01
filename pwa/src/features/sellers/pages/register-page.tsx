import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { sessionQuery } from '../../accounts/api';
import { sellerQueries, useRegisterSellerMutation } from '../api';
import { FormAlert } from '../components/form-alert';
import { ErrorCard, SellerPageSkeleton } from '../components/page-states';
import { ShopRegistrationForm } from '../components/shop-registration-form';

/**
 * /seller/register: the registration form, an admin tool (spec §6). With a profile it goes to the dashboard;
 * for anyone else the server's refusal ('Seller registration is only available for administrators.') shows.
 */
export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useQuery(sessionQuery());
  const profile = useQuery(sellerQueries.profile());
  const register = useRegisterSellerMutation();
  const [refusal, setRefusal] = useState<string | null>(null);
  useDocumentTitle(t('seller.register.title'));

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
  else if (profile.data) return <Navigate to="/seller/dashboard" replace />;
  else
    body = (
      <Card>
        <CardHeader>
          <h2 className="text-xl font-semibold text-ink">{t('seller.register.formTitle')}</h2>
          <CardDescription>{t('seller.register.formDescription')}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <FormAlert message={refusal} />
          {refusal && session.data?.role === 'seller' && (
            <p className="text-sm">
              <Link to="/seller/profile/setup" className="font-medium text-brand-700 underline">
                {t('seller.register.setupInstead')}
              </Link>
            </p>
          )}
          <ShopRegistrationForm
            submit={(input) => register.mutateAsync(input)}
            submitLabel={t('seller.register.submit')}
            busyLabel={t('seller.setup.submitting')}
            onCreated={() => navigate('/seller/dashboard')}
            onFailure={(err) => {
              if (err instanceof ApiError && err.status === 403) {
                setRefusal(translateMessage(err.message));
                return true;
              }
              setRefusal(null);
              return false;
            }}
          />
        </CardContent>
      </Card>
    );

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold text-brand-800">{t('seller.register.title')}</h1>
        <p className="text-muted">{t('seller.register.subtitle')}</p>
      </div>
      {body}
    </div>
  );
}
