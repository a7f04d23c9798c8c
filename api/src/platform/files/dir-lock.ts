/**
 * One owner per data directory: the server that owns the user-data journal holds an exclusive
 * lock on the directory, so that a second server started on it (by mistake, or a second
 * container on the same volume) stops at once with a clear message instead of writing beside the
 * first one and losing acknowledged sign-ups.
 *
 * The lock is proper-lockfile's: a directory `.user-data.lock` created atomically (mkdir) whose
 * mtime the holder refreshes every few seconds; a lock not refreshed for LOCK_STALE_MS (its holder
 * died, on this machine or another one sharing the volume) is taken over. Beside it,
 * `.user-data.lock.json` names the holder (pid, host, since) for the message, and lets a restart
 * on the same machine take over at once the lock of a holder that is no longer running (SIGKILL,
 * a crash, a reboot) instead of waiting for it to go stale. Taking the lock and taking over a dead
 * holder's lock happen under a short second lock (`.user-data.lock.take`), so two processes
 * started together never both win.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import writeFileAtomic from 'write-file-atomic';

export const LOCK_DIR = '.user-data.lock';
export const HOLDER_FILE = '.user-data.lock.json';
const TAKE_LOCK = '.user-data.lock.take';
/** A lock whose holder stopped refreshing it this long ago is taken over (ms). */
export const LOCK_STALE_MS = 10_000;

export interface LockHolder {
  pid: number;
  host: string;
  /** The machine's boot (Linux): a holder from before a reboot is not running. */
  bootId: string | null;
  /** The process's start time in clock ticks since boot (Linux): tells a reused pid apart. */
  startTicks: string | null;
  since: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder | null,
  ) {
    const who = holder
      ? `process ${holder.pid} on ${holder.host} (since ${holder.since})`
      : 'another process (it is starting)';
    super(
      `The data directory ${dir} is in use by ${who}: only one server may own a data directory. ` +
        `Stop that server first (or give this one another DATA_DIR). A lock left by a server ` +
        `that is no longer running is taken over by itself (on another machine after ` +
        `${LOCK_STALE_MS / 1000} s).`,
    );
    this.name = 'DataDirLockedError';
  }
}

function readOr(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/** Field 22 of /proc/<pid>/stat (the fields after the command name, which may hold spaces). */
function startTicksOf(pid: number | 'self'): string | null {
  const stat = readOr(`/proc/${pid}/stat`);
  if (stat === null) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
}

function me(): LockHolder {
  return {
    pid: process.pid,
    host: os.hostname(),
    bootId: readOr('/proc/sys/kernel/random/boot_id'),
    startTicks: startTicksOf('self'),
    since: new Date().toISOString(),
  };
}

/** False when the holder is known not to run any more (same machine only). */
function holderRunning(h: LockHolder): boolean {
  if (h.host !== os.hostname()) return true;
  const bootId = readOr('/proc/sys/kernel/random/boot_id');
  if (h.bootId !== null && bootId !== null && h.bootId !== bootId) return false;
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  // Alive, unless the pid now belongs to another process (a restarted container is pid 1 again).
  const ticks = startTicksOf(h.pid);
  return !(h.startTicks !== null && ticks !== null && ticks !== h.startTicks);
}

async function readHolder(dir: string): Promise<LockHolder | null> {
  try {
    const h = JSON.parse(await readFile(path.join(dir, HOLDER_FILE), 'utf8')) as LockHolder;
    return typeof h.pid === 'number' && typeof h.host === 'string' ? h : null;
  } catch {
    return null;
  }
}

export interface DirLock {
  /** Whether the lock was lost (another process removed or took it): writes must stop. */
  readonly lost: boolean;
  release(): Promise<void>;
}

/**
 * Takes the data directory's lock, or throws DataDirLockedError naming the holder. `onLost` runs
 * if the lock is taken away later (its directory removed by hand, or this process so stalled that
 * it went stale and another one took it).
 */
export async function lockDataDir(dir: string, onLost: (err: Error) => void): Promise<DirLock> {
  await mkdir(dir, { recursive: true });
  // proper-lockfile keeps its locks by the locked path: each lock has its own.
  const lockPath = path.join(dir, LOCK_DIR);
  const takePath = path.join(dir, TAKE_LOCK);
  const releaseTake = await lockfile.lock(takePath, {
    realpath: false,
    lockfilePath: takePath,
    stale: 5000,
    // Held for a few milliseconds; a holder that died in them is stale after 5 s.
    retries: { retries: 40, minTimeout: 20, maxTimeout: 250 },
    onCompromised: () => undefined,
  });
  const state = { lost: false };
  let releaseMain: () => Promise<void>;
  try {
    const take = () =>
      lockfile.lock(lockPath, {
        realpath: false,
        lockfilePath: lockPath,
        stale: LOCK_STALE_MS,
        update: LOCK_STALE_MS / 4,
        retries: 0,
        onCompromised: (err) => {
          state.lost = true;
          onLost(err);
        },
      });
    try {
      releaseMain = await take();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      const holder = await readHolder(dir);
      if (holder === null || holderRunning(holder)) throw new DataDirLockedError(dir, holder);
      // Its holder is gone: take it over now rather than after LOCK_STALE_MS.
      await rm(path.join(dir, LOCK_DIR), { recursive: true, force: true });
      releaseMain = await take();
    }
    try {
      await writeFileAtomic(path.join(dir, HOLDER_FILE), `${JSON.stringify(me())}\n`, {
        mode: 0o644,
      });
    } catch {
      // A full disk must not stop the start; but a previous holder's record must not stay, or
      // a later start would take this live lock for a dead one's (no record: it waits instead).
      try {
        await rm(path.join(dir, HOLDER_FILE), { force: true });
      } catch (err) {
        await releaseMain().catch(() => undefined);
        throw err;
      }
    }
  } finally {
    await releaseTake().catch(() => undefined);
  }
  let released = false;
  return {
    get lost() {
      return state.lost;
    },
    release: async () => {
      if (released) return;
      released = true;
      if (state.lost) return;
      await rm(path.join(dir, HOLDER_FILE), { force: true }).catch(() => undefined);
      await releaseMain().catch(() => undefined);
    },
  };
}
