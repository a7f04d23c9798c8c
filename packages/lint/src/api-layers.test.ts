/**
 * The API's layers (eslint.config.js, `import-x/no-restricted-paths`; docs/architecture.md):
 * engine/ is pure, platform/ knows no module, a module never imports the composition root (not
 * even the data files' registry: it names the files it uses) and reaches another module only
 * through its index.ts. Sample code is linted as if it were placed in each layer.
 */
import path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT });

async function layerErrors(file: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').length;
}

describe('API layers', () => {
  it.each([
    [
      'platform imports a module',
      'api/src/platform/http/sample.ts',
      `import { bodyKey } from '../../modules/yields/snapshot.ts';`,
    ],
    [
      'platform imports the composition',
      'api/src/platform/sample.ts',
      `import type { UserDataStore } from '../composition/user-data.ts';`,
    ],
    [
      'platform imports the app',
      'api/src/platform/http/sample.ts',
      `import type { AppDeps } from '../../composition/deps.ts';`,
    ],
    [
      'the engine imports platform',
      'api/src/engine/sample.ts',
      `import type { Logger } from '../platform/logger.ts';`,
    ],
    [
      'the engine imports a module',
      'api/src/engine/sample.ts',
      `import { buildSnapshot } from '../modules/yields/snapshot.ts';`,
    ],
    [
      'a module imports the user-data composition',
      'api/src/modules/alerts/sample.ts',
      `import type { UserDataStore } from '../../composition/user-data.ts';`,
    ],
    [
      'a module imports the composition root (deps.ts)',
      'api/src/modules/alerts/sample.ts',
      `import type { AppDeps } from '../../composition/deps.ts';`,
    ],
    [
      'a module imports the data files registry',
      'api/src/modules/import/sample.ts',
      `import type { ApiStore } from '../../composition/data-files.ts';`,
    ],
    [
      'a module imports createDeps',
      'api/src/modules/scanner/sample.ts',
      `import { createDeps } from '../../composition/deps.ts';`,
    ],
    [
      'a module imports the app',
      'api/src/modules/yields/sample.ts',
      `import { createApp } from '../../app.ts';`,
    ],
    [
      "a module imports the package's entry",
      'api/src/modules/status/sample.ts',
      `import { cachedBody } from '../../index.ts';`,
    ],
    [
      "a module imports another module's file",
      'api/src/modules/alerts/sample.ts',
      `import type { Snapshot } from '../yields/snapshot.ts';`,
    ],
    [
      "a module imports another module's store port",
      'api/src/modules/premium/sample.ts',
      `import type { MailingListStore } from '../mailing-list/store.ts';`,
    ],
  ])('%s: an error', async (_name, file, code) => {
    expect(await layerErrors(file, `${code}\nexport const sample = 1;\n`)).toBe(1);
  });

  it.each([
    [
      'a module imports platform and the engine',
      'api/src/modules/alerts/sample.ts',
      `import type { Logger } from '../../platform/logger.ts';\nimport { ra30 } from '../../engine/ra30.ts';`,
    ],
    [
      "a module imports another module's index",
      'api/src/modules/alerts/sample.ts',
      `import type { Snapshot } from '../yields/index.ts';`,
    ],
    [
      'a module imports its own files',
      'api/src/modules/alerts/sample.ts',
      `import type { AlertKind } from './store.ts';`,
    ],
    [
      'platform imports platform',
      'api/src/platform/http/sample.ts',
      `import type { Logger } from '../logger.ts';`,
    ],
    [
      'the composition imports modules',
      'api/src/composition/sample.ts',
      `import type { PremiumStore } from '../modules/premium/store.ts';`,
    ],
  ])('%s: allowed', async (_name, file, code) => {
    expect(await layerErrors(file, `${code}\nexport const sample = 1;\n`)).toBe(0);
  });
});
