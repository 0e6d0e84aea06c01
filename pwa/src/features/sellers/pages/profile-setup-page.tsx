import { Store } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { useSetupProfileMutation } from '../api';
import { NewShopPage } from '../components/new-shop-page';
import { ShopRegistrationForm } from '../components/shop-registration-form';

/** /seller/profile/setup: right after signing up, the new seller creates the shop (pending approval). */
export default function ProfileSetupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const setup = useSetupProfileMutation();

  return (
    <NewShopPage title={t('seller.setup.title')} subtitle={t('seller.setup.subtitle')}>
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
    </NewShopPage>
  );
}
