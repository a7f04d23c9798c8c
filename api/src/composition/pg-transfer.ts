/**
 * Moving the user data, the pool histories and the backfill's tries between the files of the data
 * directory and PostgreSQL (db:import-files, db:export-files).
 */
import type { AlertsFile } from '../modules/alerts/schemas.ts';
import type { InvitesFile, UsersFile } from '../modules/premium/schemas.ts';
import type { MailingListFile } from '../modules/mailing-list/schemas.ts';
import type { PgConnection } from '../platform/pg/connection.ts';
import {
  DELIVERY_COLUMNS,
  SUBSCRIPTION_COLUMNS,
  toDelivery,
  toSubscription,
  type DeliveryRow,
  type SubscriptionRow,
} from '../modules/alerts/pg-rows.ts';
import {
  INVITE_COLUMNS,
  toInvite,
  toUser,
  USER_COLUMNS,
  type InviteRow,
  type UserRow,
} from '../modules/premium/pg-rows.ts';
import { iso } from '../platform/pg/rows.ts';
import { LIST_COLUMNS, type ListRow } from '../modules/mailing-list/pg-rows.ts';
import { PoolHistoryStore } from '../modules/import/pool-history.ts';
import { PgPoolHistoryStore } from '../modules/import/pg-pool-history.ts';
import { FileBackfillTries } from '../modules/import/backfill-tries.ts';
import { PgBackfillTries } from '../modules/import/pg-backfill.ts';

/** The user data in the shape of the file store's JSON files (db:import-files, db:export-files). */
export interface UserDataFiles {
  mailingList: MailingListFile;
  invites: InvitesFile;
  users: UsersFile;
  alerts: AlertsFile;
}

export class PgTransfer {
  constructor(private readonly db: PgConnection) {}

