import type { ReactNode } from 'react';
import { HOME_PATH, pageRouteData, type ModuleRef } from '@yield/federation/routes';
import { RemoteSlot } from '../remotes/RemoteSlot.tsx';
import { HomePage } from '../pages/HomePage.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';

/** Where a path's page comes from: a remote's exposed module, or the shell itself. */
export type PageSource =
  | { kind: 'remote'; remote: ModuleRef['remote']; module: string }
  | { kind: 'shell'; page: 'home' | 'not-found' };

export interface PageRoute {
  path: string;
  source: PageSource;
}

/** The route table (packages/federation/src/routes.ts) mapped to what renders each page. */
export const pageRoutes: PageRoute[] = pageRouteData.map(({ path, modules }) => {
  if (path === HOME_PATH) return { path, source: { kind: 'shell', page: 'home' } };
  const [only] = modules;
  if (!only) return { path, source: { kind: 'shell', page: 'not-found' } };
  return { path, source: { kind: 'remote', remote: only.remote, module: only.module } };
});

export function renderPage(source: PageSource): ReactNode {
  if (source.kind === 'shell') return source.page === 'home' ? <HomePage /> : <NotFoundPage />;
  const ref = { remote: source.remote, module: source.module } as ModuleRef;
  return (
    <RemoteSlot
      // A new page gets a fresh boundary: one page's failure never sticks to the next.
      key={`${ref.remote}/${ref.module}`}
      {...ref}
    />
  );
}
