import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { adoptFirstPaint, createQueryClient, forgetFirstPaint, initSession } from '@yield/platform';
import { createRouter } from './app/router.tsx';
import { loadRouteTable } from './app/route-table.tsx';
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

  const app = createRoot(root);
  // A transition: React renders the app in slices of a few milliseconds, yielding to the
  // browser between them, and the server's markup stays on screen until the whole page is ready.
  startTransition(() => {
    app.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </StrictMode>,
    );
  });
}

// The page lists were requested by the entry (index.ts) with this chunk: usually already there.
void loadRouteTable().then((table) => render(createRouter(table)));
