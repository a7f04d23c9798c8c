/**
 * `pnpm remotes <command>` at the repository root (docs/deploy.md, "Releasing a remote"):
 *
 *   release <remote> [--from <dist dir>] [--canary <percent>]
 *   status [--json]
 *   rollback <remote>
 *   promote <remote>
 *
 * `<remote>` is a federation name (mfe_content) or an app folder (mfe-content). The store is the
 * server's own: DATA_DIR (default api/data) and DATABASE_URL from the environment.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import {
  isRemoteName,
  remoteByDir,
  remoteRegistry,
  type RemoteName,
} from '@yield/federation/registry';
import { openReleaseStore } from './open-store.ts';
import { promote, release, rollback, siteSettings, status, statusTable } from './operations.ts';
import { ReleaseError } from './registry.ts';
import type { ReleaseStore } from './store-base.ts';

const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const DEFAULT_DATA_DIR = path.join(ROOT_DIR, 'api', 'data');
const USAGE =
  'usage: pnpm remotes release <remote> [--from <dist dir>] [--canary <percent>]\n' +
  '       pnpm remotes status [--json]\n' +
  '       pnpm remotes rollback <remote>\n' +
  '       pnpm remotes promote <remote>';

function remoteArg(name: string | undefined): RemoteName {
  if (name && isRemoteName(name)) return name;
  const byDir = name ? remoteByDir(name) : undefined;
  if (byDir) return byDir;
  throw new ReleaseError(
    `${name === undefined ? 'no remote given' : `unknown remote "${name}"`}\n${USAGE}`,
  );
}

async function run(store: ReleaseStore, argv: string[], dataDir: string): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { from: { type: 'string' }, canary: { type: 'string' }, json: { type: 'boolean' } },
  });
  const [command, name, ...extra] = positionals;
  if (extra.length > 0)
    throw new ReleaseError(`unexpected arguments: ${extra.join(' ')}\n${USAGE}`);
  if (command === 'status') {
    const state = status(store);
    return values.json ? JSON.stringify(state, null, 2) : statusTable(state);
  }
  if (!['release', 'rollback', 'promote'].includes(command ?? '')) {
    throw new ReleaseError(
      `${command ? `unknown command "${command}"` : 'no command given'}\n${USAGE}`,
    );
  }
  const remote = remoteArg(name);
  if (command === 'rollback') return rollback(store, remote);
  if (command === 'promote') return promote(store, remote);
  const from = path.resolve(values.from ?? path.join(ROOT_DIR, remoteRegistry[remote].dir, 'dist'));
  const canary = values.canary === undefined ? null : Number(values.canary);
  const result = await release(store, remote, from, {
    canary,
    settings: siteSettings(dataDir) ?? siteSettings(DEFAULT_DATA_DIR),
  });
  return result.message;
}

export async function main(argv: string[]): Promise<number> {
  const dataDir = path.resolve(process.env.DATA_DIR || DEFAULT_DATA_DIR);
  let store: ReleaseStore | null = null;
  try {
    store = await openReleaseStore({
      rootDir: ROOT_DIR,
      dataDir,
      databaseUrl: process.env.DATABASE_URL,
    });
    await store.start();
    console.log(await run(store, argv, dataDir));
    return 0;
  } catch (error) {
    const known =
      error instanceof ReleaseError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    console.error(known ? (error as Error).message : `remotes: ${(error as Error).message}`);
    return 1;
  } finally {
    await store?.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
