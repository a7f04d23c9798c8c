/**
 * Standalone development harness of a remote: its own pages under a router, with the same query
 * client and session as in the shell, so a team can run and work on its remote alone.
 */
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Link, Outlet, RouterProvider } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from './query-client.ts';
import { initSession } from './session.ts';
import './styles/index.css';

export interface StandaloneRoute {
  path: string;
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
              {r.path}
            </Link>
          ))}
      </nav>
      <Outlet />
    </>
  );
}

export function renderStandalone(title: string, routes: StandaloneRoute[]): void {
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
