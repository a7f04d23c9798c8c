// ESLint flat config for the whole workspace.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import fs from 'node:fs';
import path from 'node:path';
import local from './eslint/function-length.js';

const remotes = ['mfe-leaderboard', 'mfe-strategy', 'mfe-premium', 'mfe-content'];
const apps = ['shell', ...remotes];

/** The feature folders of a remote (`<remote>/src/features/<name>/`). */
function featuresOf(remote) {
  const dir = path.join(import.meta.dirname, remote, 'src/features');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/** The API's modules (`api/src/modules/<name>/`), each reached by others only through its index.ts. */
function apiModules() {
  const dir = path.join(import.meta.dirname, 'api/src/modules');
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      'e2e/.tmp/**',
      'api/data/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // Packages reach each other by their workspace name (`@yield/platform`), never by a relative
  // path that leaves their own folder: what a package offers is what its package.json exports,
  // and what it needs is in its dependencies. Applies to every workspace package (shell, mfe-*,
  // api, e2e, bench, packages/*). Tested in packages/lint.
  {
    files: ['**/*.{js,mjs,cjs,ts,tsx,mts,cts}'],
    plugins: { 'import-x': importX },
    rules: { 'import-x/no-relative-packages': 'error' },
  },
  // No import cycles in the API's source: a module and what it imports form a tree, so that each
  // layer (engine, platform, modules) can be read, tested and moved on its own. The rule skips
  // type-only imports; packages/lint checks the graph with them too. Limited to api/src, where the
  // TypeScript resolver is needed and cheap. Tested in packages/lint.
  {
    files: ['api/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'api/tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // The API's layers (docs/architecture.md): engine/ is pure; platform/ serves every module
      // and knows none; a module takes its dependencies narrowly and never imports the
      // composition root (composition/, app.ts, index.ts, server.ts), except the data files'
      // registry; it reaches another module only through that module's index.ts. Every folder of
      // modules/ is a zone of its own, read when the configuration loads.
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: './api/src/engine',
              from: './api/src',
              except: ['./engine'],
              message: 'engine/ is pure: it imports only engine/ and @yield/contract.',
            },
            {
              target: './api/src/platform',
              from: './api/src',
              except: ['./platform', './engine'],
              message:
                'platform/ serves every module and imports none of them (nor the composition).',
            },
            {
              target: './api/src/modules',
              from: './api/src/composition',
              message:
                'Modules take their narrow dependencies, not the composition root that builds them.',
            },
            {
              target: './api/src/modules',
              from: ['./api/src/app.ts', './api/src/index.ts', './api/src/server.ts'],
              message:
                'Modules take their narrow dependencies, not the composition root that builds them.',
            },
            ...apiModules().map((name, _, all) => ({
              target: `./api/src/modules/${name}`,
              from: './api/src/modules',
              except: [`./${name}`, ...all.filter((o) => o !== name).map((o) => `./${o}/index.ts`)],
              message: `A module reaches another only through its index.ts (modules/<name>/index.ts), never its files.`,
            })),
          ],
        },
      ],
    },
  },
  // The remotes' layout (docs/architecture.md, "The remotes' folders"): `src/pages/` are the
  // exposed pages and may import any feature; each `src/features/<name>/` owns its components,
  // hooks, model and styles and imports no other feature (nor a page); `src/shared/` is what
  // several features use and imports neither features nor pages. Every folder of `features/` is a
  // zone of its own, read when the configuration loads. Tested in packages/lint.
  ...remotes.map((remote) => ({
    files: [`${remote}/**/*.{ts,tsx}`],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            ...featuresOf(remote).map((feature) => ({
              target: `./${remote}/src/features/${feature}`,
              from: `./${remote}/src/features`,
              except: [`./${feature}`],
              message: `A feature imports no other feature: move what ${feature} shares with it to src/shared/, or let the page compose both.`,
            })),
            {
              target: `./${remote}/src/features`,
              from: `./${remote}/src/pages`,
              message: 'A feature never imports a page: pages compose features.',
            },
            {
              target: `./${remote}/src/shared`,
              from: [`./${remote}/src/features`, `./${remote}/src/pages`],
              message: 'src/shared/ serves the features and imports none of them, nor a page.',
            },
          ],
        },
      ],
    },
  })),
  // Functions a reviewer can hold in mind (docs/decisions.md, "Functions a reviewer can hold in
  // mind"): in the source of the API, the packages, the shell and the remotes (tests and scripts
  // aside), no function over 80 lines of logic (`local/max-logic-lines`: lines that are only data
  // literals, JSX or template markup do not count) or 200 lines in all. Tested in packages/lint.
  {
    files: ['{api,shell,mfe-*}/src/**/*.{ts,tsx}', 'packages/*/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/src/test/**'],
    plugins: { local },
    rules: {
      'local/max-logic-lines': ['error', { max: 80 }],
      'max-lines-per-function': [
        'error',
        { max: 200, skipBlankLines: true, skipComments: true, IIFEs: true },
      ],
    },
  },
  // Import boundaries of the apps: they never import each other's source (the shell reaches
  // remotes only at runtime through its registry), and they reach Highcharts only through the
  // chart kit, whose setup every chart shares.
  ...apps.map((app) => ({
    files: [`${app}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['highcharts', 'highcharts-react-official'].map((name) => ({
            name,
            message:
              'Import Highcharts from @yield/charts/highcharts, in a lazily loaded chart module.',
          })),
          patterns: [
            {
              group: apps
                .filter((other) => other !== app)
                .flatMap((other) => [`**/${other}/**`, `@yield/${other}`, `@yield/${other}/**`])
                .concat(['@yield/api', '@yield/api/**', '**/api/src/**']),
              message: "Apps never import another app's or the API's source.",
            },
            {
              group: ['highcharts/**'],
              message: 'Highcharts modules and CSS belong to @yield/charts/highcharts.',
            },
          ],
        },
      ],
    },
  })),
);
