/**
 * An append-only journal of JSON lines with group commit: `append` resolves once the line is
 * written and fdatasync'd, together with every line that arrived while the previous write ran.
 *
 * Files in the data directory (owner-only, mode 0600: they hold addresses): `<name>.log` receives appends; `seal()` renames it to
 * `<name>.sealed-<n>.log` (n increasing) so that its content can be folded into the JSON files
 * while new lines go to a fresh `<name>.log`; the folded segments are then removed.
 *
 * A crash can leave the last line torn (a write cut short). Reading ignores an unterminated last
 * line (it was never acknowledged: acknowledgement waits for the fdatasync of the whole write),
 * and the owner cuts it off before appending, so the next line starts on a line of its own.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fsio, fsyncDir, GroupCommit, PRIVATE_FILE_MODE } from './durable.ts';

export interface JournalSegment {
  /** 0 for the active `<name>.log`, else the sealed segment's number. */
  n: number;
  file: string;
  /** Parsed lines, in order (values as JSON.parse returned them). */
  lines: unknown[];
  /** Lines that were not JSON (reported, skipped). */
  invalidLines: number;
  /** Bytes up to the end of the last complete line. */
  validBytes: number;
  /** Whether the file ended in an unterminated line. */
  torn: boolean;
}

function parseSegment(n: number, file: string, text: string): JournalSegment {
  const end = text.lastIndexOf('\n') + 1;
  const lines: unknown[] = [];
  let invalidLines = 0;
  for (const line of text.slice(0, end).split('\n')) {
    if (line.trim() === '') continue;
    try {
      lines.push(JSON.parse(line));
    } catch {
      invalidLines++;
    }
  }
  return {
    n,
    file,
    lines,
    invalidLines,
    validBytes: Buffer.byteLength(text.slice(0, end)),
    torn: end < text.length,
  };
}

