import type { AppRoute } from '../../app/routes';

/** The admin area's pages: one lazy entry each, added when the page is real. */
export const adminRoutes: readonly AppRoute[] = [];
