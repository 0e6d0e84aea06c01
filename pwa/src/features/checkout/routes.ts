import type { AppRoute } from '../../app/routes';

/** The checkout area's pages: one lazy entry each, added when the page is real. */
export const checkoutRoutes: readonly AppRoute[] = [];
