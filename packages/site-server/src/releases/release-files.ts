/**
 * A release's files: read from a build folder, hashed into the release id, written to this
 * machine's `<DATA_DIR>/releases/<app folder>/<id>/` all at once (a temporary folder renamed).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { remoteRegistry, type RemoteName } from '@yield/federation/registry';

/** Relative path (with `/`) → contents, sorted by path. */
export type ReleaseFiles = Map<string, Buffer>;

/** Every file under `dir`, by relative path, sorted. */
export async function readReleaseFiles(dir: string): Promise<ReleaseFiles> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const paths = entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    )
    .sort();
  const files: ReleaseFiles = new Map();
  for (const file of paths) files.set(file, await fs.readFile(path.join(dir, file)));
  return files;
}

/** First 12 hex digits of a SHA-256 over the sorted paths and contents. */
export function releaseId(files: ReleaseFiles): string {
  const hash = createHash('sha256');
  for (const [file, contents] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const name = Buffer.from(file);
    hash.update(`${name.length}:`).update(name).update(`${contents.length}:`).update(contents);
  }
  return hash.digest('hex').slice(0, 12);
}

/** `<dataDir>/releases` */
export const releasesRoot = (dataDir: string) => path.join(dataDir, 'releases');

/** Where a release's files are on this machine. */
export function releaseDir(dataDir: string, remote: RemoteName, id: string): string {
  return path.join(releasesRoot(dataDir), remoteRegistry[remote].dir, id);
}

/**
 * Writes a release's files to `target` unless it is there already (ids are content hashes): into
 * a temporary sibling first, renamed into place, so a reader never sees half of them.
 */
export async function writeReleaseFiles(target: string, files: ReleaseFiles): Promise<void> {
  if (await exists(target)) return;
  const temp = `${target}.tmp-${randomBytes(4).toString('hex')}`;
  try {
    for (const [file, contents] of files) {
      const to = path.join(temp, ...file.split('/'));
      await fs.mkdir(path.dirname(to), { recursive: true });
      await fs.writeFile(to, contents);
    }
    await fs.rename(temp, target).catch(async (error: NodeJS.ErrnoException) => {
      // Another process wrote the same release first: same id, same files.
      if (!(await exists(target))) throw error;
    });
  } finally {
    await fs.rm(temp, { recursive: true, force: true });
  }
}

export async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}
