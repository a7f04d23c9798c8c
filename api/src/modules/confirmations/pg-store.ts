/**
 * The caps on confirmation e-mails in PostgreSQL: the table `confirmation_mails`, decided inside
 * the transaction of the request that asks for one, under a transaction-level advisory lock of the
 * address (alerts and the mailing list share the caps; premium sign-in links have their own scope
 * in the same table).
 */
import type { PoolClient } from 'pg';
import { CONFIRMATION_WINDOW_MS, confirmationAllowed } from './port.ts';
import { LOCK_NAMESPACE } from '../../platform/pg/migrate.ts';
import { iso } from '../../platform/pg/rows.ts';

/** Transaction-level advisory locks of one address while its caps are decided. */
const CONFIRM_LOCK_NAMESPACE = LOCK_NAMESPACE + 2;

/** Takes the lock of `email` (lower-cased) until the end of the transaction of `c`. */
export async function lockAddress(c: PoolClient, email: string): Promise<void> {
  await c.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [CONFIRM_LOCK_NAMESPACE, email]);
}

/**
 * Counts a confirmation e-mail to `email` (lower-cased) for `scope` if it is `wanted` and the
 * caps allow it, and stamps the row `id` of `table` (when given) with it, inside a transaction
 * holding the address's advisory lock. The same two statements run whatever the outcome, so every
 * request costs alike.
 */
export async function claimConfirmation(
  c: PoolClient,
  input: {
    email: string;
    scope: string;
    wanted: boolean;
    now: Date;
    table?: 'alert_subscriptions' | 'mailing_list';
    id?: string | null;
  },
): Promise<boolean> {
  const { email, scope, now } = input;
  const recent = await c.query<{ scope: string; sent_at: Date }>(
    'SELECT scope, sent_at FROM confirmation_mails WHERE email = $1 AND sent_at > $2',
    [email, new Date(now.getTime() - CONFIRMATION_WINDOW_MS)],
  );
  const mails = recent.rows.map((r) => ({ email, scope: r.scope, sentAt: iso(r.sent_at)! }));
  const mail = input.wanted && confirmationAllowed(mails, scope, now);
  if (!input.table) {
    await c.query(
      `INSERT INTO confirmation_mails (email, scope, sent_at)
       SELECT $1, $2, $3::timestamptz WHERE $4::boolean`,
      [email, scope, now, mail],
    );
    return mail;
  }
  await c.query(
    `WITH counted AS (
       INSERT INTO confirmation_mails (email, scope, sent_at)
       SELECT $1, $2, $3::timestamptz WHERE $4::boolean RETURNING 1)
     UPDATE ${input.table} SET mailed_at = $3 WHERE id = $5 AND EXISTS (SELECT 1 FROM counted)`,
    [email, scope, now, mail, input.id ?? null],
  );
  return mail;
}
