import { lazy } from 'react';
import type { AppRoute } from '../../app/route-types';

/** The calls area's pages: one lazy entry each, added when the page is real. */
export const callsRoutes: readonly AppRoute[] = [
  {
    // A guest's invitation into a call (issue #52): anyone with the link, signed in or not.
    path: '/family/:token',
    access: 'public',
    Page: lazy(() => import('./pages/family-join-page')),
    areas: ['family', 'messages'],
  },
  {
    // Where a call button tapped before the app started leads; it starts the call (issue #23).
    path: '/call/:sellerId',
    access: ['customer'],
    Page: lazy(() => import('./pages/call-start-page')),
    areas: [],
  },
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
