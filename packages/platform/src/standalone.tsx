/**
 * Standalone development harness of a remote: its own pages under a router, with the same query
 * client and session as in the shell, so a team can run and work on its remote alone.
 */
import { StrictMode, Suspense, lazy, type ComponentType, type ReactNode } from 'react';
import type { RemotePages } from '@yield/federation/pages';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Link, Outlet, RouterProvider } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from './query-client.ts';
import { initSession } from './session.ts';
import './styles/index.css';

export interface StandaloneRoute {
  path: string;
  /** The link's text in the harness's navigation (the path when absent). */
  title?: string;
  element: ReactNode;
}

function HarnessLayout({ title, routes }: { title: string; routes: StandaloneRoute[] }) {
  return (
    <>
      <nav
        aria-label="Standalone pages"
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 12,
          padding: 12,
          fontSize: 13,
          background: '#0b1f3a',
        }}
      >
        <strong style={{ color: '#fff' }}>{title}</strong>
        {routes
          .filter((r) => !r.path.includes(':') && r.path !== '*')
          .map((r) => (
            <Link key={r.path} to={r.path} style={{ color: '#9cc2ff' }}>
              {r.title ?? r.path}
            </Link>
          ))}
      </nav>
      <Outlet />
    </>
  );
}

/** Loads one of the remote's exposed modules (`./exposes/<name>.tsx`). */
export type ExposedModuleLoader = (name: string) => Promise<{ default: ComponentType }>;

/**
 * The harness's routes, from the remote's own page list (src/pages.ts): each page with this
 * remote's modules (another remote's parts of a composed page are not here), and each section
 * other remotes compose at `/sections/<Name>`.
 */
export function standaloneRoutes(
  declared: RemotePages,
  load: ExposedModuleLoader,
): StandaloneRoute[] {
  const cache = new Map<string, ComponentType>();
  const element = (names: string[]) => (
    <Suspense fallback={<p className="spinner" aria-label="Loading" />}>
      {names.map((name) => {
        let Module = cache.get(name);
        if (!Module) {
          Module = lazy(() => load(name));
          cache.set(name, Module);
        }
        return <Module key={name} />;
      })}
    </Suspense>
  );
  const own = (specifiers: string[]) =>
    specifiers.filter((s) => s.startsWith('./')).map((s) => s.slice(2));
  return [
    ...declared.pages.map((page) => ({
      path: page.path,
      title: page.title,
      element: element(own(page.modules ?? (page.module ? [page.module] : []))),
    })),
    ...own(declared.sections ?? []).map((name) => ({
      path: `/sections/${name}`,
      title: name,
      element: element([name]),
    })),
  ];
}

export function renderStandalone(
  title: string,
  declared: RemotePages,
  load: ExposedModuleLoader,
): void {
  const routes = standaloneRoutes(declared, load);
  initSession();
  const router = createBrowserRouter([
    { element: <HarnessLayout title={title} routes={routes} />, children: routes },
  ]);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
