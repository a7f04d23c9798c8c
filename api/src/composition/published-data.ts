/**
 * Published data (DATABASE_URL set): the yield files are served from the versions published in
 * PostgreSQL (platform/pg/published-documents.ts), the same bytes on every machine, not from the
 * files of this process's data directory.
 *
 * At start, documents not published yet are published from this process's files (the first
 * process of a fleet publishes its data as version 1); then every published document is installed
 * into the DataStore with the checks of a file load, and the store stops watching those files.
 * New versions are picked up by polling the versions (every PUBLISHED_POLL_MS). The bodies
 * installed are kept in DATA_DIR/published/: a process that starts while the database cannot be
 * reached serves the fleet's last numbers it saw, not the files of its directory. A database that
 * cannot be reached leaves the last loaded version served; health says so.
 */
import { mkdir, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dataFiles, type ApiStore, type DataFiles } from './data-files.ts';
import { writeFileDurably } from '../platform/files/durable.ts';
import { jsonFileText, sha256 } from '../platform/files/json-text.ts';
import type { FileSpec } from '../platform/files/data-store.ts';
import type { Logger } from '../platform/logger.ts';
import {
  PgPublishedDocuments,
  PublishConflictError,
  type DocumentChange,
} from '../platform/pg/published-documents.ts';
import { isConnectionError, type PgConnection } from '../platform/pg/connection.ts';
import { UserDataUnavailableError } from '../platform/store-health.ts';

/** The files published: every non-personal file of the data directory. */
export const PUBLISHED_KEYS: (keyof DataFiles)[] = (
  Object.keys(dataFiles) as (keyof DataFiles)[]
).filter((k) => !(dataFiles[k] as FileSpec<unknown>).personal);

/** Where the last published bodies installed are kept, inside the data directory. */
export const PUBLISHED_CACHE_DIR = 'published';
const CACHE_INDEX = 'versions.json';
export const PUBLISHED_POLL_MS = 2000;
/** The files an import writes, published after it. */
const IMPORT_KEYS: (keyof DataFiles)[] = ['history', 'prices', 'costs', 'pools', 'importStatus'];

export interface PublishedHealth {
  /** Whether the published versions could be checked at the last attempt. */
  available: boolean;
  error: string | null;
  /** File name -> version served. */
  versions: Record<string, number>;
  /** Files of this data directory whose content differs from the version served. */
  localDiffers: string[];
}

interface Served {
  version: number;
  sha256: string;
}

const fileOf = (key: keyof DataFiles) => dataFiles[key].file;
const keyOf = (name: string) => PUBLISHED_KEYS.find((k) => fileOf(k) === name);

