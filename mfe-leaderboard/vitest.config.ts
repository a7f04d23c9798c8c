import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'jsdom',
    globals: true,
    testTimeout: 20_000,
    setupFiles: ['./vitest.setup.ts'],
    passWithNoTests: false,
  },
});
