import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { AntdRoot } from '@yield/ui';

/** Renders inside what the shell provides: a router, a query client and the antd root. */
export function renderInApp(ui: ReactNode, { path = '/options' } = {}) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(
    [
      { path: '/options', element: <AntdRoot>{ui}</AntdRoot> },
      { path: '*', element: <p data-testid="location">navigated</p> },
    ],
    { initialEntries: [path] },
  );
  const result = render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...result, router, client };
}
