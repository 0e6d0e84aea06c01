import { lazy } from 'react';
import { matchPath } from 'react-router-dom';
import type { AppRoute } from './route-types';
import { adminRoutes } from '../features/admin/routes';
import { callsRoutes } from '../features/calls/routes';
import { catalogRoutes, storefrontRoutes } from '../features/catalog/routes';
import { checkoutRoutes } from '../features/checkout/routes';
import { homeRoutes } from '../features/home/routes';
import { ordersRoutes } from '../features/orders/routes';
import { sellerRoutes } from '../features/sellers/routes';

export type { AppRoute } from './route-types';

/**
 * The one routes table. To add a page: build it under src/features/<area>/pages/<name>-page.tsx with a
 * default export, then add one entry to src/features/<area>/routes.ts (each area keeps its own list, so
 * areas never edit the same file). A route is added only when its page is real (no placeholders).
 * Unknown paths fall through to the Not Found page; `/{sellerSlug}` storefronts should be the last entry.
 */
export const ROUTES: readonly AppRoute[] = [
  {
    path: '/login',
    access: 'guest',
    areas: ['messages'],
    Page: lazy(() => import('../features/accounts/pages/login-page')),
  },
  {
    path: '/customer/login',
    access: 'guest',
    areas: ['messages'],
    Page: lazy(() => import('../features/accounts/pages/customer-login-page')),
  },
  {
    path: '/seller/login',
    access: 'guest',
    areas: ['messages'],
    Page: lazy(() => import('../features/accounts/pages/seller-login-page')),
  },
  {
    path: '/admin/login',
    access: 'guest',
    areas: ['messages'],
    Page: lazy(() => import('../features/accounts/pages/admin-login-page')),
  },
  {
    // The account's mobile number and its notices by SMS or WhatsApp (issue #37).
    path: '/account/mobile',
    access: 'signed-in',
    areas: ['profile', 'messages'],
    Page: lazy(() => import('../features/accounts/pages/mobile-settings-page')),
  },
  ...homeRoutes,
  ...catalogRoutes,
  ...checkoutRoutes,
  ...ordersRoutes,
  ...sellerRoutes,
  ...adminRoutes,
  ...callsRoutes,
  // Last: `/{sellerSlug}` matches any single path segment.
  ...storefrontRoutes,
];

export const NotFoundPage = lazy(() => import('./pages/not-found-page'));

/** The route that renders `pathname` (the first match, as the router picks it), if any. */
export function routeFor(pathname: string): AppRoute | undefined {
  return ROUTES.find(({ path }) => matchPath({ path, end: true }, pathname));
}

/** Loads the page of `pathname` ahead of rendering it, when its route can (app/lazy-page.tsx). */
export async function preloadPage(pathname: string): Promise<void> {
  const route = routeFor(pathname);
  if (route && 'preload' in route.Page) await route.Page.preload();
}
