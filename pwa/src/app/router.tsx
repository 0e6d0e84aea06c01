import {
  createBrowserRouter,
  UNSAFE_RouteContext as RouteContext,
  useLocation,
  useRoutes,
  type Location,
  type RouteObject,
} from 'react-router-dom';
import { backgroundLocation } from '../lib/background-location';
import { HydrateLater } from '../lib/hydrate-later';
import { LAZY_AREAS, type LazyArea } from '../lib/i18n';
import { LocaleGate } from '../lib/locale-gate';
import { RouteGuard } from './guards/route-guard';
import { RootLayout } from './layouts/root-layout';
import { RouteError } from './pages/route-error';
import { NotFoundPage, ROUTES, routeFor, type AppRoute } from './routes';

/** The locale areas the page at `pathname` renders with (loaded ahead of hydrating it, src/boot.tsx). */
export function pageAreas(pathname: string): readonly LazyArea[] {
  const route = routeFor(pathname);
  return route ? (route.areas ?? LAZY_AREAS) : [];
}

function RoutePage({ route: { access, areas, Page } }: { route: AppRoute }) {
  return (
    <RouteGuard access={access}>
      <LocaleGate areas={areas ?? LAZY_AREAS}>
        <Page />
      </LocaleGate>
    </RouteGuard>
  );
}

const pages: RouteObject[] = [
  ...ROUTES.map((route) => ({ path: route.path, element: <RoutePage route={route} /> })),
  { path: '*', element: <NotFoundPage /> },
];

/** Route matching from the top (the background page is not a child of the overlay's route). */
const TOP_LEVEL = { outlet: null, matches: [], isDataRoute: false };

function BackgroundRoutes({ location }: { location: Location }) {
  return useRoutes(pages, location);
}

/** The page an overlay was opened from, rendered at its own address under the overlay. */
function BackgroundPage({ location }: { location: Location }) {
  return (
    <RouteContext.Provider value={TOP_LEVEL}>
      <BackgroundRoutes location={location} />
    </RouteContext.Provider>
  );
}

/** A page that may show over the page it was opened from (lib/background-location.ts). */
function OverlayPage({ route }: { route: AppRoute }) {
  const background = backgroundLocation(useLocation().state);
  return (
    <>
      {background && <BackgroundPage location={background} />}
      <RoutePage route={route} />
    </>
  );
}

const children: RouteObject[] = [
  ...ROUTES.map((route) => ({
    path: route.path,
    element: route.overlay ? <OverlayPage route={route} /> : <RoutePage route={route} />,
  })),
  { path: '*', element: <NotFoundPage /> },
];

/**
 * The route tree: every page renders inside the root layout (header, toasts, language, hash scroll). The layout
 * is a part of its own (lib/hydrate-later.tsx): a server-rendered page's first pass of hydration is the
 * providers and the router alone, and the layout follows in a task of its own.
 */
export const appRoutes: RouteObject[] = [
  {
    element: (
      <HydrateLater>
        <RootLayout />
      </HydrateLater>
    ),
    errorElement: <RouteError />,
    children,
  },
];

/** The browser router (the server renders the same routes with a static router: src/entry-server.tsx). */
export function createAppRouter() {
  // A page loaded afresh (a reload, a restored tab) stands on its own, as the server rendered it: the page it
  // was once opened over is forgotten.
  const entry = window.history.state as { usr?: unknown } | null;
  if (entry && backgroundLocation(entry.usr)) window.history.replaceState({ ...entry, usr: null }, '');
  return createBrowserRouter(appRoutes);
}
