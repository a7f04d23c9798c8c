import '@testing-library/jest-dom/vitest';

// jsdom has no matchMedia; antd and the comparison's breakpoints read it. Tests set
// `window.innerWidth` and this answers max-width queries from it.
if (typeof window !== 'undefined' && !window.matchMedia) {
  window.matchMedia = (query: string) => {
    const max = /max-width:\s*([\d.]+)px/.exec(query);
    const min = /min-width:\s*([\d.]+)px/.exec(query);
    const width = window.innerWidth;
    const matches = (!max || width <= Number(max[1])) && (!min || width >= Number(min[1]));
    return {
      matches,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    } as MediaQueryList;
  };
}

// jsdom has no ResizeObserver; antd's table observes its size. Nothing resizes in these tests.
if (typeof window !== 'undefined' && !('ResizeObserver' in window)) {
  class NoopResizeObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = NoopResizeObserver;
}
import '@yield/fixtures/setup';
