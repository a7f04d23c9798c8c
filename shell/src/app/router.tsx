import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { Layout } from '../layout/Layout.tsx';
import { RouteErrorPage } from '../pages/RouteErrorPage.tsx';
import { pageRoutes, renderPage } from './route-table.tsx';

export function buildRoutes(): RouteObject[] {
  return [
    {
      element: <Layout />,
      errorElement: <RouteErrorPage />,
      children: pageRoutes.map(({ path, source }) => ({
        path,
        element: renderPage(source),
        // A page that throws is contained by its RemoteSlot; anything else lands here.
        errorElement: <RouteErrorPage />,
      })),
    },
  ];
}

export function createRouter() {
  return createBrowserRouter(buildRoutes());
}