  /**
   * Copies the content of the JSON files in (db:import-files), in one transaction: rows already
   * there are kept as they are, an invite's use count is raised to the file's, a delivery of the
   * ledger sent in the file is marked sent, so a rerun adds nothing. An alert subscription whose
   * id or (address in any case, source, kind) is in the database already is kept as it is there.
   * Returns how many rows were added per table.
   */
  async importFiles(files: UserDataFiles): Promise<{
    subscribers: number;
    invites: number;
    users: number;
    alertSubscriptions: number;
    alertDeliveries: number;
  }> {
    return this.db.transaction(async (c) => {
      const entries = files.mailingList.entries;
      let subscribers = 0;
      for (let i = 0; i < entries.length; i += 5000) {
        const slice = entries.slice(i, i + 5000);
        // An entry without confirmedAt (written before confirmations existed) counts as confirmed.
        const r = await c.query(
          `INSERT INTO mailing_list (email, source, created_at, id, confirmed_at, mailed_at)
           SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[],
                                $5::timestamptz[], $6::timestamptz[])
           ON CONFLICT DO NOTHING`,
          [
            slice.map((e) => e.email),
            slice.map((e) => e.source),
            slice.map((e) => e.createdAt),
            slice.map((e) => e.id ?? null),
            slice.map((e) => (e.confirmedAt === undefined ? e.createdAt : e.confirmedAt)),
            slice.map((e) => e.mailedAt ?? null),
          ],
        );
        subscribers += r.rowCount ?? 0;
      }
      let invites = 0;
      for (const inv of files.invites.invites) {
        const r = await c.query(
          `INSERT INTO invites (id, salt, hash, created_at, expires_at, max_uses, uses, note, disabled)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           ON CONFLICT (id) DO UPDATE SET uses = GREATEST(invites.uses, EXCLUDED.uses)
           RETURNING (xmax = 0) AS inserted`,
          [
            inv.id,
            inv.salt,
            inv.hash,
            inv.createdAt,
            inv.expiresAt,
            inv.maxUses,
            inv.uses,
            inv.note ?? null,
            inv.disabled ?? false,
          ],
        );
        if ((r.rows[0] as { inserted: boolean }).inserted) invites++;
      }
      let users = 0;
      for (const u of files.users.users) {
        const r = await c.query(
          `INSERT INTO premium_users (user_id, invite_id, email, created_at, last_login_at)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO NOTHING`,
          [u.userId, u.inviteId, u.email, u.createdAt, u.lastLoginAt],
        );
        users += r.rowCount ?? 0;
      }
      // Used sign-in links stay used (each works once), until they expire.
      for (const l of files.users.signInLinks ?? [])
        await c.query(
          `INSERT INTO premium_sign_in_links (id, user_id, expires_at, used_at)
           VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING`,
          [l.id, l.userId, l.expiresAt, l.usedAt],
        );
      let alertSubscriptions = 0;
      for (const a of files.alerts.subscriptions) {
        const r = await c.query(
          `INSERT INTO alert_subscriptions
             (id, email, source_id, kind, created_at, confirmed_at, mailed_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
          [a.id, a.email, a.sourceId, a.kind, a.createdAt, a.confirmedAt, a.mailedAt ?? null],
        );
        alertSubscriptions += r.rowCount ?? 0;
      }
      let alertDeliveries = 0;
      for (const d of files.alerts.deliveries) {
        const r = await c.query(
          `INSERT INTO alert_deliveries (subscription_id, crossing, recorded_at, sent_at)
           VALUES ($1, $2, $3, $4) ON CONFLICT (subscription_id, crossing)
           DO UPDATE SET sent_at = COALESCE(alert_deliveries.sent_at, EXCLUDED.sent_at)
           RETURNING (xmax = 0) AS inserted`,
          [d.subscriptionId, d.crossing, d.recordedAt, d.sentAt],
        );
        if ((r.rows[0] as { inserted: boolean }).inserted) alertDeliveries++;
      }
      // The caps' record: each e-mail once, however often the import runs.
      for (const m of files.alerts.confirmations ?? [])
        await c.query(
          `INSERT INTO confirmation_mails (email, scope, sent_at)
           SELECT $1, $2, $3::timestamptz WHERE NOT EXISTS (
             SELECT 1 FROM confirmation_mails WHERE email = $1 AND scope = $2 AND sent_at = $3)`,
          [m.email, m.scope, m.sentAt],
        );
      return { subscribers, invites, users, alertSubscriptions, alertDeliveries };
    });
  }

  /** Everything in the shape of the JSON files (db:export-files), in the order it was written. */
  async exportFiles(): Promise<UserDataFiles> {
    return this.db.transaction(async (c) => {
      const subscribers = await c.query<ListRow & { mailed_at: Date | null }>(
        `SELECT ${LIST_COLUMNS}, mailed_at FROM mailing_list ORDER BY seq`,
      );
      const confirmations = await c.query<{ email: string; scope: string; sent_at: Date }>(
        'SELECT email, scope, sent_at FROM confirmation_mails ORDER BY sent_at',
      );
      const invites = await c.query<InviteRow>(
        `SELECT ${INVITE_COLUMNS} FROM invites ORDER BY seq`,
      );
      const users = await c.query<UserRow>(
        `SELECT ${USER_COLUMNS} FROM premium_users ORDER BY seq`,
      );
      const links = await c.query<{
        id: string;
        user_id: string;
        expires_at: Date;
        used_at: Date;
      }>('SELECT id, user_id, expires_at, used_at FROM premium_sign_in_links ORDER BY used_at, id');
      const subscriptions = await c.query<SubscriptionRow & { mailed_at: Date | null }>(
        `SELECT ${SUBSCRIPTION_COLUMNS}, mailed_at FROM alert_subscriptions ORDER BY seq`,
      );
      const deliveries = await c.query<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM alert_deliveries
         ORDER BY recorded_at, subscription_id, crossing`,
      );
      return {
        mailingList: {
          entries: subscribers.rows.map((r) => ({
            email: r.email,
            createdAt: r.created_at.toISOString(),
            source: r.source,
            // A row without id was added confirmed (before confirmations existed, or by an
            // operator's import): without the field, as in the file it came from.
            ...(r.id !== null ? { id: r.id, confirmedAt: iso(r.confirmed_at) } : {}),
            ...(r.mailed_at !== null ? { mailedAt: r.mailed_at.toISOString() } : {}),
          })),
        },
        invites: { invites: invites.rows.map(toInvite) },
        users: {
          users: users.rows.map(toUser),
          ...(links.rows.length > 0
            ? {
                signInLinks: links.rows.map((r) => ({
                  id: r.id,
                  userId: r.user_id,
                  expiresAt: r.expires_at.toISOString(),
                  usedAt: r.used_at.toISOString(),
                })),
              }
            : {}),
        },
        alerts: {
          subscriptions: subscriptions.rows.map((r) => ({
            ...toSubscription(r),
            ...(r.mailed_at !== null ? { mailedAt: r.mailed_at.toISOString() } : {}),
          })),
          deliveries: deliveries.rows.map(toDelivery),
          ...(confirmations.rows.length > 0
            ? {
                confirmations: confirmations.rows.map((r) => ({
                  email: r.email,
                  scope: r.scope,
                  sentAt: r.sent_at.toISOString(),
                })),
              }
            : {}),
        },
      };
    });
  }
}

/** How many pool histories, days and backfill tries a transfer moved. */
export interface PoolHistoriesMoved {
  pools: number;
  days: number;
  tries: number;
}

/** Pools whose files are read at once, and rows sent per transaction, by the transfers. */
const TRANSFER_POOLS = 500;

/**
 * Copies the pool histories of DATA_DIR/pool-history and the backfill's tries into the tables
 * (db:import-files): days the table holds keep their row, the newest try of a pool wins, so a
 * rerun adds nothing. `days` counts the days added.
 */
export async function importPoolHistories(
  db: PgConnection,
  dataDir: string,
): Promise<PoolHistoriesMoved> {
  const files = new PoolHistoryStore(dataDir);
  const table = new PgPoolHistoryStore(db);
  const pools = await files.pools();
  let days = 0;
  for (let i = 0; i < pools.length; i += TRANSFER_POOLS) {
    const slice = pools.slice(i, i + TRANSFER_POOLS);
    const rows = await Promise.all(
      slice.map(async (pool) => (await files.read(pool)).map((day) => ({ pool, day }))),
    );
    days += await table.addMissing(rows.flat());
  }
  const tries = await new FileBackfillTries(files.dir).entries();
  await new PgBackfillTries(db).addAll(tries);
  return { pools: pools.length, days, tries: tries.length };
}

/**
 * Writes the tables' pool histories and backfill tries to DATA_DIR/pool-history
 * (db:export-files): each pool's file is replaced whole with its rows, the tries file too.
 */
export async function exportPoolHistories(
  db: PgConnection,
  dataDir: string,
): Promise<PoolHistoriesMoved> {
  const files = new PoolHistoryStore(dataDir);
  const table = new PgPoolHistoryStore(db);
  const pools = await table.pools();
  let days = 0;
  for (let i = 0; i < pools.length; i += TRANSFER_POOLS) {
    const slice = pools.slice(i, i + TRANSFER_POOLS);
    const read = await table.trailingOfAll(slice, Number.MAX_SAFE_INTEGER);
    for (const pool of slice) {
      const rows = read.get(pool) ?? [];
      await files.replace(pool, rows);
      days += rows.length;
    }
  }
  const tries = await new PgBackfillTries(db).entries();
  await new FileBackfillTries(files.dir).replaceAll(tries);
  return { pools: pools.length, days, tries: tries.length };
}
