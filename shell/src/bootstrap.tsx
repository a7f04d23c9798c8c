import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { adoptFirstPaint, createQueryClient, forgetFirstPaint, initSession } from '@yield/platform';
import { createRouter } from './app/router.tsx';
import { loadRouteTable } from './remotes/pages.ts';
import '@yield/platform/styles.css';
import './styles/chrome.css';

initSession();
const queryClient = createQueryClient();
// Started by the entry (index.ts) together with this chunk: usually already there.
const router = createRouter(await loadRouteTable());

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

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
