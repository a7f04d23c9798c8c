/**
 * Runs `callback` once the comparison's title block has been painted (its largest text is the
 * page's largest contentful paint on /options), so later downloads never compete with that paint.
 * Where the block starts off screen (the home page, under the hero), or the browser has no LCP
 * entries, it runs as soon as the main thread is idle. When the page arrived painted by the server,
 * that paint is the largest one and its element has since been replaced: it runs at once. Returns
 * a cancel function.
 */
export function afterIntroPainted(intro: HTMLElement | null, callback: () => void): () => void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    callback();
  };
  const cleanups: (() => void)[] = [];
  const runWhenIdle = () => {
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(run, { timeout: 400 });
      cleanups.push(() => window.cancelIdleCallback(id));
    } else {
      const id = window.setTimeout(run, 50);
      cleanups.push(() => window.clearTimeout(id));
    }
  };

  const onScreen = intro ? intro.getBoundingClientRect().top < window.innerHeight : false;
  const lcpSupported =
    typeof PerformanceObserver !== 'undefined' &&
    (PerformanceObserver.supportedEntryTypes ?? []).includes('largest-contentful-paint');

  if (!onScreen || !lcpSupported) {
    runWhenIdle();
  } else {
    const observer = new PerformanceObserver((list) => {
      const painted = list.getEntries().some((entry) => {
        // An entry whose element is gone (null) was painted by markup the app has replaced: the
        // server's first paint of this block.
        const element = (entry as LargestContentfulPaint).element;
        return element === null || intro?.contains(element);
      });
      if (painted) run();
    });
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
    // Safety net: a paint that is not the largest one so far reports no entry.
    const fallback = window.setTimeout(run, 500);
    cleanups.push(() => {
      observer.disconnect();
      window.clearTimeout(fallback);
    });
  }
  return () => {
    done = true;
    cleanups.forEach((cleanup) => cleanup());
  };
}
