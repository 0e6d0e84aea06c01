import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { RouteGuard } from './guards/route-guard';
import { RootLayout } from './layouts/root-layout';
import { RouteError } from './pages/route-error';
import { NotFoundPage, ROUTES } from './routes';

const children: RouteObject[] = [
  ...ROUTES.map(({ path, access, Page }) => ({
    path,
    element: (
      <RouteGuard access={access}>
        <Page />
      </RouteGuard>
    ),
  })),
  { path: '*', element: <NotFoundPage /> },
];

/** The browser router: every page renders inside the root layout (header, toasts, language, hash scroll). */
export function createAppRouter() {
  return createBrowserRouter([{ element: <RootLayout />, errorElement: <RouteError />, children }]);
}
