/**
 * Read-merge-write of a data file that operators also edit by hand (history.json), such that
 * neither side loses a change:
 *
 * 1. read the file and its fingerprint (mtime, ctime, size, inode), validate it with its schema;
 *    a file that does not parse or validate is an operator's edit in progress: never overwritten;
 * 2. apply the merge to what was read, validate the result with the same schema;
 * 3. write it to a temp file beside the original (same file system) and fsync it;
 * 4. if the file's fingerprint changed since step 1 (an edit, or another import, landed
 *    meanwhile), drop the temp file and start again from step 1 on top of that edit;
 * 5. otherwise rename the temp file over the original (atomic: readers see the old or the new
 *    file, never half of one).
 *
 * Writers in this process are serialised per file; other processes (the CLI next to a server
 * that imports on a schedule, an editor) are caught by step 4. What is left is the instant
 * between the check of step 4 and the rename, a few microseconds: an editor saving inside it would
 * be overwritten. There is no lock an editor honours, so that window cannot be closed.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { DataFileError, formatSchemaError } from '../../platform/files/data-store.ts';

interface Fingerprint {
  mtimeMs: number;
  ctimeMs: number;
  size: number;
  ino: number;
}

async function fingerprint(file: string): Promise<Fingerprint | null> {
  try {
    const s = await stat(file);
    return { mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, size: s.size, ino: s.ino };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

function same(a: Fingerprint | null, b: Fingerprint | null): boolean {
  if (!a || !b) return a === b;
  return a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.size === b.size && a.ino === b.ino;
}

const queues = new Map<string, Promise<unknown>>();

/** Runs `task` after every earlier task on the same file of this process has finished. */
function serialised<T>(file: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(file) ?? Promise.resolve();
  const run = previous.then(task, task);
  const tail = run.catch(() => undefined);
  queues.set(file, tail);
  void tail.then(() => {
    if (queues.get(file) === tail) queues.delete(file);
  });
  return run;
}

export interface GuardedWriteOptions<T> {
  file: string;
  schema: z.ZodType<T>;
  /** Content of a file that does not exist yet (runtime files); without it a missing file is an error. */
  empty?: () => T;
  /** Returns the new content, or null when nothing needs writing. Must be pure: it may run again. */
  update: (current: T) => T | null;
  /** How often to start again when the file keeps changing under us. */
  attempts?: number;
  /** Called after the temp file is written, before the final check (tests use it to race an edit). */
  beforeCommit?: (attempt: number) => Promise<void>;
}

export interface GuardedWriteResult<T> {
  written: boolean;
  /** The content now on disk (what was read when nothing was written). */
  data: T;
  /** 1 + the number of times an edit landing meanwhile made us merge again. */
  attempts: number;
}

export function guardedWrite<T>(options: GuardedWriteOptions<T>): Promise<GuardedWriteResult<T>> {
  return serialised(options.file, () => attemptWrites(options));
}

async function attemptWrites<T>(options: GuardedWriteOptions<T>): Promise<GuardedWriteResult<T>> {
  const name = path.basename(options.file);
  const maxAttempts = options.attempts ?? 5;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const before = await fingerprint(options.file);
    let current: T;
    if (before === null) {
      if (!options.empty) throw new DataFileError(name, `${name}: file not found`);
      current = options.empty();
    } else {
      const text = await readFile(options.file, 'utf8');
      if (!same(before, await fingerprint(options.file))) continue; // changed while reading
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (err) {
        throw new DataFileError(name, `${name}: $: invalid JSON: ${(err as Error).message}`);
      }
      const parsed = options.schema.safeParse(json);
      if (!parsed.success) throw new DataFileError(name, formatSchemaError(name, parsed.error));
      current = parsed.data;
    }

    const next = options.update(current);
    if (next === null) return { written: false, data: current, attempts: attempt };
    const checked = options.schema.safeParse(next);
    if (!checked.success)
      throw new DataFileError(name, `refusing to write ${formatSchemaError(name, checked.error)}`);

    const temp = path.join(
      path.dirname(options.file),
      `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
    );
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(`${JSON.stringify(next, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await options.beforeCommit?.(attempt);
      if (!same(before, await fingerprint(options.file))) {
        await unlink(temp);
        continue; // someone else's change landed: merge again on top of it
      }
      await rename(temp, options.file);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
    return { written: true, data: next, attempts: attempt };
  }
  throw new DataFileError(
    name,
    `${name} kept changing while it was being updated (${maxAttempts} attempts); nothing written`,
  );
}
