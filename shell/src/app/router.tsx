import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { checkReleases, type ReleaseCheckOptions } from '../remotes/releases.ts';
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

/** The route whose loader checks the remotes' releases before each navigation renders. */
export const RELEASE_CHECK_ROUTE = 'release-check';

/**
 * The routes under a route whose loader re-reads `/remotes.json` before every navigation's page
 * renders (remotes/releases.ts). It renders nothing of its own.
 */
export function checkingReleases(
  routes: RouteObject[],
  options?: ReleaseCheckOptions,
): RouteObject[] {
  return [
    {
      id: RELEASE_CHECK_ROUTE,
      loader: ({ request }) => checkReleases(request.url, options),
      shouldRevalidate: () => true,
      children: routes,
    },
  ];
}

/**
 * The page as loaded is not checked: its manifest was read just before (no request before the
 * first render, which stays synchronous: the loader's answer is given, so no fallback renders).
 */
export const FIRST_RENDER_CHECKED = {
  hydrationData: { loaderData: { [RELEASE_CHECK_ROUTE]: null } },
};

export function createRouter(table: RouteTable) {
  return createBrowserRouter(checkingReleases(buildRoutes(table)), FIRST_RENDER_CHECKED);
}
