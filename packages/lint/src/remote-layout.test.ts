/**
 * The remotes' layout (eslint.config.js, `import-x/no-restricted-paths`; docs/architecture.md,
 * "The remotes' folders"): a feature (`src/features/<name>/`) imports no other feature and no page,
 * `src/shared/` imports neither features nor pages, pages import anything. Sample code is linted
 * as if it were placed in each remote; the modules it imports are real files of that remote.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT });

async function layoutErrors(file: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').length;
}

/** Per remote: two features, a module of each, a shared module and a page (all real files). */
const REMOTES = {
  'mfe-leaderboard': {
    features: ['comparison', 'scanner'],
    modules: ['features/comparison/model.ts', 'features/scanner/scanner-params.ts'],
    shared: 'shared/page-intro.module.css',
    page: 'pages/ScannerPage.tsx',
  },
  'mfe-strategy': {
    features: ['compare', 'detail'],
    modules: ['features/compare/model.ts', 'features/detail/detail.module.css'],
    shared: 'shared/sources.ts',
    page: 'pages/ComparePage.tsx',
  },
  'mfe-premium': {
    features: ['pricing', 'analysis'],
    modules: ['features/pricing/InviteCodeForm.tsx', 'features/analysis/InfoTip.tsx'],
    shared: 'shared/navigation-state.ts',
    page: 'pages/PricingPage.tsx',
  },
  'mfe-content': {
    features: ['legal', 'methodology'],
    modules: ['features/legal/LegalPage.tsx', 'features/methodology/WorkedExample.tsx'],
    shared: 'shared/components/Icon.tsx',
    page: 'pages/MethodologyPage.tsx',
  },
} as const;

type Remote = keyof typeof REMOTES;
const remotes = Object.keys(REMOTES) as Remote[];

/** `import` of `target` (relative to the remote's src/) from a sample file at `file`. */
function importOf(remote: Remote, file: string, target: string): string {
  let relative = path.relative(path.dirname(`${remote}/src/${file}`), `${remote}/src/${target}`);
  if (!relative.startsWith('.')) relative = `./${relative}`;
  return `import sample from '${relative}';\nexport const used = sample;\n`;
}

describe("the remotes' layout", () => {
  it('every module the samples import exists', () => {
    for (const remote of remotes) {
      const { modules, shared, page } = REMOTES[remote];
      for (const file of [...modules, shared, page]) {
        expect(fs.existsSync(path.join(ROOT, remote, 'src', file)), `${remote}/src/${file}`).toBe(
          true,
        );
      }
    }
  });

  describe.each(remotes)('%s', (remote) => {
    const { features, modules, shared, page } = REMOTES[remote];
    const [a, b] = features;
    const [moduleOfA, moduleOfB] = modules;

    it.each([
      ['a feature imports another feature', `features/${a}/sample.ts`, moduleOfB],
      ['the other feature imports the first', `features/${b}/sample.ts`, moduleOfA],
      ['a feature imports a page', `features/${a}/sample.ts`, page],
      ['a nested file of a feature imports a page', `features/${a}/part/sample.ts`, page],
      ['shared imports a feature', 'shared/sample.ts', moduleOfA],
      ['shared imports a page', 'shared/sample.ts', page],
    ])('%s: an error', async (_name, file, target) => {
      expect(await layoutErrors(`${remote}/src/${file}`, importOf(remote, file, target))).toBe(1);
    });

    it.each([
      ['a feature imports its own files', `features/${a}/sample.ts`, moduleOfA],
      [
        'a nested file of a feature imports its own feature',
        `features/${a}/part/sample.ts`,
        moduleOfA,
      ],
      ['a feature imports shared', `features/${a}/sample.ts`, shared],
      ['shared imports shared', 'shared/sample.ts', shared],
      ['a page imports a feature', 'pages/sample.tsx', moduleOfA],
      ['a page imports another feature', 'pages/sample.tsx', moduleOfB],
      ['a page imports shared', 'pages/sample.tsx', shared],
      ['a page imports a page', 'pages/sample.tsx', page],
      ['an exposed module re-exports a page', 'exposes/Sample.tsx', page],
    ])('%s: allowed', async (_name, file, target) => {
      expect(await layoutErrors(`${remote}/src/${file}`, importOf(remote, file, target))).toBe(0);
    });
  });

  it('every feature folder is a zone, not only the ones named here', async () => {
    // The zones are read from the folders of src/features when the configuration loads:
    // strategy's numeric feature, named nowhere in the configuration, is checked like the others.
    const code = importOf(
      'mfe-strategy',
      'features/detail/sample.ts',
      'features/numeric/NumericStrategy.tsx',
    );
    expect(await layoutErrors('mfe-strategy/src/features/detail/sample.ts', code)).toBe(1);
  });
});
