/**
 * What `pnpm remotes` does, on either store: release a build (checks first, files stored, then
 * the switch in one step), roll back, promote a canary, and the status.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REMOTE_ENTRY_FILE, type RemoteName } from '@yield/federation/registry';
import { checkRelease } from './checks.ts';
import { readReleaseFiles, releaseId } from './release-files.ts';
import {
  applyPromote,
  applyRelease,
  applyRollback,
  ReleaseError,
  type StoredRemote,
} from './registry.ts';
import type { ReleaseStore } from './store-base.ts';
import type { ReleasesState } from './types.ts';

export interface ReleaseOptions {
  /** Share of visitors (1-99) given the release as a canary; null: every visitor. */
  canary: number | null;
  /** The settings pages render with in the render check (see siteSettings). */
  settings: Record<string, unknown> | null;
}

export interface ReleaseResult {
  id: string;
  message: string;
}

function checkPercent(canary: number | null): void {
  if (canary !== null && !(Number.isInteger(canary) && canary >= 1 && canary <= 99)) {
    throw new ReleaseError(`--canary must be a whole percentage from 1 to 99, not ${canary}`);
  }
}

/** Checks `fromDir`, stores it as a release of `remote` and switches to it. */
export async function release(
  store: ReleaseStore,
  remote: RemoteName,
  fromDir: string,
  options: ReleaseOptions,
): Promise<ReleaseResult> {
  checkPercent(options.canary);
  if (!fs.existsSync(path.join(fromDir, REMOTE_ENTRY_FILE))) {
    throw new ReleaseError(
      `${fromDir} is not a build of ${remote}: it has no ${REMOTE_ENTRY_FILE}`,
    );
  }
  const problems = checkRelease({
    remote,
    dir: fromDir,
    rootDir: store.options.rootDir,
    settings: options.settings,
  });
  if (problems.length > 0) {
    throw new ReleaseError(
      `${remote}: release refused, nothing changed:\n  - ${problems.join('\n  - ')}`,
    );
  }
  const files = await readReleaseFiles(fromDir);
  const id = releaseId(files);
  await store.putFiles(remote, id, files);
  const record = { id, createdAt: new Date().toISOString(), from: fromDir };
  const dropped = await store.transact((registry) =>
    applyRelease(registry, remote, record, options.canary),
  );
  await store.dropFiles(remote, dropped);
  const message =
    options.canary === null
      ? `${remote}: release ${id} is live`
      : `${remote}: release ${id} is the canary for ${options.canary} % of visitors`;
  return { id, message };
}

export function rollback(store: ReleaseStore, remote: RemoteName): Promise<string> {
  return store.transact((registry) => applyRollback(registry, remote));
}

export function promote(store: ReleaseStore, remote: RemoteName): Promise<string> {
  return store.transact((registry) => applyPromote(registry, remote));
}

/** Every remote's releases now (the store's snapshot: read again when the registry changed). */
export function status(store: ReleaseStore): ReleasesState {
  return store.snapshot();
}

/**
 * The settings pages render with: the data directory's `settings.json` with the data's state the
 * API adds (sample data here), or null when there is none (no render check).
 */
export function siteSettings(dataDir: string): Record<string, unknown> | null {
  try {
    const file = JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')) as object;
    return {
      ...file,
      data: { sample: true, asOf: new Date().toISOString().slice(0, 10), stale: false },
    };
  } catch {
    return null;
  }
}

/** One line per remote and release for `pnpm remotes status`. */
export function statusTable(state: ReleasesState): string {
  const lines = [
    'remote           release       state         loads  errors  made                  from',
  ];
  for (const [remote, entry] of Object.entries(state) as [RemoteName, StoredRemote | undefined][]) {
    if (!entry) continue;
    for (const record of entry.releases) {
      const role =
        record.id === entry.live
          ? 'live'
          : record.id === entry.canary?.id
            ? `canary ${entry.canary.percent} %`
            : entry.previous.includes(record.id)
              ? `previous ${entry.previous.indexOf(record.id) + 1}`
              : 'kept';
      const counts = entry.counts[record.id] ?? { loads: 0, errors: 0 };
      lines.push(
        [
          remote.padEnd(16),
          record.id.padEnd(13),
          role.padEnd(13),
          String(counts.loads).padStart(5),
          String(counts.errors).padStart(7),
          ` ${record.createdAt.slice(0, 19).replace('T', ' ')}`.padEnd(21),
          record.from,
        ].join(' '),
      );
    }
    for (const auto of entry.autoRollbacks ?? []) {
      lines.push(
        `${remote.padEnd(16)} ${auto.id}  canary rolled back by itself at ${auto.at} (${auto.errors} errors / ${auto.loads} loads)`,
      );
    }
  }
  return lines.join('\n');
}
