import { lazyPage } from '../../app/lazy-page';
import type { AppRoute } from '../../app/route-types';

// Pages the server renders for visitors are preloadable (app/lazy-page.tsx), so hydration never waits.
const StorefrontPage = lazyPage(() => import('./pages/storefront-page'));

/** The catalog area's pages: one lazy entry each, added when the page is real. */
export const catalogRoutes: readonly AppRoute[] = [
  {
    path: '/marketplace',
    access: 'public',
    // What a search understood: the price chip, the shops it names, a missing kind (§20.2).
    areas: ['shopperSearch'],
    Page: lazyPage(() => import('./pages/marketplace-page')),
  },
  { path: '/sellers', access: 'public', areas: [], Page: lazyPage(() => import('./pages/sellers-page')) },
  // A product's own address (/product/{slug}-{id}), the one shared links use.
  {
    path: '/product/:productRef',
    access: 'public',
    // The price breakdown's strings (a part of the catalog area kept out of the entry: lib/locale-areas.ts), and
    // the appointment and call-back buttons' (loaded before hydrating, so those parts hydrate with the row).
    areas: ['catalogPricing', 'callsAppointments'],
    overlay: true,
    Page: lazyPage(() => import('./pages/product-page')),
  },
  // The fallback address of a shop without a URL slug.
  { path: '/sellers/:sellerId', access: 'public', areas: [], Page: StorefrontPage },
];

/** The /{sellerSlug} storefront catches any single segment, so the routes table puts it last. */
export const storefrontRoutes: readonly AppRoute[] = [
  { path: '/:sellerSlug', access: 'public', areas: [], Page: StorefrontPage },
];
