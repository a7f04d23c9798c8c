/**
 * The embedded user-data store: `mailing-list.json`, `invites.json`, `users.json` and `alerts.json`
 * (alert subscriptions, the ledger of their deliveries and the confirmation e-mails counted by the
 * caps) stay the JSON files operators read and edit, and every change is first an append to one
 * journal, `user-data.log` (JSON lines, fdatasync'd with group commit). A sign-up therefore costs
 * one line and a share of one fdatasync whatever the size of the list, instead of a rewrite of the
 * whole file.
 *
 * Built from one module per aggregate, each holding its file(s), its journal record types and its
 * reducer(s), registered with the journal engine (platform/files/journal-engine.ts), which knows no
 * aggregate and does the rest: replay onto the files at every (re)load, group commit, compaction
 * with crash markers, the data directory's lock, owner-only modes, the write-failure health:
 *
 * - modules/mailing-list/file-store.ts: `mailing-list.json`;
 * - modules/premium/file-store.ts: `invites.json` and `users.json` (a redemption is one line both
 *   apply; used sign-in links are kept in `users.json`, their e-mails counted in `alerts.json`);
 * - modules/alerts/file-store.ts: `alerts.json` (a sign-up request's confirmation e-mail is counted there too);
 * - platform/job-locks/in-process.ts: the lock of scheduled jobs (one process owns the files: in memory).
 *
 * The store builds these parts; `UserDataFacade` (user-data-facade.ts) forwards every method of
 * the user-data ports to them, and the store adds only what is the journal's own (compaction, its
 * state for /metrics, abandon).
 *
 * Operators: a hand edit of one of the files is picked up like any data file (poller, or the next
 * write) and the journal is replayed on top of it: the edit is kept and no acknowledged change is
 * lost (changes the edit could not show yet are added to it; one whose user or invite the edit
 * removed is dropped). A broken edit is refused as for every data file: the last good data is
 * kept, health shows the error, writes that need that file answer 503, and compaction leaves the
 * file alone.
 *
 * One process owns the journal (the server), and holds the data directory's lock for that
 * (platform/files/dir-lock.ts): a second server on the same directory stops at start with a message naming the
 * directory and the holder. Operator commands open the store without it (`owner: false`): they
 * edit the JSON files the way an operator would (invite:create), or read the journal without
 * writing it (`replay: true`, db:import-files), so they work while the server runs.
 */
import type { JournalState, Metrics } from '../platform/metrics.ts';
import type { Logger } from '../platform/logger.ts';
import type { ApiStore, DataFiles } from './data-files.ts';
import { FileAlerts } from '../modules/alerts/file-store.ts';
import { InProcessJobLocks } from '../platform/job-locks/in-process.ts';
import { FileMailingList } from '../modules/mailing-list/file-store.ts';
import { FilePremium } from '../modules/premium/file-store.ts';
import { JournalEngine, type CompactionOptions } from '../platform/files/journal-engine.ts';
import { UserDataFacade, type UserDataParts } from './user-data-facade.ts';

export { DEFAULT_COMPACTION, type CompactionOptions } from '../platform/files/journal-engine.ts';

export const JOURNAL_NAME = 'user-data';

export interface FileUserDataOptions {
  logger: Logger;
  /**
   * The server owns the journal (and takes the data directory's lock); operator commands do not
   * (they edit the JSON files).
   */
  owner: boolean;
  /**
   * Without `owner`: replay the journal onto the files when they load, as the owner does, but
   * never write it (reading the user data while the server runs: db:import-files).
   */
  replay?: boolean;
  compaction?: Partial<CompactionOptions>;
  /** Counts failed writes (yield_journal_write_failures_total). */
  metrics?: Pick<Metrics, 'journalWriteFailure'>;
}

type UserDataJournal = JournalEngine<DataFiles>;

/** The aggregates over one journal; registration order is the order in which a change touching several files is applied. */
function fileParts(engine: UserDataJournal, store: ApiStore): UserDataParts {
  const confirmationsOf = (email: string) => alerts.confirmationsOf(email);
  const mailingList = new FileMailingList(engine, store, confirmationsOf);
  const premium = new FilePremium(engine, store, confirmationsOf);
  const alerts = new FileAlerts(engine, store);
  return {
    mailingList,
    premium,
    alerts,
    purgeUnconfirmed: (now) => alerts.purgeUnconfirmed(now, (t) => mailingList.expiredCount(t)),
    locks: new InProcessJobLocks(),
    lifecycle: {
      /** Public (GET /api/health): which file and why in words, never a path or content. */
      health: () => {
        const error = engine.healthError();
        return Promise.resolve({ store: 'files', available: error === null, error });
      },
      close: () => engine.close(),
    },
  };
}

export class FileUserDataStore extends UserDataFacade {
  /**
   * Opens the store on an ApiStore whose files are not loaded yet (call `store.loadAll()` next).
   * The owner reads the journal and attaches to the files, so loading them replays it.
   */
  static async open(store: ApiStore, options: FileUserDataOptions): Promise<FileUserDataStore> {
    const engine: UserDataJournal = new JournalEngine(store, {
      name: JOURNAL_NAME,
      label: 'user data',
      logger: options.logger,
      compaction: options.compaction,
      onWriteFailure: options.metrics && (() => options.metrics!.journalWriteFailure()),
    });
    const s = new FileUserDataStore(engine, fileParts(engine, store));
    await engine.open({ owner: options.owner, replay: options.replay });
    return s;
  }

  /** `engine`: the journal engine the aggregates register with. */
  private constructor(
    private readonly engine: UserDataJournal,
    parts: UserDataParts,
  ) {
    super(parts);
  }

  /** The journal for /metrics: changes not yet folded, and when the last fold finished. */
  journalState(): JournalState {
    return this.engine.state();
  }

  /** Starts background compaction (the server; tests and commands compact explicitly). */
  start(): void {
    this.engine.start();
  }

  /**
   * Folds the journal into the JSON files now; resolves when every change recorded before the call
   * is in them (or, when a file cannot be written, it stays in the journal for a later round).
   */
  compact(): Promise<void> {
    return this.engine.compact();
  }

  /**
   * Lets go of the data directory the way a killed process does: nothing more is written or
   * folded (the journal stays as it is), and the lock is released (a restart would take over a
   * dead holder's lock). Tests restart in one process with it; the server uses close().
   */
  abandon(): Promise<void> {
    return this.engine.abandon();
  }
}
