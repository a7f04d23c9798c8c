/** `pnpm remotes …` as the operator runs it: the script's command at the repository root. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { writeBuild } from './test-fixtures.ts';
import type { ReleasesState } from './types.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'remotes-cli-'));
const dataDir = path.join(tmp, 'data');
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const script = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts
  .remotes as string;

async function remotes(
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const [command, ...rest] = script.split(' ');
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  try {
    const { stdout, stderr } = await promisify(execFile)(command!, [...rest, ...args], {
      cwd: ROOT,
      env,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A build of mfe-content that needs nothing of the shell (the repository's shell may be unbuilt). */
const build = (marker: string) =>
  writeBuild(path.join(tmp, 'builds', marker), { marker, shared: [] });

describe('pnpm remotes', () => {
  it(
    'releases, shows, promotes and rolls back; refuses with exit 1 and a message',
    { timeout: 60_000 },
    async () => {
      const first = await remotes('release', 'mfe-content', '--from', build('one'));
      expect(first).toMatchObject({
        code: 0,
        stdout: expect.stringMatching(/^mfe_content: release [0-9a-f]{12} is live\n$/),
      });
      const one = /release ([0-9a-f]{12})/.exec(first.stdout)![1]!;

      const second = await remotes(
        'release',
        'mfe_content',
        '--from',
        build('two'),
        '--canary',
        '20',
      );
      expect(second.stdout).toMatch(/is the canary for 20 % of visitors/);
      const two = /release ([0-9a-f]{12})/.exec(second.stdout)![1]!;

      const json = JSON.parse((await remotes('status', '--json')).stdout) as ReleasesState;
      expect(json.mfe_content).toMatchObject({ live: one, canary: { id: two, percent: 20 } });
      expect(json.mfe_content!.releases.slice(0, 2)).toEqual([
        { id: two, createdAt: expect.any(String), from: path.join(tmp, 'builds', 'two') },
        { id: one, createdAt: expect.any(String), from: path.join(tmp, 'builds', 'one') },
      ]);
      const table = (await remotes('status')).stdout;
      expect(table).toMatch(new RegExp(`mfe_content\\s+${two}\\s+canary 20 %`));

      expect((await remotes('promote', 'mfe_content')).stdout).toBe(
        `mfe_content: canary ${two} is live for every visitor\n`,
      );
      expect((await remotes('rollback', 'mfe-content')).stdout).toBe(
        `mfe_content: ${one} is live again (was ${two})\n`,
      );

      const refused = await remotes(
        'release',
        'mfe_content',
        '--from',
        writeBuild(path.join(tmp, 'builds', 'bad'), { marker: 'bad', shared: [], exposes: [] }),
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('mfe_content: release refused, nothing changed');
      expect(refused.stderr).toContain(
        'page /risks names ./RisksPage, which the build does not expose',
      );
      expect(
        (JSON.parse((await remotes('status', '--json')).stdout) as ReleasesState).mfe_content!.live,
      ).toBe(one);

      expect(await remotes('release', 'mfe_nothing')).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('unknown remote "mfe_nothing"'),
      });
      expect(
        await remotes('release', 'mfe_content', '--canary', '150', '--from', build('three')),
      ).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('--canary must be a whole percentage from 1 to 99'),
      });
    },
  );
});
