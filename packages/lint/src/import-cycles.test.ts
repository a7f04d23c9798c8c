/**
 * No import cycles in the API's source (`import-x/no-cycle` in eslint.config.js): the modules of
 * api/src, run through ESLint with the repository's own configuration, once as they are and once
 * with an import added that closes a cycle through modules on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT });

/** The messages of `file` (a module of the repository) with `lines` added at its top. */
async function lintWithImport(file: string, lines: string[]): Promise<Linter.LintMessage[]> {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const [result] = await eslint.lintText(`${lines.join('\n')}\n${text}`, {
    filePath: path.join(ROOT, file),
  });
  return result!.messages;
}

const cycles = (messages: Linter.LintMessage[]) =>
  messages.filter((m) => m.ruleId === 'import-x/no-cycle').map((m) => m.line);

describe('import cycles in api/src', () => {
  it('there are none', async () => {
    const results = await eslint.lintFiles(['api/src/**/*.ts']);
    const found = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'import-x/no-cycle')
        .map((m) => `${path.relative(ROOT, r.filePath)}:${m.line}`),
    );
    expect(found).toEqual([]);
  });

  it('an import back to a module that imports this one is an error', async () => {
    // The alerts' file store imports shared-records.ts.
    const messages = await lintWithImport('api/src/data/file/shared-records.ts', [
      `import { FileAlerts } from '../../modules/alerts/file-store.ts';`,
      `export const sample = FileAlerts;`,
    ]);
    expect(cycles(messages)).toEqual([1]);
  });

  it('so is a cycle through several modules and layers', async () => {
    // deps.ts reaches the HTTP errors through the routes, the stores and the configuration.
    const messages = await lintWithImport('api/src/platform/http/errors.ts', [
      `import { createDeps } from '../../deps.ts';`,
      `export const sample = createDeps;`,
    ]);
    expect(cycles(messages)).toEqual([1]);
  });

  it('and a cycle through a re-export', async () => {
    // config.ts imports and re-exports paths.ts.
    const messages = await lintWithImport('api/src/platform/paths.ts', [
      `export { loadConfig } from './config.ts';`,
    ]);
    expect(cycles(messages)).toEqual([1]);
  });
});
