// Standalone development: this remote's pages on their own (the shell loads ./exposes/* instead).
import { renderStandalone } from '@yield/platform/standalone';
import pages from './pages.ts';

renderStandalone(
  'Premium',
  pages,
  (name) =>
    // Eager: bundled with this harness like static imports, no extra chunks beside the exposed ones.
    import(/* webpackMode: "eager" */ `./exposes/${name}.tsx`),
);
