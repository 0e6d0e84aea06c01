import { Link2, Package, UserCog, Video } from 'lucide-react';
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader } from '../../../components/ui/card';
import { formatNumber } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { sellerQueries } from '../../catalog/public';
import { AuthTabs } from '../components/auth-tabs';
import { LoginForm } from '../components/login-form';
import { RegisterForm } from '../components/register-form';
import { safeRedirect } from '../utils/redirects';
import { useRedirectAfterAuth } from '../utils/use-redirect-after-auth';

const FEATURES: { key: string; icon: ReactNode }[] = [
  { key: 'video', icon: <Video className="h-5 w-5" /> },
  { key: 'products', icon: <Package className="h-5 w-5" /> },
  { key: 'store', icon: <Link2 className="h-5 w-5" /> },
  { key: 'profile', icon: <UserCog className="h-5 w-5" /> },
];

/**
 * /seller/login (English only): the seller pitch beside Log In (→ /seller/dashboard) and Create Account,
 * which makes a seller account and goes on to /seller/profile/setup.
 */
export default function SellerLoginPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const target = safeRedirect(searchParams.get('redirect')) ?? '/seller/dashboard';
  const redirectAfterAuth = useRedirectAfterAuth();
  useDocumentTitle(t('auth.seller.title'));
  const stats = useQuery(sellerQueries.stats());

  return (
    // Phones read the intro, then the form, then the rest of the pitch; desktops show the form beside it all.
    <div className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-10 md:grid-cols-2 md:items-start md:gap-x-12 md:py-16">
      <div className="space-y-3 md:col-start-1">
        <p className="text-sm font-semibold tracking-wide text-gold-600 uppercase">
          {t('auth.seller.eyebrow')}
        </p>
        <h1 className="text-3xl font-bold text-brand-800 sm:text-4xl">{t('auth.seller.title')}</h1>
        <p className="text-lg text-muted">{t('auth.seller.subtitle')}</p>
      </div>
      <Card className="md:col-start-2 md:row-span-2 md:row-start-1">
        <CardHeader>
          <h2 className="text-xl font-semibold text-ink">{t('auth.seller.formTitle')}</h2>
          <CardDescription>{t('auth.seller.formSubtitle')}</CardDescription>
        </CardHeader>
        <CardContent>
          <AuthTabs
            login={<LoginForm onSuccess={() => redirectAfterAuth(target)} />}
            register={
              <RegisterForm variant="seller" onSuccess={() => redirectAfterAuth('/seller/profile/setup')} />
            }
          />
        </CardContent>
      </Card>
      <section aria-label={t('auth.seller.whySell')} className="space-y-6 md:col-start-1">
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          {FEATURES.map(({ key, icon }) => (
            <li key={key} className="flex gap-3 rounded-lg border border-stone-200 bg-white p-4">
              <span aria-hidden="true" className="h-fit rounded-md bg-brand-50 p-2 text-brand-700">
                {icon}
              </span>
              <div>
                <h2 className="font-semibold text-ink">{t(`auth.seller.features.${key}.title`)}</h2>
                <p className="text-sm text-muted">{t(`auth.seller.features.${key}.description`)}</p>
              </div>
            </li>
          ))}
        </ul>
        {/* Live counts only, as on the landing page (docs/product-rules.md §2): never a claim like "500+". */}
        <dl className="grid grid-cols-2 gap-4" data-testid="seller-pitch-stats">
          {(
            [
              ['jewelers', stats.data?.verifiedJewelers],
              ['buyers', stats.data?.monthlyBuyers],
            ] as const
          ).map(([key, value]) => (
            <div key={key} className="flex flex-col-reverse rounded-lg bg-gold-100 p-4">
              <dt className="text-sm text-muted">{t(`auth.seller.stats.${key}`, { count: value ?? 0 })}</dt>
              <dd className="text-2xl font-bold text-brand-800">
                {value === undefined ? '—' : formatNumber(value)}
              </dd>
            </div>
          ))}
        </dl>
        <figure className="rounded-lg border-l-4 border-gold-400 bg-white p-4">
          <blockquote className="text-ink italic">“{t('auth.seller.testimonial.quote')}”</blockquote>
          <figcaption className="mt-2 text-sm text-muted">{t('auth.seller.testimonial.author')}</figcaption>
        </figure>
      </section>
    </div>
  );
}
