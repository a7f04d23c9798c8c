/**
 * The release store of a fleet (DATABASE_URL): the registry is one row of PostgreSQL (migration
 * 008_remote_releases.sql) changed in one transaction under its row lock, a release's files one
 * row each. Every process polls the registry's version once a second; when it changed it writes
 * the releases it lacks to its own `<DATA_DIR>/releases/` first, then serves the new registry, so
 * the machines switch together within about two seconds, whichever one the command ran on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import pg from 'pg';
import { migrate, silentLogger } from '@yield/api';
import { remoteNames, type RemoteName } from '@yield/federation/registry';
import { releaseDir, writeReleaseFiles, type ReleaseFiles } from './release-files.ts';
import { emptyRegistry, type StoredRegistry } from './registry.ts';
import { ReleaseStore, type StoreOptions } from './store-base.ts';
import { RELEASE_ID, type ReleasesState } from './types.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export interface PgStoreOptions extends StoreOptions {
  databaseUrl: string;
  /** How often the registry's version is read (ms). */
  pollMs?: number;
}

async function packFiles(files: ReleaseFiles): Promise<Buffer> {
  const object = Object.fromEntries(
    [...files].map(([file, data]) => [file, data.toString('base64')]),
  );
  return gzipAsync(Buffer.from(JSON.stringify(object)));
}

async function unpackFiles(packed: Buffer): Promise<ReleaseFiles> {
  const object = JSON.parse((await gunzipAsync(packed)).toString('utf8')) as Record<string, string>;
  return new Map(Object.entries(object).map(([file, data]) => [file, Buffer.from(data, 'base64')]));
}

export class PgReleaseStore extends ReleaseStore {
  private readonly pool: pg.Pool;
  private version: string | null = null;
  private refreshing: Promise<void> = Promise.resolve();
  private pollTimer: NodeJS.Timeout | null = null;

  constructor(private readonly pgOptions: PgStoreOptions) {
    super(pgOptions);
    this.pool = new pg.Pool({ connectionString: pgOptions.databaseUrl, max: 3 });
    this.pool.on('error', (error) =>
      this.log(`releases: database connection lost: ${error.message}`),
    );
  }

  snapshot(): ReleasesState {
    return this.state;
  }

  override async start(): Promise<void> {
    await migrate(this.pool, silentLogger);
    await this.refresh();
    await super.start();
    this.pollTimer = setInterval(() => {
      this.refresh().catch((error: Error) =>
        this.log(`releases: registry not read: ${error.message}`),
      );
    }, this.pgOptions.pollMs ?? 1000);
    this.pollTimer.unref();
  }

  /** Reads the registry when its version changed; its releases' files are on disk before it is served. */
  refresh(): Promise<void> {
    this.refreshing = this.refreshing.catch(() => undefined).then(() => this.readRegistry());
    return this.refreshing;
  }

  private async readRegistry(): Promise<void> {
    const { rows } = await this.pool.query<{ version: string; registry: StoredRegistry }>(
      'SELECT version::text AS version, registry FROM remote_release_registry',
    );
    const row = rows[0];
    if (!row || row.version === this.version) return;
    for (const remote of remoteNames) {
      for (const record of row.registry.remotes[remote]?.releases ?? []) {
        if (!this.localDir(remote, record.id)) await this.fetchFiles(remote, record.id);
      }
    }
    this.setState(row.registry);
    this.version = row.version;
    await this.removeUnkept(row.registry);
  }

  /** Deletes this machine's copies of releases another machine dropped. */
  private async removeUnkept(registry: StoredRegistry): Promise<void> {
    for (const remote of remoteNames) {
      const kept = new Set((registry.remotes[remote]?.releases ?? []).map((r) => r.id));
      const dir = path.dirname(releaseDir(this.options.dataDir, remote, 'x'));
      const present = await fs.promises.readdir(dir).catch(() => [] as string[]);
      for (const id of present.filter((name) => RELEASE_ID.test(name) && !kept.has(name))) {
        await fs.promises.rm(path.join(dir, id), { recursive: true, force: true });
      }
    }
  }

  private async fetchFiles(remote: RemoteName, id: string): Promise<void> {
    const { rows } = await this.pool.query<{ files: Buffer }>(
      'SELECT files FROM remote_release_files WHERE remote = $1 AND id = $2',
      [remote, id],
    );
    if (!rows[0]) throw new Error(`the files of release ${id} of ${remote} are missing`);
    await writeReleaseFiles(
      releaseDir(this.options.dataDir, remote, id),
      await unpackFiles(rows[0].files),
    );
  }

  async transact<T>(change: (registry: StoredRegistry) => T): Promise<T> {
    const client = await this.pool.connect();
    let result: T;
    try {
      await client.query('BEGIN');
      await client.query(
        'INSERT INTO remote_release_registry (version, registry) VALUES (0, $1) ON CONFLICT DO NOTHING',
        [emptyRegistry()],
      );
      const { rows } = await client.query<{ registry: StoredRegistry }>(
        'SELECT registry FROM remote_release_registry FOR UPDATE',
      );
      result = change(rows[0]!.registry);
      await client.query(
        'UPDATE remote_release_registry SET registry = $1, version = version + 1',
        [rows[0]!.registry],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    await this.refresh();
    return result;
  }

  async putFiles(remote: RemoteName, id: string, files: ReleaseFiles): Promise<void> {
    await this.pool.query(
      'INSERT INTO remote_release_files (remote, id, files) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [remote, id, await packFiles(files)],
    );
    await writeReleaseFiles(releaseDir(this.options.dataDir, remote, id), files);
  }

  async dropFiles(remote: RemoteName, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.pool.query('DELETE FROM remote_release_files WHERE remote = $1 AND id = ANY($2)', [
      remote,
      ids,
    ]);
    for (const id of ids) {
      await fs.promises.rm(releaseDir(this.options.dataDir, remote, id), {
        recursive: true,
        force: true,
      });
    }
  }

  async close(): Promise<void> {
    if (this.pollTimer) clearInterval(this.pollTimer);
    await this.stopFlushing();
    await this.refreshing.catch(() => undefined);
    await this.pool.end();
  }
}
