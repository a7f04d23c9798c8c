import { defineConfig, devices } from '@playwright/test';
import { BASE_URL, E2E_DATA_DIR, E2E_PORT } from './scripts/e2e-env.ts';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: './tests',
  // Each local run on its own port keeps its own artifacts; CI uses one folder.
  outputDir: process.env.CI ? './test-results' : `./test-results/port-${E2E_PORT}`,
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  // A journey of several pages under load: its waits add up (each page up to 20 s, below).
  timeout: 90_000,
  // A strategy page's first paint takes 3 s on an idle 2-core machine and up to 19 s with both
  // workers and other work on it (measured): waits are for pages, never for timing.
  expect: { timeout: 20_000 },
  reporter: process.env.CI
    ? [['list'], ['json', { outputFile: 'test-results/results.json' }]]
    : 'list',
  use: {
    ...devices['Desktop Chrome'],
    baseURL: BASE_URL,
    viewport: { width: 1280, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'site', testIgnore: /releases\.spec\.ts$/ },
    // Releasing builds a remote and starts site processes and a PostgreSQL of its own: run after
    // the rest, alone, so that its load never slows another spec's pages.
    { name: 'releases', testMatch: /releases\.spec\.ts$/, dependencies: ['site'] },
  ],
  webServer: {
    command: 'node --import tsx scripts/serve.ts',
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    env: {
      E2E_PORT: String(E2E_PORT),
      DATA_DIR: E2E_DATA_DIR,
      // Many sign-ups and logins come from one address in a test run.
      RATE_LIMIT_MAX: '100000',
      NODE_ENV: 'production',
    },
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
