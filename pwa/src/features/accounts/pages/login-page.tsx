import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { LoginForm } from '../components/login-form';
import { placeFor, safeRedirect } from '../utils/redirects';
import { useRedirectAfterAuth } from '../utils/use-redirect-after-auth';

/** /login: where the access guards send visitors; back to ?redirect= afterwards, else the role's home. */
export default function LoginPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const redirect = safeRedirect(searchParams.get('redirect'));
  const redirectAfterAuth = useRedirectAfterAuth();
  useDocumentTitle(t('auth.login.title'));
  const keep = redirect ? `&redirect=${encodeURIComponent(redirect)}` : '';

  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-semibold text-ink">{t('auth.login.title')}</h1>
          <CardDescription>{t('auth.login.subtitle')}</CardDescription>
        </CardHeader>
        <CardContent>
          <LoginForm onSuccess={(user) => redirectAfterAuth(placeFor(user.role, redirect))} />
          <div className="mt-6 space-y-2 text-center text-sm text-muted">
            <p>
              {t('auth.login.newHere')}{' '}
              <Link
                to={`/customer/login?tab=register${keep}`}
                className="font-medium text-brand-700 underline-offset-4 hover:underline"
              >
                {t('auth.tabs.register')}
              </Link>
            </p>
            <p>
              {t('auth.login.areYouSeller')}{' '}
              <Link
                to="/seller/login"
                className="font-medium text-brand-700 underline-offset-4 hover:underline"
              >
                {t('auth.login.sellerLogin')}
              </Link>
            </p>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
