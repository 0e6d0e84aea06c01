import { lazy } from 'react';
import type { AppRoute } from '../../app/route-types';

/** The admin area's pages: one lazy entry each, added when the page is real. */
export const adminRoutes: readonly AppRoute[] = [
  {
    path: '/admin/dashboard',
    access: ['admin'],
    Page: lazy(() => import('./pages/admin-dashboard-page')),
  },
  {
    path: '/admin/sellers',
    access: ['admin'],
    Page: lazy(() => import('./pages/admin-sellers-page')),
  },
];
