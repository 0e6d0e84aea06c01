import { useQuery } from '@tanstack/react-query';
import { ExternalLink, Gem, Package, Store, UserRoundCog, Video } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { User } from '../../../../../api/contract/accounts';
import type { SellerProfile } from '../../../../../api/contract/sellers';
import { Badge } from '../../../components/ui/badge';
import { buttonClasses } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { errorMessage } from '../../../lib/api-client';
import { formatCategory, formatPrice } from '../../../lib/format';
import { translateMessage } from '../../../lib/i18n';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { sessionQuery } from '../../../lib/session';
import { DASHBOARD_PRODUCTS_LIMIT, sellerQueries } from '../api';
import { ApprovalBanner } from '../components/approval-banner';
import { LedgerCard } from '../components/ledger-card';
import { RatesCard } from '../components/rates-card';
import { TaxSettingsCard } from '../components/tax-settings-card';
import { ErrorCard, SellerPageSkeleton } from '../components/page-states';
import { SetupGuide, type GuideStep } from '../components/setup-guide';
import { MISSING_SHOWN, profileCompletion } from '../utils/profile-completion';
import { storePath } from '../../../lib/store-path';
import { useGuideDismissed } from '../utils/use-guide-dismissed';
import { useExtensions } from '../../../app/extensions';

