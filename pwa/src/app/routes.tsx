import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { RouteAccess } from './guards/route-guard';

/** One page of the app: a path, who may open it, and its lazily loaded component (its own chunk). */
export interface AppRoute {
  path: string;
  access: RouteAccess;
  Page: LazyExoticComponent<ComponentType>;
}

/**
 * The one routes table. To add a page: build it under src/features/<area>/pages/<name>-page.tsx with a
 * default export, then add one line here. A route is added only when its page is real (no placeholders).
 * Unknown paths fall through to the Not Found page; `/{sellerSlug}` storefronts should be the last entry.
 */
export const ROUTES: readonly AppRoute[] = [
  { path: '/login', access: 'guest', Page: lazy(() => import('../features/accounts/pages/login-page')) },
  {
    path: '/customer/login',
    access: 'guest',
    Page: lazy(() => import('../features/accounts/pages/customer-login-page')),
  },
  {
    path: '/seller/login',
    access: 'guest',
    Page: lazy(() => import('../features/accounts/pages/seller-login-page')),
  },
  {
    path: '/admin/login',
    access: 'guest',
    Page: lazy(() => import('../features/accounts/pages/admin-login-page')),
  },
];

export const NotFoundPage = lazy(() => import('./pages/not-found-page'));
