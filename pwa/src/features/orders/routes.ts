import { lazy } from 'react';
import type { AppRoute } from '../../app/route-types';

/** The orders area's pages: the customer's list, any signed-in role's invoice, the seller's list. */
export const ordersRoutes: readonly AppRoute[] = [
  { path: '/orders', access: ['customer'], Page: lazy(() => import('./pages/customer-orders-page')) },
  {
    path: '/orders/:orderId',
    access: 'signed-in',
    Page: lazy(() => import('./pages/order-details-page')),
  },
  {
    path: '/seller/orders',
    access: ['seller', 'admin'],
    Page: lazy(() => import('./pages/seller-orders-page')),
  },
];
