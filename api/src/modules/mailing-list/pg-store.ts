/**
 * The mailing list in PostgreSQL: the table `mailing_list`, one row per address in any letter case
 * (a unique index on lower(email)); a sign-up request and its confirmation e-mail are one
 * transaction (confirmations.ts).
 */
import type { ConfirmationDecision } from '../confirmations/index.ts';
import { MAILING_LIST_SCOPE } from '../confirmations/index.ts';
import type { MailingListEntry, MailingListStore, NewSubscriber } from './store.ts';
import { claimConfirmation, lockAddress } from '../confirmations/index.ts';
import type { PgConnection } from '../../platform/pg/connection.ts';
import { LIST_COLUMNS, toListEntry, type ListRow } from './pg-rows.ts';

export class PgMailingList implements MailingListStore {
  constructor(private readonly db: PgConnection) {}

  async addSubscriber(entry: NewSubscriber): Promise<{ created: boolean }> {
    const r = await this.db.query(
      `INSERT INTO mailing_list (email, source, created_at, confirmed_at) VALUES ($1, $2, $3, $3)
       ON CONFLICT ((lower(email))) DO NOTHING`,
      [entry.email, entry.source, entry.createdAt],
    );
    return { created: r.rowCount === 1 };
  }

  async requestMailingListConfirmation(
    entry: MailingListEntry,
    now: Date,
  ): Promise<ConfirmationDecision<MailingListEntry>> {
    return this.db.transaction(async (c) => {
      await lockAddress(c, entry.email.toLowerCase());
      const r = await c.query<ListRow>(
        `INSERT INTO mailing_list (id, email, source, created_at, confirmed_at)
         VALUES ($1, $2, $3, $4, NULL)
         ON CONFLICT ((lower(email))) DO UPDATE SET email = mailing_list.email
         RETURNING ${LIST_COLUMNS}`,
        [entry.id, entry.email, entry.source, entry.createdAt],
      );
      const row = r.rows[0]!;
      const mail = await claimConfirmation(c, {
        email: entry.email.toLowerCase(),
        scope: MAILING_LIST_SCOPE,
        wanted: row.confirmed_at === null,
        now,
        table: 'mailing_list',
        id: row.id,
      });
      return { record: toListEntry(row), mail };
    });
  }

  async confirmMailingListEntry(input: {
    id: string;
    now: Date;
  }): Promise<MailingListEntry | null> {
    const r = await this.db.query<ListRow>(
      `UPDATE mailing_list SET confirmed_at = COALESCE(confirmed_at, $2) WHERE id = $1
       RETURNING ${LIST_COLUMNS}`,
      [input.id, input.now],
    );
    return r.rows[0] ? toListEntry(r.rows[0]) : null;
  }

  async removeMailingListEntry(id: string): Promise<boolean> {
    const r = await this.db.query('DELETE FROM mailing_list WHERE id = $1', [id]);
    return r.rowCount === 1;
  }
}
