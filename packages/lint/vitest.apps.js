import { defineConfig } from 'vitest/config';

/**
 * The test configuration of the shell and the four remotes, one for all five: each app's
 * `vitest.config.ts` re-exports it, and keeps its own `vitest.setup.ts` (jest-dom matchers and
 * whatever that app's tests need before each file). Run from the app's folder (`pnpm test`,
 * `pnpm exec vitest run`), so `./vitest.setup.ts` is that app's. JavaScript, with its types in
 * vitest.apps.d.ts: Vite loads a config's imports from packages with Node, which runs no
 * TypeScript.
 */
export default defineConfig({
  test: {
    environment: 'jsdom',
    globals: true,
    testTimeout: 20_000,
    setupFiles: ['./vitest.setup.ts'],
    passWithNoTests: false,
  },
});
