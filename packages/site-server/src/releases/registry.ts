/**
 * The registry of releases and its transitions, as pure functions over the stored state: the
 * file store and the PostgreSQL store both apply them under their own lock (a lock file, a row
 * lock), so a release, a rollback, a promotion and an automatic rollback are each one step.
 */
import { remoteNames, type RemoteName } from '@yield/federation/registry';
import {
  KEPT_RELEASES,
  type ReleaseRecord,
  type ReleasesState,
  type RemoteReleases,
} from './types.ts';

/** A canary rolled back by itself (status shows the last ones). */
export interface AutoRollback {
  id: string;
  at: string;
  loads: number;
  errors: number;
}

/** What the store keeps of one remote: the status, the visitors who reported each release's errors. */
export interface StoredRemote extends RemoteReleases {
  /** Visitor ids that reported errors, per release id (each visitor counts once). */
  errorVisitors: Record<string, string[]>;
  autoRollbacks: AutoRollback[];
}

export interface StoredRegistry {
  remotes: Partial<Record<RemoteName, StoredRemote>>;
}

/** A canary with at least this many distinct visitors reporting errors … */
export const ROLLBACK_MIN_VISITORS = 5;
/** … and more errors than this share of its page loads is rolled back by itself. */
export const ROLLBACK_ERROR_RATE = 0.1;
/** Automatic rollbacks kept per remote for `status`. */
const KEPT_AUTO_ROLLBACKS = 5;
/** Visitors kept per release: enough to pass the threshold, bounded. */
const KEPT_VISITORS = 1000;

/** A refused operation: the message says what and why; nothing changed. */
export class ReleaseError extends Error {}

export const emptyRegistry = (): StoredRegistry => ({ remotes: {} });

/** The registry as the site server and `status` see it (no visitor ids). */
export function publicState(registry: StoredRegistry): ReleasesState {
  const state: ReleasesState = {};
  for (const name of remoteNames) {
    const stored = registry.remotes[name];
    if (!stored) continue;
    const { errorVisitors: _visitors, ...rest } = stored;
    state[name] = rest;
  }
  return state;
}

/** Makes `record` the live release (or the canary), the old live one first of `previous`. */
export function applyRelease(
  registry: StoredRegistry,
  remote: RemoteName,
  record: ReleaseRecord,
  canary: number | null,
): string[] {
  const current = registry.remotes[remote];
  if (!current) {
    if (canary !== null)
      throw new ReleaseError(
        `${remote} has no live release yet: release it without --canary first`,
      );
    registry.remotes[remote] = {
      live: record.id,
      canary: null,
      previous: [],
      releases: [record],
      counts: { [record.id]: { loads: 0, errors: 0 } },
      errorVisitors: {},
      autoRollbacks: [],
    };
    return [];
  }
  if (record.id === current.live && !current.canary) {
    throw new ReleaseError(`${remote}: release ${record.id} is already live`);
  }
  if (canary !== null && record.id === current.live) {
    throw new ReleaseError(
      `${remote}: release ${record.id} is the live release, it cannot be its canary`,
    );
  }
  current.releases = [record, ...current.releases.filter((r) => r.id !== record.id)];
  current.counts[record.id] = { loads: 0, errors: 0 };
  current.errorVisitors[record.id] = [];
  if (canary !== null) current.canary = { id: record.id, percent: canary };
  else setLive(current, record.id);
  return prune(current);
}

function setLive(current: StoredRemote, id: string): void {
  if (current.live !== id) current.previous = [current.live, ...current.previous];
  current.previous = current.previous.filter((p) => p !== id);
  current.live = id;
  current.canary = null;
}

/**
 * With a canary running: the canary stops (its visitors are back on the live release). Without
 * one: the first previous release is live again and the one it replaces is dropped from
 * `previous` (a second rollback goes further back).
 */
export function applyRollback(registry: StoredRegistry, remote: RemoteName): string {
  const current = requireRemote(registry, remote);
  if (current.canary) {
    const { id } = current.canary;
    current.canary = null;
    return `${remote}: canary ${id} stopped, every visitor gets ${current.live}`;
  }
  const [back, ...rest] = current.previous;
  if (!back) throw new ReleaseError(`${remote}: no previous release to roll back to`);
  const from = current.live;
  current.live = back;
  current.previous = rest;
  return `${remote}: ${back} is live again (was ${from})`;
}

export function applyPromote(registry: StoredRegistry, remote: RemoteName): string {
  const current = requireRemote(registry, remote);
  if (!current.canary) throw new ReleaseError(`${remote}: no canary to promote`);
  const { id } = current.canary;
  setLive(current, id);
  return `${remote}: canary ${id} is live for every visitor`;
}

function requireRemote(registry: StoredRegistry, remote: RemoteName): StoredRemote {
  const current = registry.remotes[remote];
  if (!current) throw new ReleaseError(`${remote} has no releases`);
  return current;
}

/**
 * Keeps the live release, the canary and the KEPT_RELEASES most recent others; returns the ids
 * dropped (their files go too).
 */
export function prune(current: StoredRemote): string[] {
  const pinned = new Set([current.live, ...(current.canary ? [current.canary.id] : [])]);
  const others = current.releases.filter((r) => !pinned.has(r.id));
  const keep = new Set([...pinned, ...others.slice(0, KEPT_RELEASES).map((r) => r.id)]);
  const dropped = current.releases.filter((r) => !keep.has(r.id)).map((r) => r.id);
  current.releases = current.releases.filter((r) => keep.has(r.id));
  current.previous = current.previous.filter((id) => keep.has(id));
  for (const id of dropped) {
    delete current.counts[id];
    delete current.errorVisitors[id];
  }
  return dropped;
}

/** Adds page loads counted in memory. */
export function addLoads(registry: StoredRegistry, loads: Map<string, number>): void {
  for (const [key, count] of loads) {
    const [remote, id] = key.split(':') as [RemoteName, string];
    const counts = registry.remotes[remote]?.counts[id];
    if (counts) counts.loads += count;
  }
}

/**
 * Counts a browser's error report (once per visitor and release); rolls the canary back when it
 * passes the threshold. Returns the automatic rollback, if any.
 */
export function addError(
  registry: StoredRegistry,
  remote: RemoteName,
  id: string,
  visitor: string,
  now: Date,
): AutoRollback | null {
  const current = registry.remotes[remote];
  const counts = current?.counts[id];
  if (!current || !counts) return null;
  const visitors = (current.errorVisitors[id] ??= []);
  if (visitors.includes(visitor) || visitors.length >= KEPT_VISITORS) return null;
  visitors.push(visitor);
  counts.errors += 1;
  if (current.canary?.id !== id || !pastThreshold(visitors.length, counts.errors, counts.loads)) {
    return null;
  }
  const rollback = { id, at: now.toISOString(), loads: counts.loads, errors: counts.errors };
  current.canary = null;
  current.autoRollbacks = [rollback, ...current.autoRollbacks].slice(0, KEPT_AUTO_ROLLBACKS);
  return rollback;
}

export function pastThreshold(visitors: number, errors: number, loads: number): boolean {
  return visitors >= ROLLBACK_MIN_VISITORS && errors > ROLLBACK_ERROR_RATE * loads;
}

/** The registry read from JSON, checked loosely (a hand-broken file is an error, not a crash later). */
export function parseRegistry(text: string): StoredRegistry {
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== 'object' || parsed === null || !('remotes' in parsed)) {
    throw new Error('the releases registry has no "remotes"');
  }
  return parsed as StoredRegistry;
}
