import type { AppRoute } from '../../app/routes';

/** The orders area's pages: one lazy entry each, added when the page is real. */
export const ordersRoutes: readonly AppRoute[] = [];
