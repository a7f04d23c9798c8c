/**
 * The import boundaries of eslint.config.js, run through ESLint with the repository's own
 * configuration on sample code "placed" in each workspace package (the files need not exist; the
 * modules they import do).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT });

/** Every workspace package folder, as pnpm-workspace.yaml lists them. */
function workspacePackages(): string[] {
  const globs = [
    ...fs.readFileSync(path.join(ROOT, 'pnpm-workspace.yaml'), 'utf8').matchAll(/^ {2}- (\S+)$/gm),
  ].map((match) => match[1]!);
  return globs.flatMap((glob) => {
    if (!glob.endsWith('/*')) return [glob];
    const parent = glob.slice(0, -2);
    return fs
      .readdirSync(path.join(ROOT, parent))
      .map((name) => `${parent}/${name}`)
      .filter((dir) => fs.existsSync(path.join(ROOT, dir, 'package.json')));
  });
}

async function lint(file: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages;
}

const ruleIds = (messages: Linter.LintMessage[]) => messages.map((m) => m.ruleId);

/** A sample module of `dir` that imports `target` (a file of the repository) by relative path. */
function sampleImporting(dir: string, target: string) {
  const file = `${dir}/src/boundary-sample.ts`;
  let relative = path.relative(path.dirname(path.join(ROOT, file)), path.join(ROOT, target));
  if (!relative.startsWith('.')) relative = `./${relative}`;
  return { file, relative };
}

describe('relative imports across packages', () => {
  const packages = workspacePackages();

  it('knows every workspace package', () => {
    expect(packages).toEqual(
      expect.arrayContaining(['shell', 'mfe-leaderboard', 'api', 'e2e', 'bench', 'packages/ui']),
    );
  });

  it.each(workspacePackages())('are an error in %s', async (dir) => {
    // Another package's module, imported by a path that leaves `dir`.
    const target =
      dir === 'packages/platform' ? 'packages/ui/src/format.ts' : 'packages/platform/src/theme.ts';
    const { file, relative } = sampleImporting(dir, target);
    const messages = await lint(file, `export { colors } from '${relative}';\n`);
    expect(ruleIds(messages)).toContain('import-x/no-relative-packages');
  });

  it('catch imports, type imports and dynamic imports alike', async () => {
    const { file, relative } = sampleImporting('api', 'packages/platform/src/theme.ts');
    const messages = await lint(
      file,
      [
        `import { colors } from '${relative}';`,
        `import type { antdThemeTokens } from '${relative}';`,
        `export const theme = () => import('${relative}');`,
        `export const all = [colors] as unknown as typeof antdThemeTokens;`,
      ].join('\n'),
    );
    expect(ruleIds(messages).filter((id) => id === 'import-x/no-relative-packages')).toHaveLength(
      3,
    );
  });

  it('leave imports inside the package and by workspace name alone', async () => {
    const messages = await lint(
      'packages/ui/src/boundary-sample.ts',
      [
        `import { formatApr } from './format.ts';`,
        `import { colors } from '@yield/platform';`,
        `export const sample = [formatApr, colors];`,
      ].join('\n'),
    );
    expect(messages).toEqual([]);
  });
});

describe('Highcharts in the apps', () => {
  it('comes only through the chart kit', async () => {
    const messages = await lint(
      'mfe-strategy/src/shared/charts/boundary-sample.tsx',
      [
        `import Highcharts from 'highcharts';`,
        `import 'highcharts/css/highcharts-palette.css';`,
        `import { Highcharts as Kit } from '@yield/charts/highcharts';`,
        `export const sample = [Highcharts, Kit];`,
      ].join('\n'),
    );
    expect(messages.map((m) => [m.ruleId, m.line])).toEqual([
      ['no-restricted-imports', 1],
      ['no-restricted-imports', 2],
    ]);
  });
});
