/**
 * Releases of the remotes: the contract between the release store (store-files.ts, store-pg.ts,
 * the `pnpm remotes` commands) and the site server that serves them (release-view.ts).
 *
 * A release is one remote's build (its whole `dist/`, `server/` renderer included) stored under an
 * id, the first 12 hex digits of a SHA-256 over its files' paths and contents. Its files never
 * change: browsers fetch them from `/remotes/<app folder>/<id>/<path>` and keep them a year.
 */
import type { RemoteName } from '@yield/federation/registry';

/** Characters of a release id: 12 lowercase hex digits. */
export const RELEASE_ID = /^[0-9a-f]{12}$/;

/** How many releases of each remote are kept (files and record) besides the live one and a canary. */
export const KEPT_RELEASES = 5;

/** The cookie that makes a visitor's canary assignment sticky (a random visitor id): the one the
 * API reads the visitor of an error report from. */
export { RELEASE_VISITOR_COOKIE as RELEASE_COOKIE } from '@yield/contract';

export interface ReleaseRecord {
  id: string;
  /** ISO time the release was made. */
  createdAt: string;
  /** What it was made from: the folder given to `remotes release`, or `build` for a site's first. */
  from: string;
}

/** What a page of the canary has cost in the browser (client reports), per release. */
export interface ReleaseCounts {
  /** Pages served with this release (HTML answers naming one of the remote's modules). */
  loads: number;
  /** Errors reported by browsers (remote load failures, render errors caught by a boundary). */
  errors: number;
}

/** One remote's releases: the shape of `pnpm remotes status --json`, one entry per remote. */
export interface RemoteReleases {
  /** The release every visitor gets (or every visitor outside the canary). */
  live: string;
  canary: { id: string; percent: number } | null;
  /** Releases live before, newest first: `rollback` goes to the first. */
  previous: string[];
  /** Every release kept, newest first. */
  releases: ReleaseRecord[];
  /** Loads and errors per release id since the release was made. */
  counts: Record<string, ReleaseCounts>;
}

export type ReleasesState = Partial<Record<RemoteName, RemoteReleases>>;

/**
 * What the site server reads: the releases now, and each release's files on this machine. The
 * snapshot is synchronous (the server answers from memory); the implementation keeps it fresh
 * (the registry file's time on one machine, a poll of PostgreSQL every second in a fleet) and
 * writes a release's files to this machine's disk before its snapshot names it.
 */
export interface ReleasesSource {
  /** Makes each remote's first release from its build when it has none; then the snapshot is ready. */
  start(): Promise<void>;
  snapshot(): ReleasesState;
  /** The folder holding a release's files on this machine, or null when it has none. */
  localDir(remote: RemoteName, id: string): string | null;
  /** A page served with this release of the remote. */
  countLoad(remote: RemoteName, id: string): void;
  /**
   * A browser reported an error of this release of the remote (at most one per visitor and
   * release is counted). A canary past the error threshold is rolled back by itself.
   */
  reportError(remote: RemoteName, id: string, visitor: string): Promise<void>;
  close(): Promise<void>;
}
