/**
 * The release store the environment asks for: PostgreSQL with DATABASE_URL (every machine of a
 * fleet), else the data directory's registry file (one machine).
 */
import { FileReleaseStore } from './store-files.ts';
import type { ReleaseStore, StoreOptions } from './store-base.ts';

export async function openReleaseStore(
  options: StoreOptions & { databaseUrl?: string | undefined },
): Promise<ReleaseStore> {
  if (options.databaseUrl) {
    const { PgReleaseStore } = await import('./store-pg.ts');
    return new PgReleaseStore({ ...options, databaseUrl: options.databaseUrl });
  }
  return new FileReleaseStore(options);
}
