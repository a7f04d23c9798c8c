/**
 * What each visitor is served of the remotes: which build (or release) of each remote, its files
 * on this machine, and the remotes manifest that names them.
 *
 * Without releases a remote of the operator's manifest whose entry is the default
 * `/remotes/<app folder>/remoteEntry.js` is served from its build folder, `<remote>/dist`. With
 * releases (a ReleasesSource, releases/types.ts) it is served from the release this visitor gets:
 * the live one, or the canary when the visitor's bucket falls inside its percent; its entry is
 * `/remotes/<app folder>/<id>/remoteEntry.js`, whose files never change. An entry the operator
 * wrote otherwise (a CDN URL) is served as written, a release whose files are elsewhere.
 */
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import {
  REMOTE_ENTRY_FILE,
  isRemoteName,
  remoteByDir,
  remoteNames,
  remotePublicPath,
  remoteRegistry,
  type RemoteName,
  type RemotesManifest,
} from '@yield/federation/registry';
import { RELEASE_COOKIE, RELEASE_ID, type ReleasesSource } from './releases/types.ts';
import { StaticDirectory } from './static-files.ts';

/** The remotes as one visitor gets them. */
export interface RemotesView {
  /** Whether remotes are served from releases (pages then vary by the visitor's cookie). */
  releases: boolean;
  /** What tells this view's pages apart from another visitor's: '' without releases. */
  key: string;
  /** The remotes manifest this visitor is sent. */
  manifest: Partial<RemotesManifest>;
  /** The folder on this machine holding the files of the remote's entry, or null (elsewhere). */
  localDir(remote: string): string | null;
  /** The release of the remote this visitor gets, or null when it is not served from a release. */
  release(remote: string): string | null;
  /** The build folder `/remotes/<app folder>/<path>` (no release id) is read from, or null. */
  folderDir(folder: string): string | null;
}

/** Folders of the builds that are never sent: the server renderers. */
export const HIDDEN_FOLDERS = ['server'];

/** Whether an entry is the one a remote has when it is served from this server. */
function isDefaultEntry(remote: string, entry: string | undefined): remote is RemoteName {
  return isRemoteName(remote) && entry === `${remotePublicPath(remote)}${REMOTE_ENTRY_FILE}`;
}

/** The view without releases: remotes served here come from their build folders. */
export function buildsView(rootDir: string, manifest: Partial<RemotesManifest>): RemotesView {
  const dist = (remote: RemoteName) => path.join(rootDir, remoteRegistry[remote].dir, 'dist');
  return {
    releases: false,
    key: '',
    manifest,
    localDir: (remote) =>
      isDefaultEntry(remote, manifest[remote as RemoteName]) ? dist(remote) : null,
    release: () => null,
    folderDir: (folder) => {
      const remote = remoteByDir(folder);
      return remote ? dist(remote) : null;
    },
  };
}

/** A visitor id as the cookie carries it: 16 random bytes, base64url. */
const VISITOR_ID = /^[A-Za-z0-9_-]{22}$/;
const COOKIE_MAX_AGE_S = 30 * 24 * 60 * 60;

/** The visitor id of the request's `release_visitor` cookie, or null (none, or malformed). */
export function visitorOf(cookieHeader: string | undefined): string | null {
  for (const pair of (cookieHeader ?? '').split(';')) {
    const [name, value] = pair.trim().split('=', 2);
    if (name === RELEASE_COOKIE && value && VISITOR_ID.test(value)) return value;
  }
  return null;
}

export const newVisitor = (): string => randomBytes(16).toString('base64url');

/** The Set-Cookie value that keeps a visitor's canary assignment. */
export const visitorCookie = (visitor: string): string =>
  `${RELEASE_COOKIE}=${visitor}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax`;

/** A visitor's bucket for a remote, 0 to 99: the first 4 bytes of sha256(`visitor:remote`), mod 100. */
export function canaryBucket(visitor: string, remote: string): number {
  return createHash('sha256').update(`${visitor}:${remote}`).digest().readUInt32BE(0) % 100;
}

/** Release folders whose files are kept in memory: every kept release of every remote, twice. */
const MAX_DIRECTORIES = 64;

/** The remotes served from releases: the snapshot and each release's files on this machine. */
export class ReleaseView {
  /**
   * One directory per release folder (its files are cached in memory once read), those of
   * releases no longer asked for dropped first.
   */
  private readonly dirs = new LRUCache<string, StaticDirectory>({ max: MAX_DIRECTORIES });

  constructor(private readonly source: ReleasesSource) {}

  /** Whether a canary of some remote is running now. */
  canaryRunning(): boolean {
    return Object.values(this.source.snapshot()).some((remote) => remote?.canary);
  }

  /** The release of a remote a visitor gets now, or null when it has none. */
  releaseFor(remote: RemoteName, visitor: string | null): string | null {
    const releases = this.source.snapshot()[remote];
    if (!releases) return null;
    const { canary } = releases;
    if (canary && visitor && canaryBucket(visitor, remote) < canary.percent) return canary.id;
    return releases.live;
  }

  /** The remotes as this visitor gets them, under the operator's manifest. */
  view(operator: Partial<RemotesManifest>, visitor: string | null): RemotesView {
    const manifest: Partial<RemotesManifest> = { ...operator };
    const ids = new Map<string, string>();
    for (const remote of remoteNames) {
      const id = isDefaultEntry(remote, operator[remote]) ? this.releaseFor(remote, visitor) : null;
      if (!id) continue;
      ids.set(remote, id);
      manifest[remote] = `${remotePublicPath(remote)}${id}/${REMOTE_ENTRY_FILE}`;
    }
    return {
      releases: true,
      key: [...ids].map(([remote, id]) => `${remote}=${id}`).join(','),
      manifest,
      localDir: (remote) => {
        const id = ids.get(remote);
        return id ? this.source.localDir(remote as RemoteName, id) : null;
      },
      release: (remote) => ids.get(remote) ?? null,
      folderDir: (folder) => {
        const remote = remoteByDir(folder);
        const live = remote ? this.releaseFor(remote, null) : null;
        return live ? this.source.localDir(remote!, live) : null;
      },
    };
  }

  /**
   * The file `/remotes/<folder><file>` names: with a release id first (`/<id>/<path>`), that
   * release's file, kept a year; without one, the file of the remote's live release, cached as a
   * build's. Null when there is none (an unknown id, a release not kept, `server/`).
   */
  fileOf(folder: string, file: string): { directory: StaticDirectory; file: string } | null {
    const remote = remoteByDir(folder);
    if (!remote) return null;
    const [, first, rest] = /^\/([^/]+)(\/.*)?$/.exec(file) ?? [];
    const named = first !== undefined && RELEASE_ID.test(first);
    const id = named ? first : this.releaseFor(remote, null);
    const dir = id ? this.source.localDir(remote, id) : null;
    if (!dir) return null;
    const directory = this.directory(dir, named);
    const resolved = directory.resolve(named ? (rest ?? '') : file);
    return resolved ? { directory, file: resolved } : null;
  }

  private directory(dir: string, immutable: boolean): StaticDirectory {
    const key = `${immutable ? 'i' : 'r'}:${dir}`;
    let directory = this.dirs.get(key);
    if (!directory) {
      directory = new StaticDirectory(dir, { hidden: HIDDEN_FOLDERS, immutable });
      this.dirs.set(key, directory);
    }
    return directory;
  }

  countLoad(remote: string, id: string): void {
    if (isRemoteName(remote)) this.source.countLoad(remote, id);
  }
}
