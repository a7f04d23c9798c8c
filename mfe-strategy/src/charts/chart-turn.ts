import { useEffect, useState, type RefObject } from 'react';

/**
 * Charts are drawn one per task, and only once they come near the viewport. Drawing every chart
 * of a page in one React commit is a single long task (hundreds of ms on a slow phone); taking
 * turns keeps the page responsive, and charts far below the fold cost nothing until scrolled to.
 */
let queue: Promise<void> = Promise.resolve();

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Waits for the previous chart's turn, loads this chart's code (so it does not suspend and then
 * render together with its neighbours), then yields to the browser before drawing.
 */
function takeTurn(load: () => Promise<unknown>): Promise<void> {
  const turn = queue.then(load).then(nextTask, nextTask);
  queue = turn;
  return turn;
}

/** True once the element is within `margin` of the viewport and its drawing turn has come. */
export function useChartTurn(
  ref: RefObject<Element | null>,
  load: () => Promise<unknown>,
  margin = '200px',
): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || ready) return;
    let cancelled = false;
    const start = () => {
      void takeTurn(load).then(() => {
        if (!cancelled) setReady(true);
      });
    };
    if (typeof IntersectionObserver === 'undefined') {
      start();
      return () => {
        cancelled = true;
      };
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect();
          start();
        }
      },
      { rootMargin: margin },
    );
    observer.observe(el);
    return () => {
      cancelled = true;
      observer.disconnect();
    };
  }, [ref, load, margin, ready]);
  return ready;
}
