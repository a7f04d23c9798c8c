/**
 * The lock of scheduled jobs in PostgreSQL: a session-level advisory lock, shared by every
 * process on the database.
 */
import type { JobLocks } from './port.ts';
import type { PgConnection } from '../pg/connection.ts';
import { LOCK_NAMESPACE } from '../pg/migrate.ts';

/** Advisory locks of withExclusiveLock: (this namespace, hashtext(name)). */
const JOB_LOCK_NAMESPACE = LOCK_NAMESPACE + 1;

export class PgJobLocks implements JobLocks {
  constructor(private readonly db: PgConnection) {}

  /**
   * A session-level advisory lock on a connection of its own, held while `fn` runs. If that
   * connection is lost meanwhile the database releases the lock, so a crashed holder never
   * blocks the job for good.
   */
  async withExclusiveLock(name: string, fn: () => Promise<void>): Promise<boolean> {
    return this.db.withConnection(async (client, discard) => {
      let locked: boolean;
      try {
        const r = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
          [JOB_LOCK_NAMESPACE, name],
        );
        locked = r.rows[0]!.locked;
      } catch (err) {
        discard();
        throw this.db.translate(err);
      }
      if (!locked) return false;
      try {
        await fn();
      } finally {
        await client
          .query('SELECT pg_advisory_unlock($1, hashtext($2))', [JOB_LOCK_NAMESPACE, name])
          .catch(discard);
      }
      return true;
    });
  }
}
