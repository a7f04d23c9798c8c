import '@testing-library/jest-dom/vitest';

// jsdom has no CSS.supports, which Highcharts calls as its module loads. A chart lazily loaded
// in a test would fail there whenever a library has defined a bare `CSS` object (CSS.escape) by
// then, so the check is given one answer: unsupported.
for (const scope of [globalThis, window] as { CSS?: Partial<typeof CSS> }[]) {
  scope.CSS ??= {};
  if (typeof scope.CSS.supports !== 'function') scope.CSS.supports = () => false;
}
import '@yield/fixtures/setup';
