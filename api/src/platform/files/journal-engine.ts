/**
 * The journal engine of the file store: JSON files an operator reads and edits, and every change
 * first an append to one journal (`<name>.log`, JSON lines, fdatasync'd with group commit, see
 * journal.ts), replayed onto the files whenever one is (re)loaded and folded into them in the
 * background ("compaction").
 *
 * The engine knows no aggregate. Each aggregate registers with it:
 *
 * - its record types (`t` plus a zod schema; a line whose type nobody declared is skipped as
 *   invalid), and
 * - for each of its files, a reducer: the record types it applies, how it applies one to the
 *   file's in-memory data, how it rebuilds its indexes from freshly loaded data, and how it takes
 *   a copy that later changes do not touch.
 *
 * A record dirties every file whose reducer applies its type, so a change that touches several
 * files (an invite use and the user it creates) is still ONE journal line: both or neither survive
 * a crash.
 *
 * Compaction: one second after the last change, at the latest 30 seconds after the first unfolded
 * one, but on big files no more often than one fold per second per MiB of JSON; at once when the
 * journal holds half the size of the files; and on close. It seals the journal (later changes go
 * to a fresh one), writes the dirtied files from a copy taken at that moment (serialised in
 * slices), then removes the sealed segment. Before it replaces a file it appends a marker to the
 * sealed segment naming the sha256 of each file it is about to write; on start, a sealed segment
 * still present is replayed only onto files whose content does not match its marker, so a crash
 * between writing the files and removing the segment counts nothing twice.
 *
 * An operator's edit of a file is picked up (poller, or the next write) and the journal is
 * replayed on top of it; compaction never writes a file edited since its seal. A broken edit is
 * refused: writes that need that file throw DataFileError, compaction leaves it alone.
 *
 * One process owns the journal and holds the data directory's lock (dir-lock.ts). Others open
 * without it (`owner: false`), optionally replaying the journal read-only (`replay: true`).
 * The files and the journal are owner-only (0600); the owner makes existing ones so at start. A
 * failed write (a full disk) is remembered and shown by health() until a later write succeeds;
 * after one, memory is rebuilt from the disk as a restart would.
 */
