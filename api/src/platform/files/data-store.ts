/**
 * The data directory.
 *
 * Every file is validated by its zod schema on every (re)load. A file that fails is refused: the
 * last good data keeps being served, the error (file, JSON path, reason) is logged and kept for
 * GET /api/health. Hand edits are picked up by polling mtime/size/inode (fs.watch misses renames
 * done by editors and is unreliable on network and container file systems, a stat per file per
 * second is cheap). Files are read with lowdb's JSON adapter; runtime writes go through
 * `platform/files/durable.ts` (temp file fsync'd, renamed, directory fsync'd) with a group commit
 * per file.
 *
 * The append-mostly user data (mailing list, users, invite uses) is not rewritten per change: the
 * user-data store (`file-user-data.ts`) journals its changes and attaches itself to those files,
 * so that every (re)load of one replays the journal on top of what is on disk.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { DataFile } from 'lowdb/node';
import type { z } from 'zod';
import type { Logger } from '../logger.ts';
import { GroupCommit, PRIVATE_FILE_MODE, writeFileDurably } from './durable.ts';

export interface FileSpec<T> {
  /** File name inside the data directory, e.g. "history.json". */
  file: string;
  schema: z.ZodType<T>;
  /** Runtime-written files may be absent: they start from this empty value. */
  empty?: () => T;
  /** Holds personal data (addresses): always written owner-only (PRIVATE_FILE_MODE, 0600). */
  personal?: boolean;
}

/**
 * What GET /api/health shows of a file: never its content, a fragment of it (JSON.parse quotes
 * one) or an absolute path; those are in the log.
 */
export interface FileStatus {
  loaded: boolean;
  loadedAt: string | null;
  error: string | null;
}

interface Fingerprint {
  mtimeMs: number;
  size: number;
  ino: number;
}

/**
 * Turns freshly validated file content into the data served (the user-data store replays its
 * journal here). `text` is the file's content, null when a missing runtime file starts empty.
 */
export type LoadHook<T> = (data: T, text: string | null) => T;

interface Entry<T> {
  spec: FileSpec<T>;
  path: string;
  adapter: DataFile<T>;
  /** Last good, validated data (null until the first successful load). */
  data: T | null;
  loadedAt: string | null;
  /** Why the file on disk was refused, in full (the log, DataFileError), else null. */
  error: string | null;
  /** The same for GET /api/health: file, JSON path and reason, no content and no path. */
  publicError: string | null;
  /** Why the last write of this file failed, until one succeeds (public form), else null. */
  writeError: string | null;
  fingerprint: Fingerprint | null;
  /** Serialises read-modify-write cycles on this file within the process. */
  queue: Promise<unknown>;
  writesInFlight: number;
  /** Group commit of `mutate`: each commit writes the data as it is when the commit starts. */
  writer: GroupCommit;
  /** A stat of the file already under way (concurrent refreshes share it). */
  refreshing: Promise<boolean> | null;
  /** Text of the file read by the last parse, handed to the load hook. */
  lastText: string | null;
  loadHook: LoadHook<T> | null;
}

export class DataFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = 'DataFileError';
  }
}

/** "$.series.3[12].apy" style path for operators. */
export function formatJsonPath(pathParts: readonly PropertyKey[]): string {
  let out = '$';
  for (const part of pathParts) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += `.${String(part)}`;
  }
  return out;
}

export function formatSchemaError(file: string, error: z.ZodError): string {
  const issues = error.issues.slice(0, 5).map((i) => `${formatJsonPath(i.path)}: ${i.message}`);
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : '';
  return `${file}: ${issues.join('; ')}${more}`;
}

/**
 * formatSchemaError for GET /api/health: the JSON paths and reasons, without the names of
 * unexpected keys (a hand edit may put anything there) and, in a file of personal data, without
 * any reason that is not one of the schema's own fixed texts.
 */
