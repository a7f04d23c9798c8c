import type { ReactNode } from 'react';
import {
  buildRouteTable,
  parsePages,
  type ModuleRef,
  type PageRoute,
  type RemotePageList,
  type RouteTable,
} from '@yield/federation/pages';
import { fetchPageLists } from '../remotes/pages.ts';
import { RemoteFallback, RemoteSlot } from '../remotes/RemoteSlot.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';

/**
 * The route table of this page load, from every remote's page list. A remote whose list cannot
 * be read or is invalid only loses its own pages (logged); the table then says it is incomplete,
 * and an unknown path gets the contained fallback instead of the not-found page.
 */
export async function loadRouteTable(): Promise<RouteTable> {
  const fetched = await fetchPageLists();
  const table =
    'error' in fetched
      ? { pages: [], complete: false, problems: [fetched.error] }
      : buildRouteTable(
          fetched.map((list): RemotePageList => {
            if ('error' in list) return list;
            try {
              return { remote: list.remote, pages: parsePages(list.document, list.remote) };
            } catch (error) {
              return { remote: list.remote, error: (error as Error).message };
            }
          }),
        );
  for (const problem of table.problems) console.error('[pages]', problem);
  return table;
}

/** A path of the router and what it renders: a page of a remote, or what the shell shows. */
export interface PageRouteObject {
  path: string;
  element: ReactNode;
}

/** Space each part of a composed page reserves while it loads, so the page does not jump. */
const FIRST_PART_MIN_HEIGHT = '90vh';
const PART_MIN_HEIGHT = '100vh';

const slotKey = (ref: ModuleRef) => `${ref.remote}/${ref.module}`;

/**
 * A page of the route table. One module renders the whole page (and its own `<main>`); several
 * compose it top to bottom (`/`: hero, comparison, landing sections), each contained on its own,
 * as sections of the shell's `<main>`.
 */
export function renderPage(page: Pick<PageRoute, 'modules'>): ReactNode {
  const [only, ...rest] = page.modules;
  if (only && rest.length === 0) {
    // A new page gets a fresh boundary: one page's failure never sticks to the next.
    return <RemoteSlot key={slotKey(only)} {...only} />;
  }
  return (
    <main className="composed-page">
      {page.modules.map((ref, index) => (
        <RemoteSlot
          key={slotKey(ref)}
          {...ref}
          minHeight={index === 0 ? FIRST_PART_MIN_HEIGHT : PART_MIN_HEIGHT}
        />
      ))}
    </main>
  );
}

/**
 * A path no page matches. When a remote's page list could not be read, the path may be one of
 * its pages: that is shown as a part that could not be loaded (Retry loads the page again, page
 * lists included), not as a page that does not exist.
 */
export function UnknownPath({ complete }: { complete: boolean }) {
  if (complete) return <NotFoundPage />;
  return (
    <main>
      <RemoteFallback onRetry={() => window.location.reload()} />
    </main>
  );
}

/** The router's pages: the route table's, then the catch-all (ranked as react-router ranks). */
export function pageRoutes(table: RouteTable): PageRouteObject[] {
  return [
    ...table.pages.map((page) => ({ path: page.path, element: renderPage(page) })),
    { path: '*', element: <UnknownPath complete={table.complete} /> },
  ];
}
