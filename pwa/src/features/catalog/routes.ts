import { lazyPage } from '../../app/lazy-page';
import type { AppRoute } from '../../app/routes';

// Pages the server renders for visitors are preloadable (app/lazy-page.tsx), so hydration never waits.
const StorefrontPage = lazyPage(() => import('./pages/storefront-page'));

/** The catalog area's pages: one lazy entry each, added when the page is real. */
export const catalogRoutes: readonly AppRoute[] = [
  { path: '/marketplace', access: 'public', Page: lazyPage(() => import('./pages/marketplace-page')) },
  { path: '/sellers', access: 'public', Page: lazyPage(() => import('./pages/sellers-page')) },
  // The fallback address of a shop without a URL slug.
  { path: '/sellers/:sellerId', access: 'public', Page: StorefrontPage },
];

/** The /{sellerSlug} storefront catches any single segment, so the routes table puts it last. */
export const storefrontRoutes: readonly AppRoute[] = [
  { path: '/:sellerSlug', access: 'public', Page: StorefrontPage },
];
