import '@testing-library/jest-dom/vitest';

// Highcharts asks CSS.supports() when it loads; jsdom has no CSS.supports.
const css = (globalThis.CSS ?? {}) as Partial<typeof CSS>;
if (typeof css.supports !== 'function') {
  globalThis.CSS = { ...css, supports: () => false } as unknown as typeof CSS;
}
