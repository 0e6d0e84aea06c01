import { lazy } from 'react';
import type { AppRoute } from '../../app/route-types';

/** The sellers area's pages: one lazy entry each, added when the page is real. */
export const sellerRoutes: readonly AppRoute[] = [
  {
    path: '/seller/dashboard',
    access: 'signed-in',
    Page: lazy(() => import('./pages/dashboard-page')),
  },
  {
    path: '/seller/profile/setup',
    access: ['seller'],
    Page: lazy(() => import('./pages/profile-setup-page')),
  },
  {
    path: '/seller/profile',
    access: ['seller', 'admin'],
    Page: lazy(() => import('./pages/profile-page')),
  },
  {
    path: '/seller/products',
    access: ['seller', 'admin'],
    Page: lazy(() => import('./pages/products-page')),
  },
  {
    path: '/seller/register',
    access: ['seller', 'admin'],
    Page: lazy(() => import('./pages/register-page')),
  },
];
