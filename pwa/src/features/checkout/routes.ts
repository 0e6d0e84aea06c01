import { lazy } from 'react';
import type { AppRoute } from '../../app/routes';

/**
 * The checkout area's pages. /checkout is 'public' in the guard table because the spec sends visitors to the
 * customer login (not /login) and other roles home (not Access Denied): the page does that itself.
 */
export const checkoutRoutes: readonly AppRoute[] = [
  { path: '/checkout', access: 'public', Page: lazy(() => import('./pages/checkout-page')) },
];