export function publicSchemaError(file: string, error: z.ZodError, personal: boolean): string {
  const reason = (i: z.core.$ZodIssue) => {
    if (i.code === 'unrecognized_keys') return 'unrecognized key';
    if (personal && i.code === 'custom') return 'invalid value';
    return i.message;
  };
  const issues = error.issues.slice(0, 5).map((i) => `${formatJsonPath(i.path)}: ${reason(i)}`);
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : '';
  return `${file}: ${issues.join('; ')}${more}`;
}

/**
 * "invalid JSON" with where (line and column, when the parser says), never the fragment of the
 * file that JSON.parse quotes in its message.
 */
export function publicJsonError(file: string, err: Error): string {
  const at = /line (\d+) column (\d+)/.exec(err.message);
  const pos = /at position (\d+)/.exec(err.message);
  const where = at
    ? ` at line ${at[1]} column ${at[2]}`
    : pos
      ? ` at position ${pos[1]}`
      : /end of JSON input/.test(err.message)
        ? ': unexpected end of the file'
        : '';
  return `${file}: $: invalid JSON${where}`;
}

/** Why a write failed, for GET /api/health: the error code in words, never the path. */
export function writeFailure(file: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const why =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'no space left on the disk'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EROFS'
          ? 'read-only file system'
          : code === 'EIO'
            ? 'input/output error'
            : code
              ? `write failed (${code})`
              : 'write failed';
  return `${file}: not writable: ${why}`;
}

function sameFingerprint(a: Fingerprint | null, b: Fingerprint | null): boolean {
  if (!a || !b) return a === b;
  return a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
}

