import type { UserRole } from '../../../api/contract/constants';

/** One header link: `labelKey` is an i18n key (header.nav.*). */
export interface NavItem {
  to: string;
  labelKey: string;
  /** Active only on an exact match (otherwise also on sub-paths). */
  end?: boolean;
}

/**
 * Header navigation by role (docs/product-rules.md §2). Visitors get the marketplace. Add a link here when its page exists
 * in routes.tsx, with its label in locales/en.json and locales/ta.json under header.nav.
 */
export const NAV_BY_ROLE: Record<UserRole | 'visitor', readonly NavItem[]> = {
  visitor: [{ to: '/marketplace', labelKey: 'header.nav.browseMarketplace' }],
  customer: [
    { to: '/marketplace', labelKey: 'header.nav.browse' },
    { to: '/orders', labelKey: 'header.nav.myOrders' },
    { to: '/call-history', labelKey: 'header.nav.callHistory' },
  ],
  seller: [
    { to: '/seller/dashboard', labelKey: 'header.nav.dashboard' },
    { to: '/seller/profile', labelKey: 'header.nav.profile', end: true },
    { to: '/seller/products', labelKey: 'header.nav.products' },
    { to: '/seller/orders', labelKey: 'header.nav.orders' },
    { to: '/seller/history', labelKey: 'header.nav.history' },
  ],
  // The product rules' /admin/products and /admin/reports show no content: only real pages get a link.
  admin: [
    { to: '/admin/dashboard', labelKey: 'header.nav.dashboard' },
    { to: '/admin/sellers', labelKey: 'header.nav.sellers' },
  ],
};
