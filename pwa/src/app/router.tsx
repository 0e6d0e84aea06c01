import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { LAZY_AREAS, type LazyArea } from '../lib/i18n';
import { LocaleGate } from '../lib/locale-gate';
import { RouteGuard } from './guards/route-guard';
import { RootLayout } from './layouts/root-layout';
import { RouteError } from './pages/route-error';
import { NotFoundPage, ROUTES, routeFor } from './routes';

/**
 * The locale areas (beyond the core ones in the entry, lib/locale-areas.ts) a page needs before it renders.
 * The public catalogue pages need only the core; any page not listed gets every area, so a new page never
 * shows raw keys.
 */
const PAGE_AREAS: Record<string, readonly LazyArea[]> = {
  '/marketplace': [],
  '/sellers': [],
  '/sellers/:sellerId': [],
  '/:sellerSlug': [],
  '/': ['landing', 'home'],
  '/login': ['messages'],
  '/customer/login': ['messages'],
  '/seller/login': ['messages'],
  '/admin/login': ['messages'],
};

/** The locale areas the page at `pathname` renders with (loaded ahead of hydrating it, src/boot.tsx). */
export function pageAreas(pathname: string): readonly LazyArea[] {
  const route = routeFor(pathname);
  return route ? (PAGE_AREAS[route.path] ?? LAZY_AREAS) : [];
}

const children: RouteObject[] = [
  ...ROUTES.map(({ path, access, Page }) => ({
    path,
    element: (
      <RouteGuard access={access}>
        <LocaleGate areas={PAGE_AREAS[path] ?? LAZY_AREAS}>
          <Page />
        </LocaleGate>
      </RouteGuard>
    ),
  })),
  { path: '*', element: <NotFoundPage /> },
];

/** The route tree: every page renders inside the root layout (header, toasts, language, hash scroll). */
export const appRoutes: RouteObject[] = [{ element: <RootLayout />, errorElement: <RouteError />, children }];

/** The browser router (the server renders the same routes with a static router: src/entry-server.tsx). */
export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
