import { lazyPage } from '../../app/lazy-page';
import type { AppRoute } from '../../app/route-types';

/** The home area's pages: one lazy entry each, added when the page is real. */
export const homeRoutes: readonly AppRoute[] = [
  {
    path: '/',
    access: 'public',
    areas: ['landing', 'home'],
    Page: lazyPage(() => import('./pages/home-page')),
  },
];
