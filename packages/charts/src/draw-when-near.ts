import { startTransition, useEffect, useState, type RefObject } from 'react';

export interface DrawWhenNearOptions {
  /**
   * How close to the viewport the element must come, as an IntersectionObserver `rootMargin`
   * ('200px', '300px 0px'). A chart far below the fold costs nothing until scrolled to.
   */
  rootMargin: string;
  /**
   * Start watching only once the browser is idle after the first paint, so the chart's code
   * (and Highcharts) is requested after the page's own content has rendered.
   */
  afterIdle?: boolean;
  /**
   * Loads the chart module. Charts given one take turns: each waits for the previous chart's
   * turn, loads its code (so it does not suspend and then render together with its neighbours)
   * and yields to the browser, so every chart is drawn in a task of its own.
   */
  load?: () => Promise<unknown>;
  /**
   * Once near, wait this long before drawing (a task of its own even at 0): lets two charts that
   * come into view together be drawn in different tasks.
   */
  delayMs?: number;
}

/** The turn of the chart drawn last: the next chart waits for it. */
let lastTurn: Promise<void> = Promise.resolve();

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function takeTurn(load: () => Promise<unknown>): Promise<void> {
  const turn = lastTurn.then(load).then(nextTask, nextTask);
  lastTurn = turn;
  return turn;
}

/**
 * True once the element is near the viewport and the chart may be drawn, then true for good.
 * Drawing every chart of a page in one React commit is a single long task (hundreds of ms on a
 * slow phone); this hook spreads them out and skips the ones nobody scrolls to. The update is a
 * transition, so drawing never blocks the reader's input. Without IntersectionObserver (old
 * browsers, tests) the element counts as near.
 */
export function useDrawWhenNear(
  ref: RefObject<Element | null>,
  { rootMargin, afterIdle = false, load, delayMs }: DrawWhenNearOptions,
): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready) return;
    let cancelled = false;
    let frame: number | undefined;
    let idle: number | undefined;
    let timer: number | undefined;
    let observer: IntersectionObserver | undefined;

    const draw = () => {
      if (cancelled) return;
      if (delayMs === undefined) startTransition(() => setReady(true));
      else timer = window.setTimeout(() => startTransition(() => setReady(true)), delayMs);
    };
    const near = () => {
      observer?.disconnect();
      if (load) void takeTurn(load).then(draw);
      else draw();
    };
    const watch = () => {
      const element = ref.current;
      if (!element || typeof IntersectionObserver === 'undefined') return near();
      observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) near();
        },
        { rootMargin },
      );
      observer.observe(element);
    };

    if (afterIdle) {
      frame = requestAnimationFrame(() => {
        if (typeof window.requestIdleCallback === 'function') {
          idle = window.requestIdleCallback(watch, { timeout: 1200 });
        } else {
          timer = window.setTimeout(watch, 200);
        }
      });
    } else {
      watch();
    }
    return () => {
      cancelled = true;
      if (frame !== undefined) cancelAnimationFrame(frame);
      if (idle !== undefined) window.cancelIdleCallback(idle);
      window.clearTimeout(timer);
      observer?.disconnect();
    };
  }, [ref, rootMargin, afterIdle, load, delayMs, ready]);
  return ready;
}
