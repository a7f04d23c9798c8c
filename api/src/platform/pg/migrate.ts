/**
 * Versioned SQL migrations: the numbered files in ./migrations (`001_user_data.sql`, ...) are
 * applied in order, each in its own transaction together with its row in `schema_migrations`, so
 * a migration is applied entirely or not at all. The whole run holds a PostgreSQL advisory lock:
 * processes starting together wait for each other instead of racing, and the later ones find
 * nothing left to do. Run at every start of the API and by `pnpm --filter @yield/api db:migrate`.
 *
 * A hand-written runner of some forty lines rather than a library: plain .sql files are what an
 * operator reads and what `psql -f` runs, and the two libraries in the registry either write
 * migrations in JavaScript with their own CLI and configuration (node-pg-migrate) or are no longer
 * maintained (postgres-migrations).
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Pool } from 'pg';
import type { Logger } from '../logger.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/** Advisory lock key of the migration run (two int4: the product's namespace, then 1). */
export const LOCK_NAMESPACE = 0x70696769;
const MIGRATION_LOCK = [LOCK_NAMESPACE, 1];

/** The migration files, oldest first, as [version, file name]. */
export async function migrationFiles(): Promise<[string, string][]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f));
  return files.sort().map((f) => [f.slice(0, -'.sql'.length), f]);
}

/** Applies every migration not applied yet; returns the versions it applied. */
export async function migrate(pool: Pool, logger: Logger): Promise<string[]> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', MIGRATION_LOCK);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const done = new Set(
        (await client.query<{ version: string }>('SELECT version FROM schema_migrations')).rows.map(
          (r) => r.version,
        ),
      );
      const applied: string[] = [];
      for (const [version, file] of await migrationFiles()) {
        if (done.has(version)) continue;
        const sql = await readFile(`${MIGRATIONS_DIR}${file}`, 'utf8');
        await client.query('BEGIN');
        try {
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw new Error(`migration ${file} failed: ${(err as Error).message}`, { cause: err });
        }
        applied.push(version);
        logger.info('database migration applied', { version });
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', MIGRATION_LOCK).catch(() => {
        broken = true;
      });
    }
  } catch (err) {
    broken = true;
    throw err;
  } finally {
    // A connection in an unknown state (lost, or still holding the lock) is closed, not reused.
    client.release(broken);
  }
}
