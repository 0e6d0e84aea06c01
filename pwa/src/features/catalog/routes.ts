import type { AppRoute } from '../../app/routes';

/** The catalog area's pages: one lazy entry each, added when the page is real. */
export const catalogRoutes: readonly AppRoute[] = [];

/** The /{sellerSlug} storefront catches any single segment, so the routes table puts it last. */
export const storefrontRoutes: readonly AppRoute[] = [];
