import { useQuery } from '@tanstack/react-query';
import {
  AlertTriangle,
  ArrowRight,
  BadgeCheck,
  Clock,
  LayoutDashboard,
  Lock,
  MapPin,
  Package,
  Store,
  UserCog,
  Video,
} from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { User } from '../../../../../api/contract/accounts';
import type { SellerProfile } from '../../../../../api/contract/sellers';
import { Badge } from '../../../components/ui/badge';
import { buttonClasses } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { storePath } from '../../../lib/store-path';
import {
  CategoryStrip,
  ProductGrid,
  SearchBox,
  parseMarketplaceParams,
  productQueries,
  toMarketplaceParams,
} from '../../catalog/public';
import { homeQueries } from '../api';
import { resolveHomeTab, visibleTabs, type HomeTab } from '../utils/home-tabs';

const BROWSE_LIMIT = 20;

function BrowseTab({ restricted }: { restricted: boolean }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const filters = parseMarketplaceParams(params);
  const list = useQuery(
    productQueries.list({
      page: 1,
      limit: BROWSE_LIMIT,
      // A search in best-match order (the API ranks it without a sort); browsing, newest first.
      ...(filters.query ? { query: filters.query } : { sortBy: 'newest' as const }),
      ...(filters.category ? { category: filters.category } : {}),
    }),
  );
  const marketplaceHref = (() => {
    const qs = toMarketplaceParams({ ...filters, page: 1 }).toString();
    return qs ? `/marketplace?${qs}` : '/marketplace';
  })();
  const homeHref = (change: { query?: string; category?: string | undefined }) => {
    const next = new URLSearchParams(params);
    next.set('tab', 'browse');
    for (const [k, v] of Object.entries(change)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    return `/?${next.toString()}`;
  };
  return (
    <div className="space-y-5">
      {restricted && (
        <div
          role="alert"
          className="flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4"
        >
          <Lock aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-amber-900" />
          <div>
            <p className="font-semibold text-amber-950">{t('home.restricted.title')}</p>
            <p className="text-sm text-amber-950">{t('home.restricted.text')}</p>
          </div>
        </div>
      )}
      <SearchBox
        value={filters.query}
        onSearch={(text) => navigate(homeHref({ query: text }))}
        onPick={(s) => {
          if (s.kind === 'category') navigate(homeHref({ category: s.id, query: '' }));
          else if (s.kind === 'seller') navigate(storePath({ urlSlug: s.urlSlug, sellerId: s.id }));
          else {
            const next = new URLSearchParams(params);
            next.set('tab', 'browse');
            next.set('product', String(s.id));
            setParams(next);
          }
        }}
      />
      <CategoryStrip current={filters.category} hrefFor={(c) => homeHref({ category: c })} />
      <ProductGrid
        products={list.data?.products}
        isPending={list.isPending}
        isError={list.isError && !list.data}
        stale={list.isPlaceholderData}
        skeletons={8}
        empty={{ title: t('catalog.grid.emptyTitle'), description: t('home.browse.emptyText') }}
      />
      <div className="flex justify-center">
        <Link to={marketplaceHref} className={buttonClasses('outline')}>
          {t('home.browse.seeAll')}
          <ArrowRight aria-hidden="true" className="h-4 w-4" />
        </Link>
      </div>
    </div>
  );
}

function ApprovalBadge({ profile }: { profile: SellerProfile }) {
  const { t } = useTranslation();
  if (profile.isApproved === true)
    return (
      <Badge variant="success" className="gap-1">
        <BadgeCheck aria-hidden="true" className="h-3.5 w-3.5" />
        {t('home.sell.approved')}
      </Badge>
    );
  if (profile.isApproved === false) return <Badge variant="destructive">{t('home.sell.disapproved')}</Badge>;
  return (
    <Badge variant="warning" className="gap-1">
      <Clock aria-hidden="true" className="h-3.5 w-3.5" />
      {t('home.sell.pending')}
    </Badge>
  );
}

function SellTab({ user }: { user: User }) {
  const { t } = useTranslation();
  const profile = useQuery(homeQueries.sellerProfile(user.id));
  if (user.role === 'customer')
    return (
      <EmptyState
        icon={<Lock className="h-8 w-8" />}
        title={t('home.restricted.title')}
        description={<p>{t('home.restricted.text')}</p>}
      />
    );
  if (profile.isPending)
    return (
      <div role="status" className="space-y-3 rounded-xl border border-stone-200 p-6">
        <span className="sr-only">{t('common.loading')}</span>
        <Skeleton className="h-7 w-1/2" />
        <Skeleton className="h-4 w-1/3" />
        <Skeleton className="h-10 w-full" />
      </div>
    );
  if (profile.isError)
    return (
      <div role="alert">
        <EmptyState
          icon={<AlertTriangle className="h-8 w-8" />}
          title={t('home.sell.loadFailed')}
          description={<p>{translateMessage(errorMessage(profile.error))}</p>}
        />
      </div>
    );
  const shop = profile.data;
  if (!shop)
    return (
      <EmptyState
        icon={<Store className="h-8 w-8" />}
        title={t('home.sell.noShopTitle')}
        description={<p>{t('home.sell.noShopText')}</p>}
        action={
          <Link
            to={user.role === 'admin' ? '/seller/register' : '/seller/profile/setup'}
            className={buttonClasses('primary')}
          >
            {t('home.sell.setUp')}
          </Link>
        }
      />
    );
  const links = [
    { to: '/seller/dashboard', key: 'dashboard', Icon: LayoutDashboard },
    { to: '/seller/products', key: 'products', Icon: Package },
    { to: '/seller/profile', key: 'profile', Icon: UserCog },
  ] as const;
  return (
    <div className="space-y-5">
      <section
        aria-labelledby="my-shop-heading"
        className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-6"
      >
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="my-shop-heading" className="text-2xl font-bold text-ink">
            {shop.shopName}
          </h2>
          <ApprovalBadge profile={shop} />
          {shop.videoCallEnabled && (
            <Badge variant="secondary" className="gap-1">
              <Video aria-hidden="true" className="h-3.5 w-3.5" />
              {t('catalog.video.available')}
            </Badge>
          )}
        </div>
        <p className="mt-2 flex items-center gap-1.5 text-sm text-muted">
          <MapPin aria-hidden="true" className="h-4 w-4" />
          {[shop.city, shop.state].filter(Boolean).join(', ')}
        </p>
        {shop.description && <p className="mt-3 text-ink">{shop.description}</p>}
        {shop.isApproved === true && (
          <Link
            to={storePath({ urlSlug: shop.urlSlug, sellerId: shop.userId })}
            className="mt-3 inline-flex items-center gap-1 text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
          >
            {t('home.sell.viewStore')}
            <ArrowRight aria-hidden="true" className="h-4 w-4" />
          </Link>
        )}
      </section>
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        {links.map(({ to, key, Icon }) => (
          <li key={key}>
            <Link
              to={to}
              className="flex h-full items-center gap-3 rounded-xl border border-stone-200 bg-white p-4 shadow-sm hover:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <Icon aria-hidden="true" className="h-6 w-6 text-brand-700" />
              <span className="font-medium text-ink">{t(`home.sell.links.${key}`)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

function BecomeSellerTab({ hasProfile }: { hasProfile: boolean }) {
  const { t } = useTranslation();
  if (hasProfile)
    return (
      <EmptyState
        icon={<BadgeCheck className="h-8 w-8" />}
        title={t('home.register.alreadyTitle')}
        description={<p>{t('home.register.alreadyText')}</p>}
        action={
          <Link to="/seller/dashboard" className={buttonClasses('primary')}>
            {t('home.sell.links.dashboard')}
          </Link>
        }
      />
    );
  return (
    <EmptyState
      icon={<Store className="h-8 w-8" />}
      title={t('home.register.title')}
      description={<p>{t('home.register.text')}</p>}
      action={
        <Link to="/seller/register" className={buttonClasses('primary')}>
          {t('home.register.cta')}
        </Link>
      }
    />
  );
}

/** The signed-in home (docs/product-rules.md §2, §4): Browse, Sell / My Shop and Become a Seller, the tab kept in ?tab=. */
export default function SignedInHome({ user }: { user: User }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const canSell = user.role === 'seller' || user.role === 'admin';
  const profile = useQuery({ ...homeQueries.sellerProfile(user.id), enabled: canSell });
  const hasProfile = !!profile.data;
  const requested = params.get('tab');
  const resolution = resolveHomeTab({
    role: user.role,
    requested,
    hasProfile,
    profileKnown: !canSell || !profile.isPending,
  });
  const restricted = (location.state as { restricted?: boolean } | null)?.restricted === true;
  useDocumentTitle(t('home.title'));

  // The product rules' automatic moves, written to the URL so Back and reload agree with the screen.
  useEffect(() => {
    if (resolution.redirect === null) return;
    const next = new URLSearchParams(params);
    next.set('tab', resolution.redirect);
    navigate(
      { pathname: '/', search: `?${next.toString()}` },
      { replace: true, state: resolution.restricted ? { restricted: true } : null },
    );
  }, [resolution.redirect, resolution.restricted, params, navigate]);

  const tabs = visibleTabs(user.role, hasProfile);
  const tab: HomeTab = resolution.tab;
  const label = (id: HomeTab) =>
    id === 'browse'
      ? t('home.tabs.browse')
      : id === 'sell'
        ? hasProfile
          ? t('header.nav.myShop')
          : t('header.nav.sell')
        : t('header.nav.becomeSeller');

  const select = (value: string) => {
    const next = new URLSearchParams();
    next.set('tab', value);
    navigate({ pathname: '/', search: `?${next.toString()}` });
  };

  return (
    <div className="mx-auto w-full max-w-7xl px-3 py-6 sm:px-4 md:py-8">
      <div className="mb-5 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-ink md:text-3xl">
            {t('home.greeting', { name: user.displayName })}
          </h1>
          <p className="text-muted">{t('home.subtitle')}</p>
        </div>
        <Link to="/marketplace" className={buttonClasses('outline')}>
          {t('header.nav.fullMarketplace')}
          <ArrowRight aria-hidden="true" className="h-4 w-4" />
        </Link>
      </div>
      <Tabs value={tab} onValueChange={select}>
        <TabsList aria-label={t('home.tabs.label')} className="max-w-xl">
          {tabs.map((id) => (
            <TabsTrigger key={id} value={id}>
              {label(id)}
            </TabsTrigger>
          ))}
        </TabsList>
        {tabs.includes('browse') && (
          <TabsContent value="browse">
            <BrowseTab restricted={restricted && tab === 'browse'} />
          </TabsContent>
        )}
        {tabs.includes('sell') && (
          <TabsContent value="sell">
            <SellTab user={user} />
          </TabsContent>
        )}
        {tabs.includes('register-seller') && (
          <TabsContent value="register-seller">
            <BecomeSellerTab hasProfile={hasProfile} />
          </TabsContent>
        )}
        {!tabs.includes(tab) && tab === 'register-seller' && (
          <div className="mt-5">
            <BecomeSellerTab hasProfile={hasProfile} />
          </div>
        )}
      </Tabs>
    </div>
  );
}
