/**
 * Server side of the first paint (see first-paint.ts): renders a module or the shell's frame to
 * markup with the providers the browser would give it, in its initial state. Bundled into each
 * app's `dist/server/render.cjs`, never into browser code.
 */
import type { ComponentType, ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider, createStore } from 'jotai';
import type { FirstPaintContext, RenderModule } from './first-paint-contract.ts';
import { settingsQuery } from './queries.ts';

/** Renders `element` at `context.path` with settings known and nothing else fetched. */
export function renderFirstPaint(element: ReactNode, context: FirstPaintContext): string {
  // Nothing is fetched on the server: queries other than the settings stay in their loading state.
  const queryClient = new QueryClient({
    defaultOptions: { queries: { enabled: false, retry: false, gcTime: Infinity } },
  });
  queryClient.setQueryData(settingsQuery.queryKey, context.settings);
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

/** A remote's `render`: the modules it can render on the server, each in its initial state. */
export function createModuleRenderer(modules: Record<string, ComponentType>): RenderModule {
  return (module, context) => {
    const Page = Object.hasOwn(modules, module) ? modules[module] : undefined;
    return Page ? renderFirstPaint(<Page />, context) : null;
  };
}