/** A file's text, or null when it does not exist. */
export async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export class PublishedData {
  private readonly served = new Map<string, Served>();
  /** Last version looked at per name (an invalid one is not read again at every poll). */
  private readonly seen = new Map<string, number>();
  private readonly local = new Map<string, { mtimeMs: number; size: number; sha256: string }>();
  private localDiffers: string[] = [];
  private error: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> | null = null;
  /** Resolved at the first sync with the database (see `installed`). */
  private synced = false;
  private markSynced: () => void = () => undefined;
  private readonly firstSync = new Promise<void>((resolve) => {
    this.markSynced = resolve;
  });
  private readonly by = `api@${os.hostname()}:${process.pid}`;

  constructor(
    private readonly store: ApiStore,
    private readonly docs: PgPublishedDocuments,
    private readonly logger: Logger,
  ) {}

  private get cacheDir(): string {
    return path.join(this.store.dir, PUBLISHED_CACHE_DIR);
  }

  /** Publishes what is not published yet, installs the published data, then polls every pollMs. */
  async start(pollMs: number = PUBLISHED_POLL_MS): Promise<void> {
    this.store.servePublished(PUBLISHED_KEYS);
    try {
      await this.seed();
      await this.sync();
    } catch (err) {
      if (!this.unreachable(err)) throw err;
      await this.loadCache();
    }
    if (pollMs > 0) {
      this.timer = setInterval(() => void this.check(), pollMs);
      this.timer.unref();
    }
  }

  /** One poll: picks up new versions; never throws (an outage is kept for health). */
  check(): Promise<void> {
    this.syncing ??= this.sync()
      .catch((err: unknown) => {
        if (!this.unreachable(err))
          this.logger.error('published data check failed', { error: (err as Error).message });
      })
      .finally(() => {
        this.syncing = null;
      });
    return this.syncing;
  }

  private unreachable(err: unknown): boolean {
    if (!(err instanceof UserDataUnavailableError) && !isConnectionError(err)) return false;
    const message = `the published data could not be checked: ${(err as Error).message}`;
    if (this.error === null)
      this.logger.warn('published data not checked: serving the last version loaded', {
        error: message,
      });
    this.error = message;
    return true;
  }

  /** The files of this directory, published as version 1 where nothing is published yet. */
  private async seed(): Promise<void> {
    const docs: { name: string; body: string }[] = [];
    for (const key of PUBLISHED_KEYS) {
      const spec = dataFiles[key] as FileSpec<unknown>;
      const text = await readText(path.join(this.store.dir, spec.file));
      const body = text ?? (spec.empty ? jsonFileText(spec.empty()) : null);
      if (body === null || !this.store.validateText(key, body).ok) continue;
      docs.push({ name: spec.file, body });
    }
    const published = await this.docs.seed(docs, this.by);
    if (published.length > 0) this.logger.info('data files published', { files: published });
  }

  /** Installs every version not seen yet, then compares the local files with what is served. */
  async sync(): Promise<void> {
    const versions = await this.docs.versions();
    const newer = [...versions]
      .filter(([name, v]) => keyOf(name) && this.seen.get(name) !== v)
      .map(([name]) => name);
    if (newer.length > 0) {
      for (const doc of await this.docs.read(newer)) {
        this.seen.set(doc.name, doc.version);
        if (this.install(doc.name, doc.body, doc.version)) await this.cache(doc.name, doc.body);
      }
    }
    if (this.error !== null) this.logger.info('published data checked again');
    this.error = null;
    if (!this.synced) {
      this.synced = true;
      this.markSynced();
    }
    await this.compareLocal();
  }

  /**
   * Whether the fleet's published versions have been read from the database since this process
   * started: until then it serves its cache or its data directory's files, never evaluated for
   * alerts (docs/decisions.md 45).
   */
  installed(): boolean {
    return this.synced;
  }

  /** Resolves once `installed()` is true. */
  whenInstalled(): Promise<void> {
    return this.firstSync;
  }

  private install(name: string, body: string, version: number): boolean {
    const key = keyOf(name)!;
    if (!this.store.installText(key, body)) return false;
    this.served.set(name, { version, sha256: sha256(body) });
    return true;
  }

  private async cache(name: string, body: string): Promise<void> {
    try {
      await mkdir(this.cacheDir, { recursive: true });
      await writeFileDurably(path.join(this.cacheDir, name), body);
      await writeFileDurably(
        path.join(this.cacheDir, CACHE_INDEX),
        jsonFileText(Object.fromEntries(this.served)),
      );
    } catch (err) {
      this.logger.warn('published data not cached', { file: name, error: (err as Error).message });
    }
  }

  /** At a start without the database: the bodies last installed, as cached. */
  private async loadCache(): Promise<void> {
    const index = await readText(path.join(this.cacheDir, CACHE_INDEX)).catch(() => null);
    if (index === null) return;
    let entries: [string, Served][];
    try {
      entries = Object.entries(JSON.parse(index) as Record<string, Served>);
    } catch {
      return;
    }
    for (const [name, { version, sha256: hash }] of entries) {
      const body = keyOf(name) ? await readText(path.join(this.cacheDir, name)) : null;
      if (body === null || sha256(body) !== hash) continue;
      if (this.install(name, body, version))
        this.logger.info('cached published data served', { file: name, version });
    }
  }

  private async compareLocal(): Promise<void> {
    const differ: string[] = [];
    for (const [name, served] of this.served) {
      const file = path.join(this.store.dir, name);
      const s = await stat(file).catch(() => null);
      if (!s) continue;
      let known = this.local.get(name);
      if (!known || known.mtimeMs !== s.mtimeMs || known.size !== s.size) {
        const text = await readText(file);
        if (text === null) continue;
        known = { mtimeMs: s.mtimeMs, size: s.size, sha256: sha256(text) };
        this.local.set(name, known);
      }
      if (known.sha256 !== served.sha256) differ.push(name);
    }
    this.localDiffers = differ;
  }

  /**
   * Before an import: the import's files of this directory hold the published versions, so that
   * the import merges its rows into the fleet's data.
   */
  async prepareImport(): Promise<void> {
    await this.sync();
    const names = IMPORT_KEYS.map(fileOf).filter((n) => this.localDiffers.includes(n));
    for (const doc of await this.docs.read(names)) {
      if (doc.version !== this.served.get(doc.name)?.version) continue;
      await writeFileDurably(path.join(this.store.dir, doc.name), doc.body);
    }
    await this.compareLocal();
  }

  /**
   * After an import: publishes the import's files that it changed, all at once, on the versions
   * they were merged into (PublishConflictError, nothing published, when one moved meanwhile).
   */
  async publishImport(): Promise<string[]> {
    const changes: DocumentChange[] = [];
    for (const key of IMPORT_KEYS) {
      const name = fileOf(key);
      const body = await readText(path.join(this.store.dir, name));
      const served = this.served.get(name);
      if (body === null || sha256(body) === served?.sha256) continue;
      if (!this.store.validateText(key, body).ok) continue;
      changes.push({ name, body, basedOn: served?.version ?? 0 });
    }
    if (changes.length > 0) {
      await this.docs.publish(changes, this.by);
      this.logger.info('import published', { files: changes.map((c) => c.name) });
    }
    await this.sync();
    return changes.map((c) => c.name);
  }

  /**
   * Publishes `body` as the next version of `key`'s file, based on the version served (refused
   * with PublishConflictError when it moved, with the file's reason when invalid), then serves it.
   */
  async publishText(key: keyof DataFiles, body: string): Promise<number> {
    const checked = this.store.validateText(key, body);
    if (!checked.ok) throw new Error(checked.error);
    const name = fileOf(key);
    const basedOn = this.served.get(name)?.version ?? 0;
    const versions = await this.docs.publish([{ name, body, basedOn }], this.by);
    await this.sync();
    return versions.get(name)!;
  }

  /** The version served of a file, 0 when none was published. */
  versionOf(key: keyof DataFiles): number {
    return this.served.get(fileOf(key))?.version ?? 0;
  }

  health(): PublishedHealth {
    return {
      available: this.error === null,
      error: this.error,
      versions: Object.fromEntries([...this.served].map(([n, s]) => [n, s.version])),
      localDiffers: [...this.localDiffers],
    };
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.syncing;
  }
}

/**
 * The published data of a process with DATABASE_URL, started, over `db` (the user data's
 * connection in the server; the caller closes it).
 */
export async function openPublishedData(
  store: ApiStore,
  db: PgConnection,
  logger: Logger,
  pollMs: number,
): Promise<PublishedData> {
  const published = new PublishedData(store, new PgPublishedDocuments(db), logger);
  await published.start(pollMs);
  return published;
}

/**
 * An import with published data: into the published versions, then published. When one of its
 * files was published again meanwhile (another import, an operator's publish), it runs once more
 * on the newer versions; a second conflict is thrown (PublishConflictError, nothing published).
 */
export async function publishedImport<R>(
  published: PublishedData,
  run: () => Promise<R>,
): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    await published.prepareImport();
    const result = await run();
    try {
      await published.publishImport();
      return result;
    } catch (err) {
      if (!(err instanceof PublishConflictError) || attempt >= 2) throw err;
    }
  }
}
