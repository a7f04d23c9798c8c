import { StrictMode, startTransition, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import {
  FIRST_PAINT_ATTR,
  HYDRATING_ATTR,
  adoptFirstPaint,
  createQueryClient,
  forgetFirstPaint,
  initSession,
} from '@yield/platform';
import { createRouter } from './app/router.tsx';
import { loadRouteTable } from './app/route-table.tsx';
import { HydrationBox } from './remotes/hydration.tsx';
import '@yield/platform/styles.css';
import './styles/chrome.css';

initSession();
const queryClient = createQueryClient();

function render(router: ReturnType<typeof createRouter>) {
  const root = document.getElementById('root')!;
  // The page may arrive painted by the server: keep its modules' markup for their slots, and its
  // settings, so the first render here matches what is on screen.
  adoptFirstPaint(root, queryClient);
  const firstLocation = router.state.location.key;
  const unsubscribe = router.subscribe((state) => {
    if (state.location.key === firstLocation) return;
    forgetFirstPaint();
    unsubscribe();
  });

  // A page marked for hydration (its only module hydrates, see remotes/hydration.tsx) is adopted
  // as it is; any other page is rendered over the server's markup.
  const hydrating = root.querySelector(`:scope > [${HYDRATING_ATTR}]`);
  const slot = hydrating?.getAttribute(FIRST_PAINT_ATTR);
  const routes = <RouterProvider router={router} />;
  const withQueries = (children: ReactNode) => (
    <StrictMode>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </StrictMode>
  );
  // A transition: React renders (or hydrates) the app in slices of a few milliseconds, yielding
  // to the browser between them, and the server's markup stays on screen until it is ready.
  startTransition(() => {
    if (slot) {
      hydrateRoot(root, withQueries(<HydrationBox slot={slot}>{routes}</HydrationBox>), {
        // A mismatch costs the adoption (React renders that part again): a bug, shown as one.
        onRecoverableError: (error, info) =>
          console.error('[hydration]', error, info.componentStack ?? ''),
      });
    } else {
      createRoot(root).render(withQueries(routes));
    }
  });
}

// The page lists were requested by the entry (index.ts) with this chunk: usually already there.
// The router is built in one task and the page adopted and rendered in the next: together they
// were one task of ~50 ms on a phone (docs/performance.md, "The shell's start, task
// by task").
void loadRouteTable().then((table) => {
  const router = createRouter(table);
  setTimeout(() => render(router), 0);
});
