import { lazy } from 'react';
import type { AppRoute } from '../../app/route-types';

/**
 * The checkout area's pages. /checkout is 'public' in the guard table because the product rules send visitors to the
 * customer login (not /login) and other roles home (not Access Denied): the page does that itself.
 */
export const checkoutRoutes: readonly AppRoute[] = [
  { path: '/checkout', access: 'public', Page: lazy(() => import('./pages/checkout-page')) },
];
