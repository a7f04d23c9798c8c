/**
 * The one way runtime data reaches the disk, and the group commit in front of it.
 *
 * - `writeFileDurably` replaces a whole file: write-file-atomic writes a temp file beside it,
 *   fsyncs it and renames it over the original (a crash leaves the old or the new file, never
 *   half of one); we then fsync the directory, which write-file-atomic does not do, so the rename
 *   itself survives a power cut.
 * - `GroupCommit` runs one commit at a time. Changes that arrive while a commit runs wait for the
 *   next one, together; each caller is answered when the commit that holds its change is durable,
 *   and never waits for commits started after it (lowdb's steno writer, used before, settled the
 *   call that found it idle only once every write queued behind it had drained: under sustained
 *   sign-ups that caller waited as long as the load lasted).
 *
 * File system calls go through the `fs` module object at call time (as write-file-atomic's own
 * do), so a test can slow down or fail fsync to check the durability rules.
 */
import fs from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';

function call<T>(fn: (cb: (err: NodeJS.ErrnoException | null, value?: T) => void) => void) {
  return new Promise<T>((resolve, reject) =>
    fn((err, value) => (err ? reject(err) : resolve(value as T))),
  );
}

/**
 * Mode of the files that hold personal data (addresses): the four user-data files, the journal,
 * exports. Owner read/write only, whatever the umask, also when a rename replaces the file.
 */
export const PRIVATE_FILE_MODE = 0o600;

export const fsio = {
  /** Opens (creating it owner-only: every file opened here is the journal's) a file. */
  open: (file: string, flags: string) =>
    call<number>((cb) => fs.open(file, flags, PRIVATE_FILE_MODE, cb)),
  fchmod: (fd: number, mode: number) => call<void>((cb) => fs.fchmod(fd, mode, cb)),
  close: (fd: number) => call<void>((cb) => fs.close(fd, cb)),
  write: (fd: number, data: Buffer) =>
    call<number>((cb) => fs.write(fd, data, 0, data.length, null, cb)),
  fdatasync: (fd: number) => call<void>((cb) => fs.fdatasync(fd, cb)),
  ftruncate: (fd: number, len: number) => call<void>((cb) => fs.ftruncate(fd, len, cb)),
  rename: (from: string, to: string) => call<void>((cb) => fs.rename(from, to, cb)),
  unlink: (file: string) => call<void>((cb) => fs.unlink(file, cb)),
};

/** Makes the directory entries (a rename, a new or removed file) durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const fd = await call<number>((cb) => fs.open(dir, 'r', cb));
  try {
    await call<void>((cb) => fs.fsync(fd, cb));
  } finally {
    await fsio.close(fd);
  }
}

/**
 * Atomic and durable replacement of a file (temp file fsync'd, renamed, directory fsync'd). With
 * `mode` the new file gets it (the temp file is chmod'ed before the rename); without, it keeps the
 * mode of the file it replaces (write-file-atomic's default).
 */
export async function writeFileDurably(
  file: string,
  data: string | Buffer,
  mode?: number,
): Promise<void> {
  await writeFileAtomic(file, data, mode === undefined ? { fsync: true } : { fsync: true, mode });
  await fsyncDir(path.dirname(file));
}

interface Batch {
  promise: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A batch nobody awaits any more must not crash the process as an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

export class GroupCommit {
  private running = false;
  private next: Batch | null = null;

  /** `commit` writes everything changed so far; it is never run twice at once. */
  constructor(private readonly commit: () => Promise<void>) {}

  /**
   * Call right after making a change (in the same synchronous step): resolves when a commit that
   * started after the change has finished, rejects if that commit failed.
   */
  request(): Promise<void> {
    this.next ??= newBatch();
    const mine = this.next.promise;
    if (!this.running) this.start();
    return mine;
  }

  /** True while a commit runs or waits to run. */
  get busy(): boolean {
    return this.running || this.next !== null;
  }

  private start(): void {
    const batch = this.next;
    if (!batch) return;
    this.next = null;
    this.running = true;
    this.commit().then(
      () => this.finish(batch, null),
      (err: unknown) => this.finish(batch, err ?? new Error('commit failed')),
    );
  }

  private finish(batch: Batch, err: unknown): void {
    this.running = false;
    if (err === null) batch.resolve();
    else batch.reject(err);
    this.start();
  }
}
