import type { ComponentType, LazyExoticComponent } from 'react';
import type { LazyArea } from '../lib/locale-areas';
import type { RouteAccess } from './guards/route-guard';
import type { LazyPage } from './lazy-page';

/**
 * One page of the app: a path, who may open it, its lazily loaded component (its own chunk) and the locale
 * areas it renders with. Kept apart from routes.tsx, which imports every area's list, so that an area's list
 * can name this type without an import cycle.
 */
export interface AppRoute {
  path: string;
  access: RouteAccess;
  Page: LazyExoticComponent<ComponentType> | LazyPage;
  /**
   * The locale areas (beyond the core ones in the entry, lib/locale-areas.ts) the page needs before it renders.
   * Left out, the page gets every area, so a new page never shows raw keys; the public catalogue pages need
   * only the core.
   */
  areas?: readonly LazyArea[];
  /**
   * The page may show over the page it was opened from, which stays rendered under it (a product's dialog over
   * the marketplace: lib/background-location.ts).
   */
  overlay?: boolean;
}