import { chmod, readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../logger.ts';
import { lockDataDir, type DirLock } from './dir-lock.ts';
import { PRIVATE_FILE_MODE } from './durable.ts';
import { Journal, readJournal } from './journal.ts';
import { jsonFileTextInSlices, sha256 } from './json-text.ts';
import { DataFileError, writeFailure, type DataStore, type SpecMap } from './data-store.ts';

/** A journal record: `t` names its type, the rest belongs to the aggregate that declared it. */
export interface JournalRecord {
  t: string;
}

const MARKER = 'compacted';
/** Written before compaction replaces files: each file's sha256 once it holds everything above. */
const markerSchema = z.object({ t: z.literal(MARKER), files: z.record(z.string(), z.string()) });
type Marker = z.infer<typeof markerSchema>;
type Line = JournalRecord | Marker;
const isMarker = (r: Line): r is Marker => r.t === MARKER;

/** What an aggregate registers for one of its files. */
export interface FileReducer<K extends string, D, R extends JournalRecord> {
  /** The file's key in the data store. */
  key: K;
  /** The record types whose part for this file `apply` applies (the file is dirtied by them). */
  types: readonly R['t'][];
  /** Applies a record to the file's in-memory data (and the aggregate's indexes); also on replay. */
  apply(data: D, record: R): void;
  /** Rebuilds the aggregate's indexes of this file from freshly loaded data. */
  rebuild(data: D): void;
  /** A copy of the data that later changes do not touch (what compaction writes). */
  freeze(data: D): Record<string, unknown>;
}

type AnyReducer<K extends string> = FileReducer<K, unknown, JournalRecord>;

export interface CompactionOptions {
  /** Fold the journal this long after the last change (ms). */
  idleMs: number;
  /** ...and at the latest this long after the first change not yet folded (ms). */
  maxDelayMs: number;
  /** ...or once the journal reaches this many bytes, or half the JSON files' size if larger. */
  minBytes: number;
  /**
   * Folds started by the timers are spaced so that on average they rewrite at most this many
   * bytes per second (a sign-up every few seconds on a 12.5 MB list must not rewrite it each time).
   */
  bytesPerSecond: number;
}

export const DEFAULT_COMPACTION: CompactionOptions = {
  idleMs: 1000,
  maxDelayMs: 30_000,
  minBytes: 1 << 20,
  bytesPerSecond: 1 << 20,
};

export interface JournalEngineOptions {
  /** The journal's name: its files are `<name>.log` and `<name>.sealed-<n>.log`. */
  name: string;
  /** What the log lines call the data ("user data"). */
  label: string;
  logger: Logger;
  compaction?: Partial<CompactionOptions>;
  /** Called on every failed write (the journal or a file it folds into): for the metrics. */
  onWriteFailure?: () => void;
}

/** What /metrics shows of a journal: changes not yet folded, and when the last fold finished. */
export interface JournalEngineState {
  pendingEntries: number;
  /** ms since the epoch; the opening until the first fold. */
  lastCompactionAt: number;
}

export interface OpenOptions {
  /** Owns the journal (takes the data directory's lock, appends, compacts). */
  owner: boolean;
  /** Without `owner`: replay the journal onto the files when they load, but never write it. */
  replay?: boolean;
}

/**
 * What a module's store uses of the journal (its records, reducers and writes), narrowed to the
 * files it owns: the composition root passes the one engine of every file, a module names only
 * its own.
 */
export type ModuleJournal<S extends SpecMap> = Pick<
  JournalEngine<S>,
  | 'declare'
  | 'register'
  | 'writable'
  | 'apply'
  | 'pending'
  | 'recordKeyed'
  | 'record'
  | 'writes'
  | 'compact'
>;

export class JournalEngine<S extends SpecMap, K extends keyof S & string = keyof S & string> {
  private readonly logger: Logger;
  private readonly label: string;
  private readonly name: string;
  private readonly journalFile: string;
  private readonly compaction: CompactionOptions;
  private readonly schemas = new Map<string, z.ZodType<JournalRecord>>();
  private readonly reducers = new Map<K, AnyReducer<K>>();
  /** Record type -> the files it dirties (from the registered reducers). */
  private readonly touches = new Map<string, K[]>();
  private journal: Journal | null = null;
  /** Journal content in memory: sealed segments (oldest first), then the active file. */
  private sealed: Line[] = [];
  private sealedSegments: number[] = [];
  private active: Line[] = [];
  /**
   * Keys (e.g. a lower-cased address) whose creation is written but not yet durable: a repeat
   * that finds it waits for it before answering "already there".
   */
  private readonly pendingKeys = new Map<string, Promise<void>>();
  private compactions: Promise<void> = Promise.resolve();
  private compactionQueued = false;
  private timer: NodeJS.Timeout | null = null;
  private firstUnfoldedAt: number | null = null;
  private lastFoldAt = 0;
  private started = false;
  private recovering: Promise<void> | null = null;
  private closed = false;
  /** Counts (re)loads per file: compaction never writes data taken before a reload. */
  private readonly loads = new Map<K, number>();
  private lastPostponed = '';
  /** The data directory's lock (the owner only). */
  private lock: DirLock | null = null;
  /** Why the last write failed, until a later one succeeds (for health()). */
  private writeFailure: string | null = null;
  private readonly onWriteFailure: (() => void) | undefined;
  /** When the journal was last folded into the files (ms since the epoch), else the opening. */
  private lastCompactionAt = Date.now();

  constructor(
    readonly store: DataStore<S>,
    options: JournalEngineOptions,
  ) {
    this.logger = options.logger;
    this.label = options.label;
    this.name = options.name;
    this.journalFile = `${options.name}.log`;
    this.compaction = { ...DEFAULT_COMPACTION, ...options.compaction };
    this.onWriteFailure = options.onWriteFailure;
  }

  /** The journal for /metrics. */
  state(): JournalEngineState {
    const pending = (lines: Line[]) => lines.reduce((n, line) => (isMarker(line) ? n : n + 1), 0);
    return {
      pendingEntries: pending(this.sealed) + pending(this.active),
      lastCompactionAt: this.lastCompactionAt,
    };
  }

  // ------------------------------------------------------------------ registration

  /** Declares record types (`t` -> schema of the whole line); each type is declared once. */
  declare(records: Record<string, z.ZodType<JournalRecord>>): void {
    for (const [t, schema] of Object.entries(records)) {
      if (t === MARKER || this.schemas.has(t))
        throw new Error(`journal record ${t} declared twice`);
      this.schemas.set(t, schema);
    }
  }

  /** Registers the reducer of one file (before open). */
  register<D, R extends JournalRecord>(reducer: FileReducer<K, D, R>): void {
    if (this.reducers.has(reducer.key)) throw new Error(`${reducer.key}: reducer registered twice`);
    this.reducers.set(reducer.key, reducer as unknown as AnyReducer<K>);
    this.loads.set(reducer.key, 0);
    for (const t of reducer.types) {
      const keys = this.touches.get(t);
      if (keys) keys.push(reducer.key);
      else this.touches.set(t, [reducer.key]);
    }
  }

  private get keys(): K[] {
    return [...this.reducers.keys()];
  }

  private touched(r: JournalRecord): K[] {
    return this.touches.get(r.t) ?? [];
  }

  // ------------------------------------------------------------------ opening

  /**
   * Opens the journal on a store whose files are not loaded yet (call `store.loadAll()` next):
   * the owner and a replaying reader read it and attach to the registered files, so loading them
   * replays it.
   */
  async open(options: OpenOptions): Promise<void> {
    for (const t of this.touches.keys())
      if (!this.schemas.has(t)) throw new Error(`journal record ${t} applied but not declared`);
    if (options.owner) {
      // Throws DataDirLockedError while another process owns the directory.
      this.lock = await lockDataDir(this.store.dir, (err) =>
        this.logger.error(`data directory lock lost: ${this.label} writes stopped`, {
          dir: this.store.dir,
          error: err.message,
        }),
      );
      try {
        await this.makePrivate();
        await this.readJournal(true);
      } catch (err) {
        await this.lock.release();
        throw err;
      }
    } else if (options.replay) {
      await this.readJournal(false);
    }
    if (options.owner || options.replay)
      for (const key of this.keys)
        this.store.attach(key, (data, text) => this.replay(key, data, text));
  }

  /** Whether this process writes the journal (the owner). */
  get writes(): boolean {
    return this.journal !== null;
  }

  /** Owner-only modes for the registered files and the journal already there (written 0644 before). */
  private async makePrivate(): Promise<void> {
    const names = await readdir(this.store.dir);
    const personal = new Set(this.keys.map((k) => this.store.fileName(k)));
    for (const name of names) {
      if (!personal.has(name) && !name.startsWith(`${this.name}.`)) continue;
      await chmod(path.join(this.store.dir, name), PRIVATE_FILE_MODE).catch(() => undefined);
    }
  }

  private parse(line: unknown): Line | null {
    const t = (line as { t?: unknown } | null)?.t;
    if (typeof t !== 'string') return null;
    const schema = t === MARKER ? markerSchema : this.schemas.get(t);
    const parsed = schema?.safeParse(line);
    return parsed?.success ? parsed.data : null;
  }

  /** Reads the journal; `open`: for appending (the owner: a torn last line is cut off). */
  private async readJournal(open = true): Promise<void> {
    const segments = await readJournal(this.store.dir, this.name);
    this.sealed = [];
    this.sealedSegments = [];
    this.active = [];
    for (const segment of segments) {
      let invalid = segment.invalidLines;
      const records: Line[] = [];
      for (const line of segment.lines) {
        const parsed = this.parse(line);
        if (parsed) records.push(parsed);
        else invalid++;
      }
      if (invalid > 0 || segment.torn) {
        this.logger.warn('journal lines skipped', {
          file: segment.file,
          invalidLines: invalid,
          tornLastLine: segment.torn,
        });
      }
      if (segment.n === 0) this.active = records;
      else {
        this.sealed.push(...records);
        this.sealedSegments.push(segment.n);
      }
    }
    if (open) this.journal = await Journal.open(this.store.dir, this.name, segments);
  }

  /** Load hook: the journal replayed onto freshly read file content. */
  private replay<D>(key: K, data: D, text: string | null): D {
    const reducer = this.reducers.get(key)!;
    const records = [...this.sealed, ...this.active];
    let start = 0;
    const file = this.store.fileName(key);
    if (text !== null && records.some((r) => isMarker(r) && file in r.files)) {
      const hash = sha256(text);
      for (let i = records.length - 1; i >= 0; i--) {
        const r = records[i]!;
        if (isMarker(r) && r.files[file] === hash) {
          start = i + 1;
          break;
        }
      }
    }
    this.loads.set(key, this.loads.get(key)! + 1);
    reducer.rebuild(data);
    for (let i = start; i < records.length; i++) {
      const r = records[i]!;
      if (!isMarker(r) && this.touched(r).includes(key)) reducer.apply(data, r);
    }
    return data;
  }

  /** Starts background compaction (the server; tests and commands compact explicitly). */
  start(): void {
    if (!this.journal || this.started) return;
    this.started = true;
    if (this.sealed.length + this.active.length > 0) this.schedule(0);
  }

  // ------------------------------------------------------------------ changes

  /**
   * The data of a file for a change: throws DataFileError if it or the journal cannot be written
   * (a broken file, a failed write being recovered, the directory's lock lost).
   */
  writable(key: K): unknown {
    if (!this.journal) throw new Error('only the owner of the journal records changes');
    if (this.lock?.lost) {
      throw new DataFileError(
        this.journalFile,
        `data directory lock lost: not writing ${this.label}`,
      );
    }
    if (this.journal.failed || this.recovering) {
      this.recovering ??= this.recover();
      throw new DataFileError(this.journalFile, `${this.journalFile}: write failed, reloading`);
    }
    return this.store.writableData(key);
  }

  /** Applies a change in memory to every file it touches (each writable, see `writable`). */
  apply(change: JournalRecord): void {
    const keys = this.touched(change);
    const data = keys.map((k) => this.writable(k));
    keys.forEach((k, i) => this.reducers.get(k)!.apply(data[i], change));
  }

  /** A creation of `key` not yet durable (see recordKeyed), to wait for; else undefined. */
  pending(key: string): Promise<void> | undefined {
    return this.pendingKeys.get(key);
  }

  /** `record` for a change that creates `key`: a repeat meanwhile waits for it (pending). */
  async recordKeyed(key: string, change: JournalRecord): Promise<void> {
    const durable = this.record(change);
    this.pendingKeys.set(key, durable);
    try {
      await durable;
    } finally {
      if (this.pendingKeys.get(key) === durable) this.pendingKeys.delete(key);
    }
  }

  /** Appends a change already applied in memory, as one line; resolves when it is durable. */
  record(change: JournalRecord): Promise<void> {
    const journal = this.journal!;
    this.active.push(change);
    const durable = journal.append(JSON.stringify(change));
    this.noteChange();
    return durable.then(
      () => this.noteWriteSuccess(),
      (err: unknown) => {
        this.logger.error(`${this.label} journal write failed`, { error: (err as Error).message });
        this.noteWriteFailure(err);
        this.recovering ??= this.recover();
        throw new DataFileError(this.journalFile, `${this.journalFile}: write failed`);
      },
    );
  }

  /**
   * After a failed write, memory may hold changes that never became durable: cut the journal back
   * to its last durable write and rebuild everything from the disk, as a restart would.
   */
  private async recover(): Promise<void> {
    try {
      await this.compactions;
      await this.journal!.reopen();
      await this.readJournal();
      for (const key of this.keys) await this.store.reload(key);
      this.pendingKeys.clear();
      this.logger.info(`${this.label} reloaded after a failed write`);
    } catch (err) {
      this.logger.error(`${this.label} reload failed`, { error: (err as Error).message });
    } finally {
      this.recovering = null;
    }
  }

  // ------------------------------------------------------------------ health and lifecycle

  /** Why writes cannot be served now (no path, no content), or null. */
  healthError(): string | null {
    const failed =
      this.journal !== null && (this.journal.failed !== null || this.recovering !== null);
    return this.lock?.lost
      ? 'data directory lock lost: another process took the data directory over'
      : (this.writeFailure ?? (failed ? `${this.journalFile}: write failed, reloading` : null));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.journal) return;
    try {
      await this.recovering;
      if (!this.journal.failed && !this.lock?.lost) await this.compact();
      await this.compactions;
      await this.journal.close();
    } finally {
      await this.lock?.release();
    }
  }

  /**
   * Lets go of the data directory the way a killed process does: nothing more is written or
   * folded (the journal stays as it is), and the lock is released.
   */
  async abandon(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.journal?.close();
    await this.lock?.release();
  }

  // ------------------------------------------------------------------ compaction

  private noteChange(): void {
    if (!this.started || this.closed) return;
    this.firstUnfoldedAt ??= Date.now();
    const fileBytes = this.keys.reduce((sum, k) => sum + this.store.sizeOf(k), 0);
    const threshold = Math.max(this.compaction.minBytes, fileBytes / 2);
    if (this.journal!.activeBytes >= threshold) this.schedule(0);
    else {
      const now = Date.now();
      const due = Math.min(
        this.compaction.idleMs,
        this.firstUnfoldedAt + this.compaction.maxDelayMs - now,
      );
      const spacing = this.lastFoldAt + (fileBytes / this.compaction.bytesPerSecond) * 1000 - now;
      this.schedule(Math.max(0, due, spacing));
    }
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.compactionQueued) return;
      this.compactionQueued = true;
      this.compact()
        .catch((err: unknown) =>
          this.logger.error(`${this.label} compaction failed`, { error: (err as Error).message }),
        )
        .finally(() => {
          this.compactionQueued = false;
          // Changes made meanwhile (or files that could not be written) need another round.
          if (this.active.length + this.sealed.length > 0 && !this.closed) {
            this.firstUnfoldedAt = null;
            this.noteChange();
          }
        });
    }, delayMs);
    // Never keep a process alive for this (close() compacts what is left).
    this.timer.unref();
  }

  /**
   * Folds the journal into the files now; resolves when every change recorded before the call is
   * in them (or, when a file cannot be written, it stays in the journal for a later round).
   */
  compact(): Promise<void> {
    const run = this.compactions.then(() => this.compactOnce());
    this.compactions = run.catch(() => undefined);
    return run;
  }

  /** Remembers a failed write of `file` for health() (the journal's unless said). */
  private noteWriteFailure(err: unknown, file = this.journalFile): void {
    this.onWriteFailure?.();
    this.writeFailure = writeFailure(file, err);
  }

  private noteWriteSuccess(): void {
    if (this.writeFailure !== null) this.logger.info(`${this.label} written again`);
    this.writeFailure = null;
  }

  private async compactOnce(): Promise<void> {
    const writing = { file: this.journalFile };
    try {
      await this.compactSteps(writing);
    } catch (err) {
      // A failed write (an operator's edit postpones without an error) is shown by health()
      // until a later write succeeds.
      if ((err as NodeJS.ErrnoException | null)?.code) this.noteWriteFailure(err, writing.file);
      throw err;
    }
  }

  /** One compaction; `writing.file` names the file being written at each step. */
  private async compactSteps(writing: { file: string }): Promise<void> {
    const journal = this.journal;
    if (!journal || journal.failed || this.recovering || this.lock?.lost) return;
    const started = Date.now();
    this.lastFoldAt = started;
    this.firstUnfoldedAt = null;
    let frozen = new Map<K, Record<string, unknown>>();
    let loadsAtSeal = new Map(this.loads);
    const n = await journal.seal(() => {
      loadsAtSeal = new Map(this.loads);
      this.sealed.push(...this.active);
      this.active = [];
      const touched = new Set<K>();
      for (const r of this.sealed)
        if (!isMarker(r)) for (const k of this.touched(r)) touched.add(k);
      // In registration order, as the files are written.
      frozen = new Map(
        this.keys
          .filter((k) => touched.has(k))
          .map((k) => [k, this.reducers.get(k)!.freeze(this.store.get(k))]),
      );
    });
    if (n !== null) this.sealedSegments.push(n);
    if (this.sealedSegments.length === 0) return;

    const out: { key: K; text: Buffer; sha256: string }[] = [];
    for (const [key, data] of frozen) out.push({ key, ...(await jsonFileTextInSlices(data)) });
    if (out.length > 0) {
      const files = Object.fromEntries(out.map((o) => [this.store.fileName(o.key), o.sha256]));
      const marker: Marker = { t: MARKER, files };
      await journal.appendToSealed(this.sealedSegments.at(-1)!, JSON.stringify(marker));
      this.sealed.push(marker);
    }
    const kept: string[] = [];
    for (const o of out) {
      // An operator's edit wins: a file edited since the seal (loaded now or already) is not
      // written from the copy taken before; replaceFile also refuses a file changed on disk in
      // the last moment, or broken. Its changes stay in the journal for a later round.
      const edited =
        (await this.store.refreshFile(o.key)) || this.loads.get(o.key) !== loadsAtSeal.get(o.key);
      writing.file = this.store.fileName(o.key);
      if (edited || !(await this.store.replaceFile(o.key, o.text)))
        kept.push(this.store.fileName(o.key));
    }
    if (kept.length > 0) {
      const which = kept.join(', ');
      if (which !== this.lastPostponed)
        this.logger.warn(`${this.label} compaction postponed: file edited by hand or broken`, {
          files: kept,
        });
      this.lastPostponed = which;
      return;
    }
    this.lastPostponed = '';
    writing.file = this.journalFile;
    await journal.removeSealed(this.sealedSegments);
    this.sealedSegments = [];
    this.sealed = [];
    this.noteWriteSuccess();
    this.lastCompactionAt = Date.now();
    this.logger.info(`${this.label} compacted`, {
      files: out.map((o) => this.store.fileName(o.key)),
      ms: Date.now() - started,
    });
  }
}
