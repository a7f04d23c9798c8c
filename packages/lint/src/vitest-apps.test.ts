/**
 * One test configuration for the shell and the four remotes (`@yield/lint/vitest-apps`,
 * vitest.apps.js): each app's vitest.config.ts only re-exports it, and keeps its own setup file.
 */
import fs from 'node:fs';
import path from 'node:path';
import config from '../vitest.apps.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const APPS = ['shell', 'mfe-leaderboard', 'mfe-strategy', 'mfe-premium', 'mfe-content'];

describe("the apps' test configuration", () => {
  it.each(APPS)("%s's vitest.config.ts re-exports the shared one", (app) => {
    const text = fs.readFileSync(path.join(ROOT, app, 'vitest.config.ts'), 'utf8');
    expect(text).toBe("export { default } from '@yield/lint/vitest-apps';\n");
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, app, 'package.json'), 'utf8'));
    expect(manifest.devDependencies['@yield/lint']).toBe('workspace:*');
    expect(manifest.scripts.test).toBe('vitest run');
  });

  it.each(APPS)('%s keeps its own vitest.setup.ts', (app) => {
    expect(fs.existsSync(path.join(ROOT, app, 'vitest.setup.ts'))).toBe(true);
  });

  it("runs each app's tests in jsdom, with its own setup file", () => {
    expect(config.test).toMatchObject({
      environment: 'jsdom',
      globals: true,
      setupFiles: ['./vitest.setup.ts'],
      passWithNoTests: false,
    });
  });
});
