import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { ApiError } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { sessionQuery } from '../../../lib/session';
import { useRegisterSellerMutation } from '../api';
import { FormAlert } from '../../../components/form-alert';
import { NewShopPage } from '../components/new-shop-page';
import { ShopRegistrationForm } from '../components/shop-registration-form';

/**
 * /seller/register: the registration form, an admin tool (docs/product-rules.md §6). With a profile it goes to the dashboard;
 * for anyone else the server's refusal ('Seller registration is only available for administrators.') shows.
 */
export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useQuery(sessionQuery());
  const register = useRegisterSellerMutation();
  const [refusal, setRefusal] = useState<string | null>(null);

  return (
    <NewShopPage title={t('seller.register.title')} subtitle={t('seller.register.subtitle')}>
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
    </NewShopPage>
  );
}
