/**
 * A slow, observable disk for tests: every step that makes data durable (fsync, fdatasync, and
 * fs.promises.writeFile, which some writers use without syncing) takes `delayMs`, and every such
 * step and every rename is recorded with its start, end and file. Works for any writer in the
 * process, ours or a library's, because they all reach the `fs` module at call time. Call it
 * inside a test: the real disk is back when the test ends (or earlier, with `restore`).
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { performance } from 'node:perf_hooks';
import { onTestFinished } from 'vitest';

export interface DiskOp {
  kind: 'fsync' | 'fdatasync' | 'writeFile' | 'rename';
  start: number;
  end: number;
  file: string | null;
  /** For syncs of a regular file: its content once the sync finished. */
  synced?: string;
  failed?: boolean;
}

type SyncFn = (fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => void;

export interface SlowDisk {
  ops: DiskOp[];
  /** Makes the next `n` fdatasync calls fail with EIO (after the delay). */
  failNextDataSyncs(n: number): void;
  restore(): void;
}

function pathOfFd(fd: number): string | null {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

export function slowDisk(delayMs: number): SlowDisk {
  const ops: DiskOp[] = [];
  const original = {
    fsync: fs.fsync,
    fdatasync: fs.fdatasync,
    rename: fs.rename,
    writeFile: fs.promises.writeFile,
    promisesRename: fs.promises.rename,
  };
  let failures = 0;

  const wrapSync = (kind: 'fsync' | 'fdatasync', real: SyncFn): SyncFn =>
    function sync(fd, cb) {
      const op: DiskOp = { kind, start: performance.now(), end: Infinity, file: pathOfFd(fd) };
      ops.push(op);
      setTimeout(() => {
        if (kind === 'fdatasync' && failures > 0) {
          failures--;
          op.end = performance.now();
          op.failed = true;
          const err = Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
          return cb(err);
        }
        real(fd, (err) => {
          op.end = performance.now();
          if (!err && op.file) {
            try {
              op.synced = fs.readFileSync(op.file, 'utf8');
            } catch {
              // a directory
            }
          }
          cb(err);
        });
      }, delayMs);
    };

  fs.fsync = wrapSync('fsync', original.fsync) as typeof fs.fsync;
  fs.fdatasync = wrapSync('fdatasync', original.fdatasync) as typeof fs.fdatasync;
  fs.rename = ((from: string, to: string, cb: (err: NodeJS.ErrnoException | null) => void) => {
    const op: DiskOp = { kind: 'rename', start: performance.now(), end: Infinity, file: to };
    ops.push(op);
    original.rename(from, to, (err) => {
      op.end = performance.now();
      cb(err);
    });
  }) as typeof fs.rename;
  fs.promises.rename = async (from, to) => {
    const op: DiskOp = {
      kind: 'rename',
      start: performance.now(),
      end: Infinity,
      file: String(to),
    };
    ops.push(op);
    try {
      return await original.promisesRename(from, to);
    } finally {
      op.end = performance.now();
    }
  };
  fs.promises.writeFile = (async (...args: Parameters<typeof fs.promises.writeFile>) => {
    const op: DiskOp = {
      kind: 'writeFile',
      start: performance.now(),
      end: Infinity,
      file: String(args[0]),
    };
    ops.push(op);
    await new Promise((r) => setTimeout(r, delayMs));
    try {
      return await original.writeFile(...args);
    } finally {
      op.end = performance.now();
    }
  }) as typeof fs.promises.writeFile;
  // ESM importers of node:fs/promises (lowdb's steno, for one) see the replaced functions too.
  syncBuiltinESMExports();

  const restore = () => {
    fs.fsync = original.fsync;
    fs.fdatasync = original.fdatasync;
    fs.rename = original.rename;
    fs.promises.writeFile = original.writeFile;
    fs.promises.rename = original.promisesRename;
    syncBuiltinESMExports();
  };
  onTestFinished(restore);
  return {
    ops,
    failNextDataSyncs: (n) => {
      failures = n;
    },
    restore,
  };
}

/** Slow steps (not renames) that began after `start` and were over by `end`. */
export function stepsWithin(ops: DiskOp[], start: number, end: number): DiskOp[] {
  return ops.filter((o) => o.kind !== 'rename' && o.start >= start && o.end <= end);
}
