import type { AppRoute } from '../../app/routes';

/** The calls area's pages: one lazy entry each, added when the page is real. */
export const callsRoutes: readonly AppRoute[] = [];
