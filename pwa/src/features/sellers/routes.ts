import type { AppRoute } from '../../app/routes';

/** The sellers area's pages: one lazy entry each, added when the page is real. */
export const sellerRoutes: readonly AppRoute[] = [];
