/**
 * Front ends take only types from '@yield/contract' and values from '@yield/contract/constants',
 * so zod (the schemas) never reaches a browser bundle; the contract's test data (@yield/fixtures)
 * is imported by tests only. `import { type X }` does not count as
 * type-only: with verbatimModuleSyntax it still loads the module.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');
const BROWSER_SOURCES = [
  'shell/src',
  'mfe-leaderboard/src',
  'mfe-strategy/src',
  'mfe-premium/src',
  'mfe-content/src',
  'packages/platform/src',
  'packages/ui/src',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Every import or re-export of the zod entry point that would load it at run time. */
function valueImportsOfContract(text: string): string[] {
  const statements = text.match(
    /\b(?:import|export)\b[^;'"]*?(?:from\s*)?['"]@yield\/contract['"]/g,
  );
  return (statements ?? []).filter((s) => !/^(?:import|export)\s+type\b/.test(s));
}

describe('browser code and the contract', () => {
  it('recognises value imports, including the inline `type` form', () => {
    expect(valueImportsOfContract("import type { A } from '@yield/contract';")).toEqual([]);
    expect(valueImportsOfContract("export type { A } from '@yield/contract';")).toEqual([]);
    expect(valueImportsOfContract("import { A } from '@yield/contract/constants';")).toEqual([]);
    expect(valueImportsOfContract("import { type A } from '@yield/contract';")).toHaveLength(1);
    expect(valueImportsOfContract("import {\n  a,\n  b,\n} from '@yield/contract';")).toHaveLength(
      1,
    );
    expect(valueImportsOfContract("import '@yield/contract';")).toHaveLength(1);
  });

  it('imports only types from @yield/contract (values from @yield/contract/constants)', () => {
    const offenders = BROWSER_SOURCES.flatMap((dir) =>
      sourceFiles(path.join(root, dir)).flatMap((file) =>
        valueImportsOfContract(readFileSync(file, 'utf8')).map(
          (s) => `${path.relative(root, file)}: ${s}`,
        ),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('imports @yield/fixtures (test data, zod, MSW) only from tests and their helpers', () => {
    // Test files, and the helpers only tests import (src/test/, test-*.ts).
    const testOnly = /(?:\.test\.tsx?|\/test\/[^/]+\.tsx?|\/test-[\w-]+\.tsx?)$/;
    expect(testOnly.test('mfe-content/src/test/render.tsx')).toBe(true);
    expect(testOnly.test('mfe-leaderboard/src/comparison/test-fixtures.ts')).toBe(true);
    expect(testOnly.test('mfe-strategy/src/pages/ComparePage.tsx')).toBe(false);
    const offenders = BROWSER_SOURCES.flatMap((dir) =>
      sourceFiles(path.join(root, dir))
        .filter((file) => !testOnly.test(file.split(path.sep).join('/')))
        .filter((file) => /['"]@yield\/fixtures(?:\/[\w-]+)?['"]/.test(readFileSync(file, 'utf8')))
        .map((file) => path.relative(root, file)),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps the constants entry point free of zod', () => {
    // The constants entry re-exports its three zod-free neighbours, which import nothing.
    const modules = ['./paths.ts', './weights.ts', './error-codes.ts'];
    for (const file of ['constants.ts', 'paths.ts', 'weights.ts', 'error-codes.ts']) {
      const text = readFileSync(path.join(import.meta.dirname, file), 'utf8');
      const imported = [...text.matchAll(/from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]);
      expect(imported.filter((name) => !modules.includes(name!))).toEqual([]);
    }
  });
});
