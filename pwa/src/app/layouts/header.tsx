import { useQuery } from '@tanstack/react-query';
import { Menu, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { Avatar } from '../../components/ui/avatar';
import { buttonClasses } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { sessionQuery } from '../../features/accounts/api';
import { loginUrl } from '../../features/accounts/utils/redirects';
import { cn } from '../../lib/cn';
import { loadAreas } from '../../lib/i18n';
import { HeaderSlotOutlet } from '../header-slots';
import { NAV_BY_ROLE, type NavItem } from '../nav';
import { LanguageSwitch } from './language-switch';
import { NagaiMark } from './logo';

// The menu (Radix) and the profile dialog load only for signed-in users, keeping visitors' first load small.
// Its strings (profile, server messages) come with it.
const UserMenu = lazy(() =>
  Promise.all([
    import('../../features/accounts/components/user-menu'),
    loadAreas(['profile', 'messages']),
  ]).then(([m]) => m),
);

const LOGIN_PATHS = ['/login', '/customer/login', '/seller/login', '/admin/login'];

function navLinkClass({ isActive }: { isActive: boolean }) {
  return cn(
    'rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-brand-600',
    isActive ? 'bg-brand-50 text-brand-800' : 'text-ink hover:bg-stone-100',
  );
}

function NavLinks({ items, onNavigate }: { items: readonly NavItem[]; onNavigate?: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      {items.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} end={item.end} className={navLinkClass} onClick={onNavigate}>
            {t(item.labelKey)}
          </NavLink>
        </li>
      ))}
    </>
  );
}

/** The app header: logo, role navigation, feature slots, language, cart, user menu or Login. */
export function Header() {
  const { t } = useTranslation();
  const session = useQuery(sessionQuery());
  const user = session.data ?? null;
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const items = NAV_BY_ROLE[user?.role ?? 'visitor'];

  // The phone menu closes on navigation and on Escape.
  const [lastPath, setLastPath] = useState(location.pathname);
  if (lastPath !== location.pathname) {
    setLastPath(location.pathname);
    setMenuOpen(false);
  }
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setMenuOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const onLoginPage = LOGIN_PATHS.includes(location.pathname);
  const here = location.pathname + location.search + location.hash;

  return (
    <header className="sticky top-0 z-40 border-b border-stone-200 bg-surface/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-3 sm:px-4 md:gap-4">
        <Link
          to="/"
          className="flex shrink-0 items-center gap-2 rounded-md focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <NagaiMark className="h-8 w-8" />
          {/* On the narrowest phones the mark alone, so the actions (and a call's badge) fit in 360 px. */}
          <span className="text-xl font-bold tracking-tight text-brand-800 max-[389px]:sr-only">
            {t('common.appName')}
          </span>
          <span className="sr-only">{t('header.home')}</span>
        </Link>

        <nav aria-label={t('header.mainNav')} className="hidden md:block">
          <ul className="flex items-center gap-1">
            <NavLinks items={items} />
          </ul>
        </nav>

        <div className="ml-auto flex items-center gap-1.5 sm:gap-2">
          <HeaderSlotOutlet name="inCall" />
          <HeaderSlotOutlet name="actions" />
          <LanguageSwitch />
          {user?.role === 'customer' && <HeaderSlotOutlet name="cart" />}
          {session.isPending ? (
            <Skeleton className="h-9 w-9 rounded-full" />
          ) : user ? (
            <Suspense fallback={<Avatar name={user.displayName} />}>
              <UserMenu user={user} />
            </Suspense>
          ) : (
            !onLoginPage && (
              <Link to={loginUrl(here, '/customer/login')} className={buttonClasses('primary', 'sm')}>
                {t('header.login')}
              </Link>
            )
          )}
          {items.length > 0 && (
            <button
              type="button"
              className="inline-flex h-9 w-9 items-center justify-center rounded-md text-ink hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600 md:hidden"
              aria-expanded={menuOpen}
              aria-controls={menuId}
              aria-label={menuOpen ? t('header.closeMenu') : t('header.openMenu')}
              onClick={() => setMenuOpen((o) => !o)}
            >
              {menuOpen ? (
                <X aria-hidden="true" className="h-5 w-5" />
              ) : (
                <Menu aria-hidden="true" className="h-5 w-5" />
              )}
            </button>
          )}
        </div>
      </div>
      {menuOpen && (
        <nav
          id={menuId}
          aria-label={t('header.mainNav')}
          className="border-t border-stone-200 px-3 pb-3 md:hidden"
        >
          <ul className="flex flex-col gap-1 pt-2">
            <NavLinks items={items} onNavigate={() => setMenuOpen(false)} />
          </ul>
        </nav>
      )}
    </header>
  );
}
