import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // A throwaway PostgreSQL cluster for the store tests that run on a real database.
    globalSetup: ['test/pg-global-setup.ts'],
    // The data-loading suites copy the shipped data dir and run scrypt; give them room on 2 cores.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
