import { lazy } from 'react';
import type { AppRoute } from '../../app/routes';

/** The home area's pages: one lazy entry each, added when the page is real. */
export const homeRoutes: readonly AppRoute[] = [
  { path: '/', access: 'public', Page: lazy(() => import('./pages/home-page')) },
];