/** Every segment of journal `name` in `dir`, sealed ones first (oldest first), then the active one. */
export async function readJournal(dir: string, name: string): Promise<JournalSegment[]> {
  const sealedPattern = new RegExp(`^${name.replace(/[.-]/g, '\\$&')}\\.sealed-(\\d+)\\.log$`);
  let files: string[];
  try {
    files = await readdir(dir);
  } catch (err) {
    // A data directory that does not exist: every file reports it; writes will fail and say so.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const sealed = files
    .map((f) => ({ f, m: sealedPattern.exec(f) }))
    .filter((x): x is { f: string; m: RegExpExecArray } => x.m !== null)
    .map(({ f, m }) => ({ f, n: Number(m[1]) }))
    .sort((a, b) => a.n - b.n);
  const segments: JournalSegment[] = [];
  for (const { f, n } of sealed)
    segments.push(parseSegment(n, f, await readFile(path.join(dir, f), 'utf8')));
  const active = `${name}.log`;
  if (files.includes(active))
    segments.push(parseSegment(0, active, await readFile(path.join(dir, active), 'utf8')));
  return segments;
}

export class Journal {
  private fd: number | null = null;
  /** Durable bytes of the active file. */
  private size: number;
  private pending: string[] = [];
  private pendingBytes = 0;
  private sealRequest: { onSeal: () => void; done: (n: number | null) => void } | null = null;
  private readonly group: GroupCommit;
  private nextSealed: number;
  /** Set by a failed write: nothing more is written until `reopen`. */
  failed: Error | null = null;

  /**
   * Opens journal `name` for appending. `segments` is what readJournal returned; a torn last line
   * of the active file is cut off first.
   */
  static async open(dir: string, name: string, segments: JournalSegment[]): Promise<Journal> {
    const active = segments.find((s) => s.n === 0);
    if (active?.torn) await Journal.truncate(path.join(dir, `${name}.log`), active.validBytes);
    const lastSealed = segments.filter((s) => s.n > 0).at(-1)?.n ?? 0;
    return new Journal(dir, name, active?.validBytes ?? 0, lastSealed + 1);
  }

  private static async truncate(file: string, size: number): Promise<void> {
    const fd = await fsio.open(file, 'r+');
    try {
      await fsio.ftruncate(fd, size);
      await fsio.fdatasync(fd);
    } finally {
      await fsio.close(fd);
    }
  }

  private constructor(
    readonly dir: string,
    readonly name: string,
    size: number,
    nextSealed: number,
  ) {
    this.size = size;
    this.nextSealed = nextSealed;
    this.group = new GroupCommit(() => this.commit());
  }

  get activeFile(): string {
    return path.join(this.dir, `${this.name}.log`);
  }

  sealedFile(n: number): string {
    return path.join(this.dir, `${this.name}.sealed-${n}.log`);
  }

  /** Bytes in the active file, written or waiting to be. */
  get activeBytes(): number {
    return this.size + this.pendingBytes;
  }

  /**
   * Appends one JSON line (`line` must not contain a newline). Resolves when the write holding it
   * is durable; rejects if that write failed.
   */
  append(line: string): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    this.pending.push(`${line}\n`);
    this.pendingBytes += Buffer.byteLength(line) + 1;
    return this.group.request();
  }

  /**
   * Ends the active file after the next write: `onSeal` runs synchronously at the moment the last
   * lines of the segment are taken (no line appended later is in it), then the file is renamed to
   * a sealed segment. Resolves with that segment's number, or null when it held nothing.
   */
  seal(onSeal: () => void): Promise<number | null> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.sealRequest) return Promise.reject(new Error('a seal is already under way'));
    return new Promise<number | null>((resolve, reject) => {
      this.sealRequest = { onSeal, done: resolve };
      this.group.request().catch(reject);
    });
  }

  /** Appends a line to a sealed segment (the compaction marker), durably. */
  async appendToSealed(n: number, line: string): Promise<void> {
    const fd = await fsio.open(this.sealedFile(n), 'a');
    try {
      await this.writeAll(fd, Buffer.from(`${line}\n`));
      await fsio.fdatasync(fd);
    } finally {
      await fsio.close(fd);
    }
  }

  async removeSealed(ns: number[]): Promise<void> {
    for (const n of ns) await fsio.unlink(this.sealedFile(n));
    if (ns.length > 0) await fsyncDir(this.dir);
  }

  /** After a failed write: waits for the writer to stop, cuts off what was not acknowledged. */
  async reopen(): Promise<void> {
    while (this.group.busy) await new Promise((r) => setTimeout(r, 5));
    if (this.fd !== null) await fsio.close(this.fd).catch(() => undefined);
    this.fd = null;
    this.pending = [];
    this.pendingBytes = 0;
    this.sealRequest = null;
    try {
      await Journal.truncate(this.activeFile, this.size);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.size = 0;
    }
    this.failed = null;
  }

  async close(): Promise<void> {
    while (this.group.busy) await new Promise((r) => setTimeout(r, 5));
    if (this.fd !== null) await fsio.close(this.fd);
    this.fd = null;
  }

  private async writeAll(fd: number, buf: Buffer): Promise<void> {
    let off = 0;
    while (off < buf.length) off += await fsio.write(fd, buf.subarray(off));
  }

  private async commit(): Promise<void> {
    // After a failure nothing is written: the file may end in a torn line that reopen() cuts off.
    if (this.failed) throw this.failed;
    const lines = this.pending;
    const bytes = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    const seal = this.sealRequest;
    this.sealRequest = null;
    seal?.onSeal();
    try {
      if (lines.length > 0) {
        if (this.fd === null) {
          this.fd = await fsio.open(this.activeFile, 'a');
          // Created owner-only; one left by an older version (0644) is made so too.
          await fsio.fchmod(this.fd, PRIVATE_FILE_MODE);
          // A new file's directory entry must be durable too.
          await fsyncDir(this.dir);
        }
        await this.writeAll(this.fd, Buffer.from(lines.join('')));
        await fsio.fdatasync(this.fd);
        this.size += bytes;
      }
      if (seal) {
        if (this.fd !== null) await fsio.close(this.fd);
        this.fd = null;
        if (this.size === 0) return seal.done(null);
        const n = this.nextSealed++;
        await fsio.rename(this.activeFile, this.sealedFile(n));
        await fsyncDir(this.dir);
        this.size = 0;
        seal.done(n);
      }
    } catch (err) {
      this.failed = err instanceof Error ? err : new Error(String(err));
      throw this.failed;
    }
  }
}
