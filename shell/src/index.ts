// Async boundary: shared singletons (react, router, jotai...) are negotiated before bootstrap runs.
import { FIRST_PAINT_DATA_ID, type FirstPaintData } from '@yield/platform/first-paint';
import { fetchPageLists } from './remotes/pages.ts';

function start() {
  // Start reading the route table (remotes manifest, then every remote's pages.json) at once, in
  // parallel with the shared libraries; the app renders once both are there.
  void fetchPageLists();
  void import(/* webpackChunkName: "bootstrap" */ './bootstrap.tsx');
}

/** The scripts the server asked to preload once its first paint is on screen. */
function preloadAfterPaint(data: HTMLElement) {
  let scripts: string[] = [];
  try {
    scripts = (JSON.parse(data.textContent ?? '') as FirstPaintData).preload ?? [];
  } catch {
    // Without the list the app still loads everything, one step at a time.
  }
  for (const href of scripts) {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = 'script';
    link.href = href;
    document.head.append(link);
  }
}

const firstPaint = document.getElementById(FIRST_PAINT_DATA_ID);
if (firstPaint) {
  // The page arrived painted by the server: let that paint reach the screen before any fetching
  // or rendering starts (a hidden tab never paints, so it does not wait for long).
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    preloadAfterPaint(firstPaint);
    start();
  };
  requestAnimationFrame(() => setTimeout(go, 0));
  setTimeout(go, document.hidden ? 0 : 1000);
} else {
  start();
}
