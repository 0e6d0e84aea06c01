import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AuthTabs } from '../components/auth-tabs';
import { LoginForm } from '../components/login-form';
import { RegisterForm } from '../components/register-form';
import { safeRedirect } from '../utils/redirects';
import { useRedirectAfterAuth } from '../utils/use-redirect-after-auth';

/** /customer/login: the Customer Portal; success goes to ?redirect= (e.g. /checkout), else /marketplace. */
export default function CustomerLoginPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const target = safeRedirect(searchParams.get('redirect')) ?? '/marketplace';
  const redirectAfterAuth = useRedirectAfterAuth();
  useDocumentTitle(t('auth.customer.title'));

  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <Card>
        <CardHeader className="text-center">
          <h1 className="text-2xl font-semibold text-ink">{t('auth.customer.title')}</h1>
          <CardDescription>{t('auth.customer.subtitle')}</CardDescription>
        </CardHeader>
        <CardContent>
          <AuthTabs
            login={<LoginForm onSuccess={() => redirectAfterAuth(target)} />}
            register={<RegisterForm variant="customer" onSuccess={() => redirectAfterAuth(target)} />}
          />
        </CardContent>
      </Card>
    </div>
  );
}
