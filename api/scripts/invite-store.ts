/**
 * Where the invite commands (invite:create, invite:disable) work: PostgreSQL when DATABASE_URL is
 * set, else DATA_DIR/invites.json, edited the way an operator would (a running server owns the
 * journal of user data and replays it on top of the edited file).
 */
import path from 'node:path';
import { openStore } from '../src/composition/data-files.ts';
import { FileUserDataStore } from '../src/composition/file-user-data.ts';
import { PgUserDataStore } from '../src/composition/pg-user-data.ts';
import type { Config } from '../src/platform/config.ts';
import { silentLogger } from '../src/platform/logger.ts';
import type { PremiumStore } from '../src/modules/premium/store.ts';
import type { CliResult } from './cli.ts';

/** The store an invite command works on, as its output names it. */
export interface InvitePlace {
  /** The database, or the data directory. */
  name: string;
  /** Where the invites are kept: the database, or the invites.json file. */
  stored: string;
  /** The data directory when the invites are files, else null. */
  dataDir: string | null;
}

/** The invites of the data directory, opened for one edit. */
export async function openInviteFiles(dataDir: string): Promise<{
  store: ReturnType<typeof openStore>;
  userData: PremiumStore;
}> {
  const store = openStore(dataDir, silentLogger);
  const userData = await FileUserDataStore.open(store, { logger: silentLogger, owner: false });
  await store.loadAll();
  return { store, userData };
}

/**
 * Runs `work` on the configured store: PostgreSQL (closed afterwards) or the invites of the data
 * directory (`--data-dir`, else DATA_DIR). A data directory whose invites.json cannot be written
 * (a refused edit) is exit code 1 before anything changes.
 */
export async function withInviteStore<R extends CliResult>(
  config: Config,
  dataDirFlag: string | undefined,
  work: (userData: PremiumStore, place: InvitePlace) => Promise<R>,
): Promise<R | CliResult> {
  if (config.DATABASE_URL) {
    const db = new PgUserDataStore({ connectionString: config.DATABASE_URL, logger: silentLogger });
    const name = 'PostgreSQL (DATABASE_URL)';
    try {
      return await work(db, { name, stored: name, dataDir: null });
    } finally {
      await db.close();
    }
  }
  const dataDir = path.resolve(dataDirFlag ?? config.DATA_DIR);
  const { store, userData } = await openInviteFiles(dataDir);
  const status = store.status()['invites.json'];
  if (status?.error) return { exitCode: 1, output: `Cannot write invites: ${status.error}` };
  return work(userData, { name: dataDir, stored: path.join(dataDir, 'invites.json'), dataDir });
}
