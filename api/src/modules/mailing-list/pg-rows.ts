/** Rows of the mailing-list table and their records. */
import type { MailingListEntry } from './store.ts';
import { iso } from '../../platform/pg/rows.ts';

export type ListRow = {
  id: string | null;
  email: string;
  source: string;
  created_at: Date;
  confirmed_at: Date | null;
};

export const LIST_COLUMNS = 'id, email, source, created_at, confirmed_at';

export function toListEntry(r: ListRow): MailingListEntry {
  return {
    id: r.id ?? '',
    email: r.email,
    source: r.source,
    createdAt: r.created_at.toISOString(),
    confirmedAt: iso(r.confirmed_at),
  };
}
