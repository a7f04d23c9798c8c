import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import type { RouteTable } from '@yield/federation/pages';
import { Layout } from '../layout/Layout.tsx';
import { RouteErrorPage } from '../pages/RouteErrorPage.tsx';
import { pageRoutes } from './route-table.tsx';

/** The router's routes from the run-time route table (shell/src/remotes/pages.ts). */
export function buildRoutes(table: RouteTable): RouteObject[] {
  return [
    {
      element: <Layout />,
      errorElement: <RouteErrorPage />,
      children: pageRoutes(table).map(({ path, element }) => ({
        path,
        element,
        // A page that throws is contained by its RemoteSlot; anything else lands here.
        errorElement: <RouteErrorPage />,
      })),
    },
  ];
}

export function createRouter(table: RouteTable) {
  return createBrowserRouter(buildRoutes(table));
}
