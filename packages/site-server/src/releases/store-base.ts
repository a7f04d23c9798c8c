/**
 * What both release stores share: the first releases from the builds, page loads counted in
 * memory and flushed once a second, browser error reports and the automatic rollback. The file
 * store and the PostgreSQL store supply the registry's transaction and the files' storage.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  remoteNames,
  remoteRegistry,
  REMOTE_ENTRY_FILE,
  type RemoteName,
} from '@yield/federation/registry';
import { readReleaseFiles, releaseDir, releaseId, type ReleaseFiles } from './release-files.ts';
import { addError, addLoads, applyRelease, publicState, type StoredRegistry } from './registry.ts';
import type { ReleaseRecord, ReleasesSource, ReleasesState } from './types.ts';

export interface StoreOptions {
  /** The repository root: each remote's build is `<rootDir>/<app folder>/dist`. */
  rootDir: string;
  /** The data directory: releases' files are under `<dataDir>/releases`. */
  dataDir: string;
  /** One line per event worth an operator's attention (automatic rollbacks, unreadable registry). */
  log?: (line: string) => void;
  /** How often page loads counted in memory are written (ms). */
  flushMs?: number;
}

export abstract class ReleaseStore implements ReleasesSource {
  protected state: ReleasesState = {};
  private pendingLoads = new Map<string, number>();
  private flushTimer: NodeJS.Timeout | null = null;
  protected readonly log: (line: string) => void;

  constructor(readonly options: StoreOptions) {
    this.log = options.log ?? ((line) => console.warn(line));
  }

  /** Applies `change` to the newest registry in one step (lock or transaction) and stores it. */
  abstract transact<T>(change: (registry: StoredRegistry) => T): Promise<T>;
  /** Stores a release's files (nothing when they are stored already). */
  abstract putFiles(remote: RemoteName, id: string, files: ReleaseFiles): Promise<void>;
  /** Deletes the files of releases no longer kept. */
  abstract dropFiles(remote: RemoteName, ids: string[]): Promise<void>;
  abstract snapshot(): ReleasesState;
  abstract close(): Promise<void>;

  protected setState(registry: StoredRegistry): void {
    this.state = publicState(registry);
  }

  localDir(remote: RemoteName, id: string): string | null {
    const dir = releaseDir(this.options.dataDir, remote, id);
    return fs.existsSync(dir) ? dir : null;
  }

  async start(): Promise<void> {
    for (const remote of remoteNames) {
      if (this.snapshot()[remote]) continue;
      const dist = path.join(this.options.rootDir, remoteRegistry[remote].dir, 'dist');
      if (!fs.existsSync(path.join(dist, REMOTE_ENTRY_FILE))) continue;
      const files = await readReleaseFiles(dist);
      const record: ReleaseRecord = {
        id: releaseId(files),
        createdAt: new Date().toISOString(),
        from: 'build',
      };
      await this.putFiles(remote, record.id, files);
      await this.transact((registry) => {
        if (!registry.remotes[remote]) applyRelease(registry, remote, record, null);
      });
    }
    this.flushTimer = setInterval(() => void this.flush(), this.options.flushMs ?? 1000);
    this.flushTimer.unref();
  }

  countLoad(remote: RemoteName, id: string): void {
    const key = `${remote}:${id}`;
    this.pendingLoads.set(key, (this.pendingLoads.get(key) ?? 0) + 1);
  }

  private takeLoads(): Map<string, number> {
    const loads = this.pendingLoads;
    this.pendingLoads = new Map();
    return loads;
  }

  /** Writes the page loads counted since the last flush. */
  async flush(): Promise<void> {
    if (this.pendingLoads.size === 0) return;
    const loads = this.takeLoads();
    try {
      await this.transact((registry) => addLoads(registry, loads));
    } catch (error) {
      this.log(`releases: page loads not recorded: ${(error as Error).message}`);
    }
  }

  async reportError(remote: RemoteName, id: string, visitor: string): Promise<void> {
    const loads = this.takeLoads();
    const rollback = await this.transact((registry) => {
      addLoads(registry, loads);
      return addError(registry, remote, id, visitor, new Date());
    });
    if (rollback) {
      this.log(
        `releases: canary ${id} of ${remote} rolled back by itself: ${rollback.errors} errors reported for ${rollback.loads} page loads`,
      );
    }
  }

  protected stopFlushing(): Promise<void> {
    if (this.flushTimer) clearInterval(this.flushTimer);
    this.flushTimer = null;
    return this.flush();
  }
}
