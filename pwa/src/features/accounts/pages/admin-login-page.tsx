import { ShieldCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { AuthTabs } from '../components/auth-tabs';
import { LoginForm } from '../components/login-form';
import { RegisterForm } from '../components/register-form';
import { safeRedirect } from '../utils/redirects';
import { useRedirectAfterAuth } from '../utils/use-redirect-after-auth';

/** /admin/login (English only): success goes to /admin/dashboard. */
export default function AdminLoginPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const target = safeRedirect(searchParams.get('redirect')) ?? '/admin/dashboard';
  const redirectAfterAuth = useRedirectAfterAuth();
  useDocumentTitle(t('auth.admin.title'));

  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <Card>
        <CardHeader className="flex flex-col items-center text-center">
          <ShieldCheck aria-hidden="true" className="mb-1 h-8 w-8 text-brand-700" />
          <h1 className="text-2xl font-semibold text-ink">{t('auth.admin.title')}</h1>
          <CardDescription>{t('auth.admin.subtitle')}</CardDescription>
        </CardHeader>
        <CardContent>
          <AuthTabs
            login={<LoginForm onSuccess={() => redirectAfterAuth(target)} />}
            register={
              <RegisterForm variant="admin" onSuccess={() => redirectAfterAuth('/admin/dashboard')} />
            }
          />
        </CardContent>
      </Card>
    </div>
  );
}
