/**
 * Server side of the first paint (see first-paint.ts): renders a module or the shell's frame to
 * markup with the providers the browser would give it, in its initial state. Bundled into each
 * app's `dist/server/render.cjs`, never into browser code.
 */
import type { ComponentType, ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider, createStore } from 'jotai';
import type { FirstPaintContext, RenderModule } from './first-paint-contract.ts';
import { seedAnswers, settingsQuery } from './queries.ts';

/**
 * Renders `element` at `context.path` with settings and the page's first data (`context.data`)
 * known and nothing else fetched.
 */
export function renderFirstPaint(element: ReactNode, context: FirstPaintContext): string {
  // Nothing is fetched on the server: queries other than those seeded stay in their loading state.
  const queryClient = new QueryClient({
    defaultOptions: { queries: { enabled: false, retry: false, gcTime: Infinity } },
  });
  queryClient.setQueryData(settingsQuery.queryKey, context.settings);
  // The page's first API reads, when the server had them (the browser is given the same).
  if (context.data) seedAnswers(queryClient, context.data, Date.now());
  try {
    return renderToString(
      <QueryClientProvider client={queryClient}>
        <JotaiProvider store={createStore()}>
          <StaticRouter location={context.path}>{element}</StaticRouter>
        </JotaiProvider>
      </QueryClientProvider>,
    );
  } finally {
    queryClient.clear();
  }
}

/**
 * A remote's `render`: the modules it can render on the server, each in its initial state;
 * `withData` also renders with the page's first data (see RenderModule).
 */
export function createModuleRenderer(
  modules: Record<string, ComponentType>,
  withData: Record<string, ComponentType> = {},
): RenderModule {
  const all = { ...modules, ...withData };
  const render: RenderModule = (module, context) => {
    const Page = Object.hasOwn(all, module) ? all[module] : undefined;
    if (!Page) return null;
    // Under the page's pattern, as the shell's router renders it, so the page reads its params.
    const element = context.pattern ? (
      <Routes>
        <Route path={context.pattern} element={<Page />} />
      </Routes>
    ) : (
      <Page />
    );
    return renderFirstPaint(element, context);
  };
  render.withData = Object.keys(withData);
  return render;
}
