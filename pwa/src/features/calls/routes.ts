import { lazy } from 'react';
import type { AppRoute } from '../../app/route-types';

/** The calls area's pages: one lazy entry each, added when the page is real. */
export const callsRoutes: readonly AppRoute[] = [
  {
    path: '/call-history',
    access: ['customer', 'admin'],
    Page: lazy(() => import('./pages/call-history-page')),
  },
  {
    path: '/seller/history',
    access: ['seller', 'admin'],
    Page: lazy(() => import('./pages/seller-call-history-page')),
  },
  {
    path: '/call-history/:callId',
    access: ['customer', 'admin'],
    Page: lazy(() => import('./pages/call-detail-page')),
  },
  {
    path: '/seller/history/:callId',
    access: ['seller', 'admin'],
    Page: lazy(() => import('./pages/call-detail-page')),
  },
];