/** /seller/dashboard (any signed-in role): the shop at a glance, the setup guide and the product list. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const session = useQuery(sessionQuery());
  const user = session.data;
  useDocumentTitle(t('seller.dashboard.title'));
  // Customers have no shop: the profile endpoint is for sellers and admins.
  const canHaveShop = user?.role === 'seller' || user?.role === 'admin';
  const profile = useQuery({ ...sellerQueries.profile(), enabled: canHaveShop });

  let body;
  if (!user) return null;
  if (canHaveShop && profile.isPending) body = <SellerPageSkeleton label={t('common.loading')} />;
  else if (profile.isError)
    body = (
      <ErrorCard
        title={t('seller.dashboard.failedToLoadProfile')}
        message={t('seller.dashboard.errorLoadingProfile', {
          message: translateMessage(errorMessage(profile.error)),
        })}
        onRetry={() => void profile.refetch()}
      />
    );
  else if (!profile.data) body = <NoProfile role={user.role} />;
  else return <Dashboard user={user} profile={profile.data} />;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8">
      <h1 className="text-3xl font-bold text-brand-800">{t('seller.dashboard.title')}</h1>
      {body}
    </div>
  );
}

function NoProfile({ role }: { role: User['role'] }) {
  const { t } = useTranslation();
  const action =
    role === 'seller' ? (
      <Link to="/seller/profile/setup" className={buttonClasses()}>
        {t('seller.dashboard.setUpShop')}
      </Link>
    ) : role === 'admin' ? (
      <Link to="/seller/register" className={buttonClasses()}>
        {t('seller.dashboard.registerShop')}
      </Link>
    ) : null;
  return (
    <Card>
      <EmptyState
        icon={<Store className="h-8 w-8" />}
        title={t('seller.dashboard.notFoundTitle')}
        description={t('seller.dashboard.notFoundDescription')}
        action={action}
      />
    </Card>
  );
}

function Dashboard({ user, profile }: { user: User; profile: SellerProfile }) {
  const { t } = useTranslation();
  const products = useQuery(sellerQueries.products(profile.userId, 1, DASHBOARD_PRODUCTS_LIMIT));
  const [dismissed, dismiss] = useGuideDismissed(user.id);
  const { sellerDashboard } = useExtensions();
  const completion = profileCompletion(profile);
  const store = storePath(profile);
  const productCount = products.data?.pagination.totalProducts;

  const steps: GuideStep[] = [
    { id: 'profile', done: completion.missing.length === 0, to: '/seller/profile' },
    { id: 'product', done: (productCount ?? 0) > 0, to: '/seller/products' },
    { id: 'storeUrl', done: Boolean(profile.urlSlug), to: '/seller/profile' },
    { id: 'video', done: profile.videoCallEnabled, to: '/seller/profile#video-settings' },
  ];

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-3xl font-bold break-words text-brand-800">{profile.shopName}</h1>
        <Badge variant="secondary">{t('seller.dashboard.userId', { id: user.id })}</Badge>
      </div>
      <ApprovalBanner isApproved={profile.isApproved} />

      {!dismissed && <SetupGuide steps={steps} storeUrl={store} onDismiss={dismiss} />}

      {sellerDashboard.map((Entry, i) => (
        <Entry key={i} />
      ))}

      <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
        <Card>
          <CardHeader className="flex flex-row items-center gap-2">
            <UserRoundCog aria-hidden="true" className="h-5 w-5 text-brand-700" />
            <CardTitle className="text-lg">{t('seller.dashboard.completion.title')}</CardTitle>
          </CardHeader>
          <CardContent className="space-y-3">
            <p className="text-3xl font-bold text-ink">{completion.percent}%</p>
            <div
              role="progressbar"
              aria-label={t('seller.dashboard.completion.title')}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={completion.percent}
              className="h-2 w-full overflow-hidden rounded-full bg-stone-200"
            >
              <div className="h-full rounded-full bg-brand-700" style={{ width: `${completion.percent}%` }} />
            </div>
            <p className="text-sm text-muted">
              {t('seller.dashboard.completion.count', { done: completion.done, total: completion.total })}
            </p>
            {completion.missing.length > 0 ? (
              <div className="text-sm">
                <p className="font-medium text-ink">{t('seller.dashboard.completion.missing')}</p>
                <ul className="list-disc pl-5 text-muted">
                  {completion.missing.slice(0, MISSING_SHOWN).map((f) => (
                    <li key={f}>{t(`seller.form.${f}`)}</li>
                  ))}
                </ul>
              </div>
            ) : (
              <p className="text-sm font-medium text-green-800">
                {t('seller.dashboard.completion.complete')}
              </p>
            )}
            <Link to="/seller/profile" className={buttonClasses('outline', 'sm')}>
              {t('seller.dashboard.completion.action')}
            </Link>
          </CardContent>
        </Card>

        <Card>
          <CardHeader className="flex flex-row items-center gap-2">
            <Package aria-hidden="true" className="h-5 w-5 text-brand-700" />
            <CardTitle className="text-lg">{t('seller.dashboard.catalogue.title')}</CardTitle>
          </CardHeader>
          <CardContent className="space-y-3">
            {productCount === undefined ? (
              <Skeleton className="h-9 w-16" />
            ) : (
              <p className="text-3xl font-bold text-ink">{productCount}</p>
            )}
            <p className="text-sm text-muted">{t('seller.dashboard.catalogue.description')}</p>
            <Link to="/seller/products" className={buttonClasses('outline', 'sm')}>
              {t('seller.dashboard.catalogue.action')}
            </Link>
          </CardContent>
        </Card>

        <Card>
          <CardHeader className="flex flex-row items-center gap-2">
            <Gem aria-hidden="true" className="h-5 w-5 text-brand-700" />
            <CardTitle className="text-lg">{t('seller.dashboard.features.title')}</CardTitle>
          </CardHeader>
          <CardContent className="space-y-3 text-sm">
            <div>
              <p className="font-medium text-ink">{t('seller.dashboard.features.storeUrl')}</p>
              <a href={store} className="break-all text-brand-700 underline">
                {new URL(store, window.location.origin).href}
              </a>
            </div>
            <p className="flex items-center gap-2">
              <Video aria-hidden="true" className="h-4 w-4 text-brand-700" />
              <span className="font-medium text-ink">{t('seller.dashboard.features.videoCalls')}</span>
              <Badge variant={profile.videoCallEnabled ? 'success' : 'outline'}>
                {profile.videoCallEnabled
                  ? t('seller.dashboard.features.on')
                  : t('seller.dashboard.features.off')}
              </Badge>
            </p>
            <Link to="/seller/profile#video-settings" className={buttonClasses('outline', 'sm')}>
              {t('seller.dashboard.features.action')}
            </Link>
          </CardContent>
        </Card>
      </div>

      {user.role === 'seller' && <LedgerCard />}

      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <RatesCard />
        <TaxSettingsCard />
      </div>

      <section id="url-management" aria-labelledby="url-management-title" className="scroll-mt-20 space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="url-management-title" className="text-2xl font-semibold text-ink">
            {t('seller.dashboard.products.title')}
          </h2>
          <a href={store} className={buttonClasses('outline', 'sm')}>
            <ExternalLink aria-hidden="true" className="h-4 w-4" />
            {t('seller.viewStore')}
          </a>
        </div>
        {products.isPending ? (
          <div role="status" aria-label={t('common.loading')} className="space-y-3">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-20 w-full" />
            ))}
          </div>
        ) : products.isError ? (
          <ErrorCard
            title={t('seller.dashboard.failedToLoadProducts')}
            message={translateMessage(errorMessage(products.error))}
            onRetry={() => void products.refetch()}
          />
        ) : products.data.products.length === 0 ? (
          <Card>
            <EmptyState
              icon={<Package className="h-8 w-8" />}
              title={t('seller.dashboard.products.empty')}
              action={
                <Link to="/seller/products" className={buttonClasses()}>
                  {t('seller.products.add')}
                </Link>
              }
            />
          </Card>
        ) : (
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {products.data.products.map((p) => (
              <li key={p.id}>
                <Card className="flex h-full gap-3 p-3">
                  {p.imageUrl ? (
                    <img
                      src={p.imageUrl}
                      alt=""
                      loading="lazy"
                      className="h-20 w-20 shrink-0 rounded-md bg-stone-100 object-cover"
                    />
                  ) : (
                    <div aria-hidden="true" className="h-20 w-20 shrink-0 rounded-md bg-stone-100" />
                  )}
                  <div className="min-w-0 space-y-1">
                    <p className="truncate font-medium text-ink">{p.name}</p>
                    <p className="text-sm text-ink">{formatPrice(p.price, t('common.priceNotAvailable'))}</p>
                    <p className="text-xs text-muted capitalize">
                      {formatCategory(p.category)} · {formatCategory(p.material)}
                    </p>
                  </div>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