async function fingerprintOf(file: string): Promise<Fingerprint | null> {
  try {
    const s = await stat(file);
    return { mtimeMs: s.mtimeMs, size: s.size, ino: s.ino };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

export type SpecMap = Record<string, FileSpec<unknown>>;

/**
 * One file a module reads, as it declares it: `FileReader<'sources', SourcesFile>`; several are
 * an intersection (`FileReader<'a', A> & FileReader<'b', B>`), which the whole store satisfies.
 */
export interface FileReader<K extends string, T> {
  get(key: K): T | null;
}
type DataOf<S extends SpecMap, K extends keyof S> = S[K] extends FileSpec<infer T> ? T : never;

/**
 * What a module's store or job uses of the data store, narrowed to the files it names: the
 * composition root passes the one store of every file (composition/data-files.ts), a module
 * declares only the files it reads and writes.
 */
export type FilesView<S extends SpecMap> = Pick<
  DataStore<S>,
  'dir' | 'get' | 'refreshFile' | 'status' | 'reload' | 'mutate' | 'spec'
>;

export class DataStore<S extends SpecMap> {
  readonly dir: string;
  private readonly entries: { [K in keyof S]: Entry<DataOf<S, K>> };
  private readonly listeners = new Set<(changed: (keyof S)[]) => void>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  /** Keys whose data comes from published documents (installText), not from their files. */
  private readonly published = new Set<keyof S>();

  constructor(
    dir: string,
    specs: S,
    private readonly logger: Logger,
  ) {
    this.dir = dir;
    const entries = {} as { [K in keyof S]: Entry<DataOf<S, K>> };
    for (const key of Object.keys(specs) as (keyof S)[]) {
      const spec = specs[key] as FileSpec<DataOf<S, typeof key>>;
      const filePath = path.join(dir, spec.file);
      const entry: Entry<DataOf<S, typeof key>> = {
        spec,
        path: filePath,
        adapter: new DataFile<DataOf<S, typeof key>>(filePath, {
          parse: (text) => {
            if (entry.loadHook) entry.lastText = text;
            return JSON.parse(text) as DataOf<S, typeof key>;
          },
          stringify: (data) => `${JSON.stringify(data, null, 2)}\n`,
        }),
        data: null,
        loadedAt: null,
        error: null,
        publicError: null,
        writeError: null,
        fingerprint: null,
        queue: Promise.resolve(),
        writesInFlight: 0,
        writer: new GroupCommit(() =>
          this.written(entry, async () => {
            await writeFileDurably(
              filePath,
              `${JSON.stringify(entry.data, null, 2)}\n`,
              spec.personal ? PRIVATE_FILE_MODE : undefined,
            );
            entry.fingerprint = await fingerprintOf(filePath);
            entry.loadedAt = new Date().toISOString();
          }),
        ),
        refreshing: null,
        lastText: null,
        loadHook: null,
      };
      entries[key] = entry;
    }
    this.entries = entries;
  }

  /** The spec a file was opened with (its name, schema and empty value). */
  spec<K extends keyof S>(key: K): S[K] {
    return this.entries[key].spec as S[K];
  }

  keys(): (keyof S)[] {
    return Object.keys(this.entries) as (keyof S)[];
  }

  /** Last good data of a file, or null if it never loaded. */
  get<K extends keyof S>(key: K): DataOf<S, K> | null {
    return this.entries[key].data;
  }

  status(): Record<string, FileStatus> {
    const out: Record<string, FileStatus> = {};
    for (const key of this.keys()) {
      const e = this.entries[key];
      out[e.spec.file] = {
        loaded: e.data !== null,
        loadedAt: e.loadedAt,
        error: e.publicError ?? e.writeError,
      };
    }
    return out;
  }

  onChange(listener: (changed: (keyof S)[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async loadAll(): Promise<void> {
    await Promise.all(this.keys().map((k) => this.load(k)));
  }

  /** (Re)reads one file from disk and validates it. Returns true when new data was accepted. */
  private async load<K extends keyof S>(key: K): Promise<boolean> {
    const e = this.entries[key];
    const fingerprint = await fingerprintOf(e.path);
    e.fingerprint = fingerprint;
    if (!fingerprint) {
      if (e.spec.empty) {
        const wasEmpty = e.data !== null && e.error === null && e.loadedAt !== null;
        const empty = e.spec.empty();
        e.data = e.loadHook ? e.loadHook(empty, null) : empty;
        e.error = null;
        e.publicError = null;
        e.loadedAt = new Date().toISOString();
        return !wasEmpty;
      }
      return this.refuse(
        e,
        `${e.spec.file}: file not found in ${this.dir}`,
        `${e.spec.file}: file not found`,
      );
    }
    let raw: unknown;
    try {
      raw = await e.adapter.read();
    } catch (err) {
      e.lastText = null;
      if (err instanceof SyntaxError) {
        return this.refuse(
          e,
          `${e.spec.file}: $: invalid JSON: ${err.message}`,
          publicJsonError(e.spec.file, err),
        );
      }
      return this.refuse(
        e,
        `${e.spec.file}: $: ${(err as Error).message}`,
        `${e.spec.file}: $: not readable (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    const text = e.lastText;
    e.lastText = null;
    const parsed = e.spec.schema.safeParse(raw);
    if (!parsed.success) {
      return this.refuse(
        e,
        formatSchemaError(e.spec.file, parsed.error),
        publicSchemaError(e.spec.file, parsed.error, e.spec.personal === true),
      );
    }
    const hadError = e.error !== null;
    e.data = e.loadHook ? e.loadHook(parsed.data, text) : parsed.data;
    e.error = null;
    e.publicError = null;
    e.loadedAt = new Date().toISOString();
    if (hadError) this.logger.info('data file accepted again', { file: e.spec.file });
    return true;
  }

  /** `message` (full: contents, paths) goes to the log; `publicMessage` to GET /api/health. */
  private refuse<T>(e: Entry<T>, message: string, publicMessage: string): false {
    if (e.error !== message) {
      this.logger.error('data file refused, keeping last good data', {
        file: e.spec.file,
        error: message,
        servingLastGood: e.data !== null,
      });
    }
    e.error = message;
    e.publicError = publicMessage;
    return false;
  }

  /**
   * Runs a write of `e`'s file: a failure is logged (in full) and remembered for GET /api/health
   * until a later write of the file succeeds.
   */
  private async written<T>(e: Entry<T>, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (err) {
      const failure = writeFailure(e.spec.file, err);
      if (e.writeError !== failure) {
        this.logger.error('data file write failed', {
          file: e.spec.file,
          error: (err as Error).message,
        });
      }
      e.writeError = failure;
      throw err;
    }
    if (e.writeError !== null) this.logger.info('data file written again', { file: e.spec.file });
    e.writeError = null;
  }

  /** Reloads one file if it changed on disk since we last saw it. */
  async refreshFile<K extends keyof S>(key: K): Promise<boolean> {
    const e = this.entries[key];
    if (this.published.has(key)) return false;
    // Our own atomic write is in progress: the disk is about to hold our newer data.
    if (e.writesInFlight > 0) return false;
    // Concurrent callers (a burst of sign-ups) share one stat instead of queueing one each.
    e.refreshing ??= (async () => {
      try {
        const fp = await fingerprintOf(e.path);
        if (sameFingerprint(fp, e.fingerprint)) return false;
        const accepted = await this.load(key);
        if (accepted) this.emit([key]);
        return accepted;
      } finally {
        e.refreshing = null;
      }
    })();
    return e.refreshing;
  }

  /**
   * Re-reads a file even if it looks unchanged (the user-data store, after a failed journal
   * write, rebuilds its data from what is on disk). False when the file was refused.
   */
  async reload<K extends keyof S>(key: K): Promise<boolean> {
    if (this.published.has(key)) return false;
    const accepted = await this.load(key);
    if (accepted) this.emit([key]);
    return accepted;
  }

  /**
   * Attaches a load hook (see LoadHook). Once attached, the data of this file is owned by the
   * hook's owner: `mutate` refuses it, writes go through `replaceFile`.
   */
  attach<K extends keyof S>(key: K, hook: LoadHook<DataOf<S, K>>): void {
    this.entries[key].loadHook = hook;
  }

  /** The file's current data for a write, or a DataFileError while it is broken or missing. */
  writableData<K extends keyof S>(key: K): DataOf<S, K> {
    const e = this.entries[key];
    if (e.error !== null || e.data === null) {
      throw new DataFileError(e.spec.file, e.error ?? `${e.spec.file}: not loaded`);
    }
    return e.data;
  }

  /** Size of the file on disk as last seen (bytes; 0 when absent). */
  sizeOf<K extends keyof S>(key: K): number {
    return this.entries[key].fingerprint?.size ?? 0;
  }

  fileName<K extends keyof S>(key: K): string {
    return this.entries[key].spec.file;
  }

  /**
   * Replaces a file with `text`, durably, unless it changed on disk since it was last read (an
   * operator's edit not seen yet is never overwritten: then nothing is written and the result is
   * false). Serialised with the file's other writes.
   */
  async replaceFile<K extends keyof S>(key: K, text: string | Buffer): Promise<boolean> {
    const e = this.entries[key];
    const step = e.queue.then(async () => {
      if (e.error !== null) return false;
      if (!sameFingerprint(await fingerprintOf(e.path), e.fingerprint)) return false;
      e.writesInFlight++;
      try {
        await this.written(e, async () => {
          await writeFileDurably(e.path, text, e.spec.personal ? PRIVATE_FILE_MODE : undefined);
          e.fingerprint = await fingerprintOf(e.path);
          e.loadedAt = new Date().toISOString();
        });
      } finally {
        e.writesInFlight--;
      }
      return true;
    });
    e.queue = step.catch(() => undefined);
    return step;
  }

  /** Checks every file for hand edits; listeners hear about the ones accepted. */
  async refresh(): Promise<(keyof S)[]> {
    const changed: (keyof S)[] = [];
    for (const key of this.keys()) {
      const e = this.entries[key];
      if (e.writesInFlight > 0 || this.published.has(key)) continue;
      const fp = await fingerprintOf(e.path);
      if (sameFingerprint(fp, e.fingerprint)) continue;
      if (await this.load(key)) changed.push(key);
    }
    if (changed.length > 0) this.emit(changed);
    return changed;
  }

  private emit(changed: (keyof S)[]): void {
    for (const l of this.listeners) {
      try {
        l(changed);
      } catch (err) {
        this.logger.error('data change listener failed', { error: (err as Error).message });
      }
    }
  }

  /**
   * Parses and validates `text` as the content of `key`'s file, with the checks of a file load
   * (JSON, then the file's schema): the data, or the full and the public reason it is refused.
   */
  validateText<K extends keyof S>(
    key: K,
    text: string,
  ): { ok: true; data: DataOf<S, K> } | { ok: false; error: string; publicError: string } {
    const spec = this.entries[key].spec;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      return {
        ok: false,
        error: `${spec.file}: $: invalid JSON: ${(err as Error).message}`,
        publicError: publicJsonError(spec.file, err as Error),
      };
    }
    const parsed = spec.schema.safeParse(raw);
    if (!parsed.success) {
      return {
        ok: false,
        error: formatSchemaError(spec.file, parsed.error),
        publicError: publicSchemaError(spec.file, parsed.error, spec.personal === true),
      };
    }
    return { ok: true, data: parsed.data };
  }

  /**
   * From now on `keys` are served from texts installed by `installText` (published data): their
   * files are no longer watched nor reloaded.
   */
  servePublished(keys: (keyof S)[]): void {
    for (const key of keys) this.published.add(key);
  }

  /**
   * Installs `text` as `key`'s data after the checks of a file load; listeners hear of it. An
   * invalid text is refused like an invalid file: the last good data is kept, the reason is shown
   * in status(). True when accepted.
   */
  installText<K extends keyof S>(key: K, text: string): boolean {
    const e = this.entries[key];
    const checked = this.validateText(key, text);
    if (!checked.ok) return this.refuse(e, checked.error, checked.publicError);
    const hadError = e.error !== null;
    e.data = e.loadHook ? e.loadHook(checked.data, text) : checked.data;
    e.error = null;
    e.publicError = null;
    e.loadedAt = new Date().toISOString();
    if (hadError) this.logger.info('data file accepted again', { file: e.spec.file });
    this.emit([key]);
    return true;
  }

  startWatching(intervalMs: number): void {
    if (this.timer || intervalMs <= 0) return;
    this.timer = setInterval(() => {
      if (this.polling) return;
      this.polling = true;
      this.refresh()
        .catch((err: unknown) =>
          this.logger.error('data directory poll failed', { error: (err as Error).message }),
        )
        .finally(() => {
          this.polling = false;
        });
    }, intervalMs);
    // Never keep a process alive just to watch files (CLI commands, tests).
    this.timer.unref();
  }

  stopWatching(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Read-modify-write of a runtime file. Serialised per file; picks up hand edits first; refuses
   * to overwrite a file it could not parse (that would destroy an operator's edit). Resolves once
   * the write holding this change is durable; changes made while a write runs share the next one.
   */
  async mutate<K extends keyof S, R>(
    key: K,
    fn: (data: DataOf<S, K>) => { result: R; changed: boolean },
  ): Promise<R> {
    const e = this.entries[key];
    if (e.loadHook) throw new Error(`${e.spec.file} is journaled: change it through its owner`);
    const step = e.queue.then(async () => {
      await this.refreshFile(key);
      // Callers validate their input before mutating (request schemas), so the in-memory data
      // stays schema-valid without re-validating the whole file on every change.
      const outcome = fn(this.writableData(key));
      if (!outcome.changed) return { outcome, written: null };
      e.writesInFlight++;
      // Requested in the same step as the change, so the commit that answers it contains it.
      return { outcome, written: e.writer.request() };
    });
    // The queue only orders the in-memory step; a failure must not block later callers.
    e.queue = step.catch(() => undefined);
    const { outcome, written } = await step;
    if (written) {
      try {
        await written;
      } finally {
        e.writesInFlight--;
      }
    }
    return outcome.result;
  }
}
