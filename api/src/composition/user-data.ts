/**
 * The storage interface of the mutable user data, split by aggregate into ports, each beside the
 * code that uses it:
 *
 * - `MailingListStore` (modules/mailing-list/store.ts): the mailing list and its double opt-in;
 * - `PremiumStore` (modules/premium/store.ts): invite codes, their uses and the premium users;
 * - `AlertStore` (modules/alerts/store.ts): alert subscriptions, the ledger of sent alerts, and the caps
 *   on confirmation e-mails (modules/confirmations/port.ts) that alerts and the mailing list share;
 * - `JobLocks` (platform/job-locks/port.ts): the lock of scheduled jobs;
 * - `StoreHealth` (platform/store-health.ts): health and close.
 *
 * `UserDataStore` is their intersection: what `deps.userData` is. A caller that needs one
 * aggregate may take only its port. Routes and operator commands call it; they never
 * read-modify-write a file.
 *
 * The embedded default is `FileUserDataStore` (JSON files an operator can read and edit, plus a
 * journal). The interface is shaped so that a database can implement it with several processes
 * writing at once, so each method takes the whole decision inside the store:
 *
 * - `addSubscriber` decides "already on the list" itself (a database: a unique index on the
 *   lower-cased address, not a read-then-write);
 * - `redeemInvite` / `loginWithInvite` check expiry and use limit and spend the use in one step
 *   (a database: one conditional UPDATE in the transaction that creates the user), so a one-use
 *   code redeemed twice at once succeeds once;
 * - every method resolves only once its change is durable, and returns copies, never live state.
 *
 * Failures to read or write the data (a file broken by hand, a failed write) are DataFileError;
 * a database that cannot be reached is UserDataUnavailableError. The routes answer both with 503.
 * Alert subscriptions with their ledger of sent alerts and the lock of scheduled jobs follow the
 * same rules (the store decides, the caller never reads-then-writes).
 *
 * Two implementations, each split the same way (one module per aggregate, its `file-store.ts` and
 * `pg-store.ts`): `FileUserDataStore` (file-user-data.ts, over platform/files/, the default) and
 * `PgUserDataStore` (pg-user-data.ts, over platform/pg/, chosen when DATABASE_URL is set), which
 * any number of processes on any number of machines share. Both are `UserDataFacade`
 * (user-data-facade.ts), the one layer that forwards each port method to an adapter's module
 * stores: a new store method is written in its port, once per adapter, and forwarded there.
 */
import type { AlertStore } from '../modules/alerts/store.ts';
import type { JobLocks } from '../platform/job-locks/port.ts';
import type { MailingListStore } from '../modules/mailing-list/store.ts';
import type { PremiumStore } from '../modules/premium/store.ts';
import type { StoreHealth } from '../platform/store-health.ts';

export * from '../modules/alerts/store.ts';
export * from '../modules/confirmations/port.ts';
export * from '../platform/job-locks/port.ts';
export * from '../modules/mailing-list/store.ts';
export * from '../modules/premium/store.ts';
export * from '../platform/store-health.ts';

export interface UserDataStore
  extends MailingListStore, PremiumStore, AlertStore, JobLocks, StoreHealth {}
