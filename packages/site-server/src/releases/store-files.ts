/**
 * The release store of one machine: files under `<DATA_DIR>/releases/<app folder>/<id>/`, the
 * registry in `<DATA_DIR>/releases/registry.json`, rewritten whole (temporary file + rename)
 * under a lock file, so the `pnpm remotes` commands and a running server never lose each other's
 * writes. The server reads the registry again whenever the file changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import writeFileAtomic from 'write-file-atomic';
import { remoteRegistry, type RemoteName } from '@yield/federation/registry';
import { releaseDir, releasesRoot, writeReleaseFiles, type ReleaseFiles } from './release-files.ts';
import { emptyRegistry, parseRegistry, type StoredRegistry } from './registry.ts';
import { ReleaseStore } from './store-base.ts';
import type { ReleasesState } from './types.ts';

export const REGISTRY_FILE = 'registry.json';

export class FileReleaseStore extends ReleaseStore {
  private stamp = '';
  /** This process's transactions, one after the other (the lock file orders processes). */
  private queue: Promise<unknown> = Promise.resolve();

  get registryPath(): string {
    return path.join(releasesRoot(this.options.dataDir), REGISTRY_FILE);
  }

  snapshot(): ReleasesState {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.registryPath);
    } catch {
      return this.state;
    }
    const stamp = `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    if (stamp !== this.stamp) {
      try {
        this.setState(parseRegistry(fs.readFileSync(this.registryPath, 'utf8')));
        this.stamp = stamp;
      } catch (error) {
        this.log(
          `releases: ${this.registryPath} unreadable, kept the last one read: ${(error as Error).message}`,
        );
      }
    }
    return this.state;
  }

  transact<T>(change: (registry: StoredRegistry) => T): Promise<T> {
    const next = this.queue.catch(() => undefined).then(() => this.locked(change));
    this.queue = next;
    return next;
  }

  private async locked<T>(change: (registry: StoredRegistry) => T): Promise<T> {
    const root = releasesRoot(this.options.dataDir);
    await fs.promises.mkdir(root, { recursive: true });
    const unlock = await lockfile.lock(root, {
      lockfilePath: `${this.registryPath}.lock`,
      retries: { retries: 100, minTimeout: 10, maxTimeout: 200 },
    });
    try {
      const text = await fs.promises
        .readFile(this.registryPath, 'utf8')
        .catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return null;
          throw error;
        });
      const registry = text === null ? emptyRegistry() : parseRegistry(text);
      const result = change(registry);
      await writeFileAtomic(this.registryPath, `${JSON.stringify(registry, null, 2)}\n`);
      this.setState(registry);
      return result;
    } finally {
      await unlock();
    }
  }

  putFiles(remote: RemoteName, id: string, files: ReleaseFiles): Promise<void> {
    return writeReleaseFiles(releaseDir(this.options.dataDir, remote, id), files);
  }

  async dropFiles(remote: RemoteName, ids: string[]): Promise<void> {
    for (const id of ids) {
      await fs.promises.rm(releaseDir(this.options.dataDir, remote, id), {
        recursive: true,
        force: true,
      });
    }
  }

  async close(): Promise<void> {
    await this.stopFlushing();
  }
}

/** The folder of a remote's releases (`<DATA_DIR>/releases/<app folder>`). */
export const remoteReleasesDir = (dataDir: string, remote: RemoteName) =>
  path.join(releasesRoot(dataDir), remoteRegistry[remote].dir);
