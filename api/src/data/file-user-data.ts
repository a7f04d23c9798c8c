/**
 * The embedded user-data store: `mailing-list.json`, `invites.json`, `users.json` and `alerts.json`
 * (alert subscriptions and the ledger of their deliveries) stay the JSON files operators read and edit, and every change is first an append to one journal,
 * `user-data.log` (JSON lines, fdatasync'd with group commit). A sign-up therefore costs one line
 * and a share of one fdatasync whatever the size of the list, instead of a rewrite of the whole
 * file; "already on the list" is answered from an index of lower-cased addresses in memory.
 *
 * What is served = the JSON files + the journal replayed on top of them. The journal is folded
 * into the JSON files in the background ("compaction"): one second after the last change, at the
 * latest 30 seconds after the first unfolded one, but on big files no more often than one fold per
 * second per MiB of JSON (so sparse sign-ups do not rewrite a big list each time); at once when
 * the journal holds half the size of the files; and on close. Compaction seals the journal (later changes go to a fresh one), writes
 * the files from a copy of the data taken at that moment (serialised in slices, so requests keep
 * being answered), then removes the sealed segment.
 *
 * Operators: a hand edit of one of the files is picked up like any data file (poller, or the next
 * write) and the journal is replayed on top of it: the edit is kept and no acknowledged change is
 * lost (changes the edit could not show yet are added to it; one whose user or invite the edit
 * removed is dropped). A broken edit is refused as for every data file: the last good data is
 * kept, health shows the error, writes that need that file answer 503, and compaction leaves the
 * file alone.
 *
 * Crash safety: a change is acknowledged only after its journal line is durable. Before compaction
 * replaces a file it appends a marker to the sealed segment naming the sha256 of each file it is
 * about to write; on start, a sealed segment still present is replayed only onto files whose
 * content does not match its marker, so a crash between writing the files and removing the
 * segment counts nothing twice (an invite use is not idempotent; the other changes are).
 *
 * One process owns the journal (the server), and holds the data directory's lock for that
 * (dir-lock.ts): a second server on the same directory stops at start with a message naming the
 * directory and the holder. Operator commands open the store without it (`owner: false`): they
 * edit the JSON files the way an operator would (invite:create), or read the journal without
 * writing it (`replay: true`, db:import-files), so they work while the server runs.
 *
 * The files, the journal and its sealed segments hold addresses: they are created owner-only
 * (0600), and the owner makes existing ones so at start. A failed write (a full disk) is
 * remembered and shown by health() until a later write succeeds.
 */
import { chmod, readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../logger.ts';
import { inviteUsable } from '../premium/invite-codes.ts';
import type { ApiStore } from './files.ts';
import { jsonFileTextInSlices, sha256 } from './json-text.ts';
import { lockDataDir, type DirLock } from './dir-lock.ts';
import { PRIVATE_FILE_MODE } from './durable.ts';
import { Journal, readJournal } from './journal.ts';
import type { JournalState, Metrics } from '../metrics.ts';
import {
  alertsFileSchema,
  invitesFileSchema,
  mailingListFileSchema,
  usersFileSchema,
  type AlertsFile,
  type InviteRecord,
  type InvitesFile,
  type MailingListFile,
  type UserRecord,
  type UsersFile,
} from './schemas.ts';
import { DataFileError, writeFailure } from './store.ts';
import {
  alertScope,
  CONFIRMATION_WINDOW_MS,
  confirmationAllowed,
  MAILING_LIST_SCOPE,
  UNCONFIRMED_TTL_MS,
  type AlertDelivery,
  type AlertSubscription,
  type ConfirmationDecision,
  type ConfirmationMail,
  type Activation,
  type InviteEmailActivation,
  type MailingListEntry,
  type NewSubscriber,
  type Redemption,
  type UserDataHealth,
  type UserDataStore,
} from './user-data.ts';

export const JOURNAL_NAME = 'user-data';
const JOURNAL_FILE = `${JOURNAL_NAME}.log`;

const recordSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('subscriber'), ...mailingListFileSchema.shape.entries.element.shape }),
  z.object({
    t: z.literal('redeem'),
    inviteId: z.string(),
    user: usersFileSchema.shape.users.element,
  }),
  z.object({
    t: z.literal('login'),
    userId: z.string(),
    email: z.string(),
    at: z.string(),
  }),
  z.object({ t: z.literal('invite'), invite: invitesFileSchema.shape.invites.element }),
  z.object({ t: z.literal('inviteDisable'), id: z.string() }),
  z.object({ t: z.literal('alertSub'), sub: alertsFileSchema.shape.subscriptions.element }),
  z.object({ t: z.literal('alertConfirm'), id: z.string(), at: z.string() }),
  z.object({ t: z.literal('alertRemove'), id: z.string() }),
  z.object({ t: z.literal('alertDelivery'), delivery: alertsFileSchema.shape.deliveries.element }),
  z.object({
    t: z.literal('alertSent'),
    subscriptionId: z.string(),
    crossing: z.string(),
    at: z.string(),
  }),
  // Requests for a confirmation e-mail carry the store's decision (`mail`), so a replay repeats it.
  z.object({
    t: z.literal('alertRequest'),
    sub: alertsFileSchema.shape.subscriptions.element,
    mail: z.boolean(),
    at: z.string(),
  }),
  z.object({
    t: z.literal('mailingRequest'),
    entry: z.object({
      id: z.string(),
      email: z.string(),
      source: z.string(),
      createdAt: z.string(),
    }),
    mail: z.boolean(),
    at: z.string(),
  }),
  z.object({ t: z.literal('mailingConfirm'), id: z.string(), at: z.string() }),
  z.object({ t: z.literal('mailingRemove'), id: z.string() }),
  z.object({ t: z.literal('purge'), at: z.string() }),
  /** Written before compaction replaces files: each file's sha256 once it holds everything above. */
  z.object({ t: z.literal('compacted'), files: z.record(z.string(), z.string()) }),
]);
type JournalRecord = z.infer<typeof recordSchema>;
type Change = Exclude<JournalRecord, { t: 'compacted' }>;

type Key = 'mailingList' | 'invites' | 'users' | 'alerts';
const KEYS: Key[] = ['mailingList', 'invites', 'users', 'alerts'];
const TOUCHES: Record<Change['t'], Key[]> = {
  subscriber: ['mailingList'],
  redeem: ['invites', 'users'],
  login: ['users'],
  invite: ['invites'],
  inviteDisable: ['invites'],
  alertSub: ['alerts'],
  alertConfirm: ['alerts'],
  alertRemove: ['alerts'],
  alertDelivery: ['alerts'],
  alertSent: ['alerts'],
  alertRequest: ['alerts'],
  mailingRequest: ['mailingList', 'alerts'],
  mailingConfirm: ['mailingList'],
  mailingRemove: ['mailingList'],
  purge: ['mailingList', 'alerts'],
};
type DataOf<K extends Key> = K extends 'mailingList'
  ? MailingListFile
  : K extends 'invites'
    ? InvitesFile
    : K extends 'users'
      ? UsersFile
      : AlertsFile;

export interface CompactionOptions {
  /** Fold the journal this long after the last change (ms). */
  idleMs: number;
  /** ...and at the latest this long after the first change not yet folded (ms). */
  maxDelayMs: number;
  /** ...or once the journal reaches this many bytes, or half the JSON files' size if larger. */
  minBytes: number;
  /**
   * Folds started by the timers are spaced so that on average they rewrite at most this many
   * bytes per second (a sign-up every few seconds on a 12.5 MB list must not rewrite it each time).
   */
  bytesPerSecond: number;
}

export const DEFAULT_COMPACTION: CompactionOptions = {
  idleMs: 1000,
  maxDelayMs: 30_000,
  minBytes: 1 << 20,
  bytesPerSecond: 1 << 20,
};

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

/** "One subscription per address, source and kind": the key, in any letter case. */
const alertKey = (s: Pick<AlertSubscription, 'email' | 'sourceId' | 'kind'>) =>
  `${s.email.trim().toLowerCase()}|${s.sourceId}|${s.kind}`;
const deliveryKey = (d: Pick<AlertDelivery, 'subscriptionId' | 'crossing'>) =>
  `${d.subscriptionId}|${d.crossing}`;

type ListEntry = MailingListFile['entries'][number];

/** Whether an unconfirmed subscription or sign-up is due for the purge at `now`. */
const unconfirmedExpired = (
  e: { confirmedAt?: string | null; mailedAt?: string; createdAt: string },
  now: number,
) => e.confirmedAt === null && Date.parse(e.mailedAt ?? e.createdAt) <= now - UNCONFIRMED_TTL_MS;

/** In-memory indexes of the served data, rebuilt whenever a file is (re)loaded. */
class Indexes {
  readonly emails = new Set<string>();
  readonly invites = new Map<string, InviteRecord>();
  readonly usersById = new Map<string, UserRecord>();
  readonly usersByInvite = new Map<string, UserRecord[]>();
  readonly alertsById = new Map<string, AlertSubscription>();
  readonly alertsByKey = new Map<string, AlertSubscription>();
  readonly deliveries = new Map<string, AlertDelivery>();
  /** Mailing-list entries by lower-cased address and by id (entries of older files have none). */
  readonly listByEmail = new Map<string, ListEntry>();
  readonly listById = new Map<string, ListEntry>();
  /** Confirmation e-mails counted by the caps, by lower-cased address. */
  readonly confirmations = new Map<string, ConfirmationMail[]>();

  rebuild(key: Key, data: MailingListFile | InvitesFile | UsersFile | AlertsFile): void {
    if (key === 'mailingList') {
      this.emails.clear();
      this.listByEmail.clear();
      this.listById.clear();
      for (const e of (data as MailingListFile).entries) this.addListEntry(e);
    } else if (key === 'invites') {
      this.invites.clear();
      for (const i of (data as InvitesFile).invites) this.invites.set(i.id, i);
    } else if (key === 'alerts') {
      this.alertsById.clear();
      this.alertsByKey.clear();
      this.deliveries.clear();
      for (const a of (data as AlertsFile).subscriptions) {
        this.alertsById.set(a.id, a);
        this.alertsByKey.set(alertKey(a), a);
      }
      for (const d of (data as AlertsFile).deliveries) this.deliveries.set(deliveryKey(d), d);
      this.confirmations.clear();
      for (const c of (data as AlertsFile).confirmations ?? []) this.addConfirmation(c);
    } else {
      this.usersById.clear();
      this.usersByInvite.clear();
      for (const u of (data as UsersFile).users) this.addUser(u);
    }
  }

  addListEntry(e: ListEntry): void {
    const lower = e.email.toLowerCase();
    this.emails.add(lower);
    this.listByEmail.set(lower, e);
    if (e.id !== undefined) this.listById.set(e.id, e);
  }

  addConfirmation(c: ConfirmationMail): void {
    const list = this.confirmations.get(c.email);
    if (list) list.push(c);
    else this.confirmations.set(c.email, [c]);
  }

  addUser(u: UserRecord): void {
    this.usersById.set(u.userId, u);
    const list = this.usersByInvite.get(u.inviteId);
    if (list) list.push(u);
    else this.usersByInvite.set(u.inviteId, [u]);
  }
}

/** Applies the part of a change that concerns one file (also when replaying the journal). */
function applyChange(key: Key, data: unknown, change: Change, idx: Indexes): void {
  if (key === 'mailingList' && change.t === 'subscriber') {
    const lower = change.email.toLowerCase();
    if (idx.emails.has(lower)) return;
    idx.emails.add(lower);
    (data as MailingListFile).entries.push({
      email: change.email,
      createdAt: change.createdAt,
      source: change.source,
    });
  } else if (key === 'invites' && change.t === 'redeem') {
    const invite = idx.invites.get(change.inviteId);
    if (invite) invite.uses++;
  } else if (key === 'invites' && change.t === 'invite') {
    if (idx.invites.has(change.invite.id)) return;
    const invite = { ...change.invite };
    idx.invites.set(invite.id, invite);
    (data as InvitesFile).invites.push(invite);
  } else if (key === 'invites' && change.t === 'inviteDisable') {
    const invite = idx.invites.get(change.id);
    if (invite) invite.disabled = true;
  } else if (key === 'users' && change.t === 'redeem') {
    if (idx.usersById.has(change.user.userId)) return;
    const user = { ...change.user };
    idx.addUser(user);
    (data as UsersFile).users.push(user);
  } else if (key === 'users' && change.t === 'login') {
    const user = idx.usersById.get(change.userId);
    if (!user) return;
    user.email = change.email;
    user.lastLoginAt = change.at;
  } else if (key === 'mailingList') {
    applyListChange(data as MailingListFile, change, idx);
  } else if (key === 'alerts') {
    applyAlertChange(data as AlertsFile, change, idx);
  }
}

/** Replaces a mailing-list entry by a changed copy (entries are never changed in place). */
function replaceListEntry(data: MailingListFile, idx: Indexes, old: ListEntry, next: ListEntry) {
  const i = data.entries.indexOf(old);
  if (i >= 0) data.entries[i] = next;
  idx.addListEntry(next);
}

function applyListChange(data: MailingListFile, change: Change, idx: Indexes): void {
  if (change.t === 'mailingRequest') {
    const lower = change.entry.email.toLowerCase();
    let entry = idx.listByEmail.get(lower);
    if (!entry) {
      if (idx.listById.has(change.entry.id)) return;
      entry = { ...change.entry, confirmedAt: null };
      idx.addListEntry(entry);
      data.entries.push(entry);
    }
    if (change.mail && entry.confirmedAt === null)
      replaceListEntry(data, idx, entry, { ...entry, mailedAt: change.at });
  } else if (change.t === 'mailingConfirm') {
    const entry = idx.listById.get(change.id);
    if (entry && entry.confirmedAt === null)
      replaceListEntry(data, idx, entry, { ...entry, confirmedAt: change.at });
  } else if (change.t === 'mailingRemove') {
    const entry = idx.listById.get(change.id);
    if (!entry) return;
    const i = data.entries.indexOf(entry);
    if (i >= 0) data.entries.splice(i, 1);
    idx.rebuild('mailingList', data);
  } else if (change.t === 'purge') {
    const now = Date.parse(change.at);
    const kept = data.entries.filter((e) => !unconfirmedExpired(e, now));
    if (kept.length === data.entries.length) return;
    data.entries = kept;
    idx.rebuild('mailingList', data);
  }
}

function applyAlertChange(data: AlertsFile, change: Change, idx: Indexes): void {
  if (change.t === 'alertSub') {
    if (idx.alertsById.has(change.sub.id) || idx.alertsByKey.has(alertKey(change.sub))) return;
    const sub = { ...change.sub };
    idx.alertsById.set(sub.id, sub);
    idx.alertsByKey.set(alertKey(sub), sub);
    data.subscriptions.push(sub);
  } else if (change.t === 'alertConfirm') {
    const sub = idx.alertsById.get(change.id);
    if (sub && sub.confirmedAt === null) sub.confirmedAt = change.at;
  } else if (change.t === 'alertRemove') {
    const sub = idx.alertsById.get(change.id);
    if (!sub) return;
    idx.alertsById.delete(sub.id);
    idx.alertsByKey.delete(alertKey(sub));
    const i = data.subscriptions.indexOf(sub);
    if (i >= 0) data.subscriptions.splice(i, 1);
  } else if (change.t === 'alertDelivery') {
    if (idx.deliveries.has(deliveryKey(change.delivery))) return;
    const delivery = { ...change.delivery };
    idx.deliveries.set(deliveryKey(delivery), delivery);
    data.deliveries.push(delivery);
  } else if (change.t === 'alertSent') {
    const delivery = idx.deliveries.get(deliveryKey(change));
    if (delivery && delivery.sentAt === null) delivery.sentAt = change.at;
  } else if (change.t === 'alertRequest') {
    let sub = idx.alertsByKey.get(alertKey(change.sub));
    if (!sub && !idx.alertsById.has(change.sub.id)) {
      sub = { ...change.sub };
      idx.alertsById.set(sub.id, sub);
      idx.alertsByKey.set(alertKey(sub), sub);
      data.subscriptions.push(sub);
    }
    if (!change.mail) return;
    if (sub) sub.mailedAt = change.at;
    addConfirmation(data, idx, {
      email: change.sub.email.trim().toLowerCase(),
      scope: alertScope(change.sub),
      sentAt: change.at,
    });
  } else if (change.t === 'mailingRequest') {
    if (change.mail)
      addConfirmation(data, idx, {
        email: change.entry.email.toLowerCase(),
        scope: MAILING_LIST_SCOPE,
        sentAt: change.at,
      });
  } else if (change.t === 'purge') {
    const now = Date.parse(change.at);
    const subs = data.subscriptions.filter((a) => !unconfirmedExpired(a, now));
    const mails = (data.confirmations ?? []).filter(
      (c) => Date.parse(c.sentAt) > now - CONFIRMATION_WINDOW_MS,
    );
    if (
      subs.length === data.subscriptions.length &&
      mails.length === (data.confirmations ?? []).length
    )
      return;
    data.subscriptions = subs;
    data.confirmations = mails;
    idx.rebuild('alerts', data);
  }
}

function addConfirmation(data: AlertsFile, idx: Indexes, mail: ConfirmationMail): void {
  data.confirmations ??= [];
  data.confirmations.push(mail);
  idx.addConfirmation(mail);
}

/** A copy of a file's data that later changes do not touch (entries are never changed in place). */
function freeze(key: Key, data: unknown): Record<string, unknown> {
  if (key === 'mailingList') return { entries: (data as MailingListFile).entries.slice() };
  if (key === 'invites') return { invites: (data as InvitesFile).invites.map((i) => ({ ...i })) };
  if (key === 'alerts') {
    const alerts = data as AlertsFile;
    return {
      subscriptions: alerts.subscriptions.map((a) => ({ ...a })),
      deliveries: alerts.deliveries.map((d) => ({ ...d })),
      ...(alerts.confirmations ? { confirmations: alerts.confirmations.slice() } : {}),
    };
  }
  return { users: (data as UsersFile).users.map((u) => ({ ...u })) };
}

/** A mailing-list entry as the interface returns it (one of an older file counts as confirmed). */
function listEntry(e: ListEntry): MailingListEntry {
  return {
    id: e.id ?? '',
    email: e.email,
    source: e.source,
    createdAt: e.createdAt,
    confirmedAt: e.confirmedAt === undefined ? e.createdAt : e.confirmedAt,
  };
}

export class FileUserDataStore implements UserDataStore {
  private readonly idx = new Indexes();
  private readonly logger: Logger;
  private readonly compaction: CompactionOptions;
  private journal: Journal | null = null;
  /** Journal content in memory: sealed segments (oldest first), then the active file. */
  private sealed: JournalRecord[] = [];
  private sealedSegments: number[] = [];
  private active: JournalRecord[] = [];
  /**
   * Keys (a lower-cased address, an alert subscription, a delivery) whose creation is written but
   * not yet durable: a repeat that finds it waits for it before answering "already there".
   */
  private readonly pendingKeys = new Map<string, Promise<void>>();
  private compactions: Promise<void> = Promise.resolve();
  private compactionQueued = false;
  private timer: NodeJS.Timeout | null = null;
  private firstUnfoldedAt: number | null = null;
  private lastFoldAt = 0;
  private started = false;
  private recovering: Promise<void> | null = null;
  private closed = false;
  /** Counts (re)loads per file: compaction never writes data taken before a reload. */
  private readonly loads: Record<Key, number> = {
    mailingList: 0,
    invites: 0,
    users: 0,
    alerts: 0,
  };
  private lastPostponed = '';
  /** Names of the withExclusiveLock jobs running in this process. */
  private readonly running = new Set<string>();
  /** The data directory's lock (the owner only). */
  private lock: DirLock | null = null;
  /** Why the last write of the user data failed, until a later one succeeds (for health()). */
  private writeFailure: string | null = null;
  private readonly metrics: FileUserDataOptions['metrics'];
  /** When the journal was last folded into the files (ms since the epoch), else the opening. */
  private lastCompactionAt = Date.now();

  /**
   * Opens the store on an ApiStore whose files are not loaded yet (call `store.loadAll()` next).
   * The owner reads the journal and attaches to the three files, so loading them replays it.
   */
  static async open(store: ApiStore, options: FileUserDataOptions): Promise<FileUserDataStore> {
    const s = new FileUserDataStore(store, options);
    if (options.owner) {
      // Throws DataDirLockedError while another process owns the directory.
      s.lock = await lockDataDir(store.dir, (err) =>
        s.logger.error('data directory lock lost: user data writes stopped', {
          dir: store.dir,
          error: err.message,
        }),
      );
      try {
        await s.makePrivate();
        await s.readJournal(true);
      } catch (err) {
        await s.lock.release();
        throw err;
      }
    } else if (options.replay) {
      await s.readJournal(false);
    }
    if (options.owner || options.replay)
      for (const key of KEYS) store.attach(key, (data, text) => s.replay(key, data, text));
    return s;
  }

  /** Owner-only modes for the files of personal data already there (written 0644 before). */
  private async makePrivate(): Promise<void> {
    const names = await readdir(this.store.dir);
    const personal = new Set(KEYS.map((k) => this.store.fileName(k)));
    for (const name of names) {
      if (!personal.has(name) && !name.startsWith(`${JOURNAL_NAME}.`)) continue;
      await chmod(path.join(this.store.dir, name), PRIVATE_FILE_MODE).catch(() => undefined);
    }
  }

  private constructor(
    private readonly store: ApiStore,
    options: FileUserDataOptions,
  ) {
    this.logger = options.logger;
    this.metrics = options.metrics;
    this.compaction = { ...DEFAULT_COMPACTION, ...options.compaction };
  }

  /** Reads the journal; `open`: for appending (the owner: a torn last line is cut off). */
  private async readJournal(open = true): Promise<void> {
    const segments = await readJournal(this.store.dir, JOURNAL_NAME);
    this.sealed = [];
    this.sealedSegments = [];
    this.active = [];
    for (const segment of segments) {
      let invalid = segment.invalidLines;
      const records: JournalRecord[] = [];
      for (const line of segment.lines) {
        const parsed = recordSchema.safeParse(line);
        if (parsed.success) records.push(parsed.data);
        else invalid++;
      }
      if (invalid > 0 || segment.torn) {
        this.logger.warn('journal lines skipped', {
          file: segment.file,
          invalidLines: invalid,
          tornLastLine: segment.torn,
        });
      }
      if (segment.n === 0) this.active = records;
      else {
        this.sealed.push(...records);
        this.sealedSegments.push(segment.n);
      }
    }
    if (open) this.journal = await Journal.open(this.store.dir, JOURNAL_NAME, segments);
  }

  /** Load hook: the journal replayed onto freshly read file content. */
  private replay<K extends Key>(key: K, data: DataOf<K>, text: string | null): DataOf<K> {
    const records = [...this.sealed, ...this.active];
    let start = 0;
    const file = this.store.fileName(key);
    if (text !== null && records.some((r) => r.t === 'compacted' && file in r.files)) {
      const hash = sha256(text);
      for (let i = records.length - 1; i >= 0; i--) {
        const r = records[i]!;
        if (r.t === 'compacted' && r.files[file] === hash) {
          start = i + 1;
          break;
        }
      }
    }
    this.loads[key]++;
    this.idx.rebuild(key, data);
    for (let i = start; i < records.length; i++) {
      const r = records[i]!;
      if (r.t !== 'compacted' && TOUCHES[r.t].includes(key)) applyChange(key, data, r, this.idx);
    }
    return data;
  }

  /** Starts background compaction (the server; tests and commands compact explicitly). */
  start(): void {
    if (!this.journal || this.started) return;
    this.started = true;
    if (this.sealed.length + this.active.length > 0) this.schedule(0);
  }

  // ------------------------------------------------------------------ the interface

  async addSubscriber(entry: NewSubscriber): Promise<{ created: boolean }> {
    await this.store.refreshFile('mailingList');
    const data = this.writable('mailingList');
    const lower = entry.email.toLowerCase();
    if (this.idx.emails.has(lower)) {
      // Answer "already on the list" only once that entry is durable.
      await this.pendingKeys.get(lower);
      return { created: false };
    }
    const change: Change = { t: 'subscriber', ...entry };
    applyChange('mailingList', data, change, this.idx);
    await this.recordKeyed(lower, change);
    return { created: true };
  }

  async addAlertSubscription(
    sub: AlertSubscription,
  ): Promise<{ created: boolean; subscription: AlertSubscription }> {
    await this.store.refreshFile('alerts');
    const data = this.writable('alerts');
    const key = `alert:${alertKey(sub)}`;
    const existing = this.idx.alertsByKey.get(alertKey(sub));
    if (existing) {
      await this.pendingKeys.get(key);
      return { created: false, subscription: { ...existing } };
    }
    const change: Change = { t: 'alertSub', sub: { ...sub, email: sub.email.trim() } };
    applyChange('alerts', data, change, this.idx);
    const stored = { ...this.idx.alertsById.get(sub.id)! };
    await this.recordKeyed(key, change);
    return { created: true, subscription: stored };
  }

  async requestAlertConfirmation(
    sub: AlertSubscription,
    now: Date,
  ): Promise<ConfirmationDecision<AlertSubscription>> {
    await this.store.refreshFile('alerts');
    const key = `alert:${alertKey(sub)}`;
    // A creation of the same subscription still on its way to the disk is waited for first.
    await this.pendingKeys.get(key);
    const data = this.writable('alerts');
    // From here to the append nothing awaits: the decision and its change are one step.
    const existing = this.idx.alertsByKey.get(alertKey(sub));
    const email = sub.email.trim();
    const mail =
      (existing === undefined || existing.confirmedAt === null) &&
      confirmationAllowed(
        this.idx.confirmations.get(email.toLowerCase()) ?? [],
        alertScope(sub),
        now,
      );
    const { mailedAt: _ignored, ...fresh } = sub;
    const change: Change = {
      t: 'alertRequest',
      sub: { ...fresh, email },
      mail,
      at: now.toISOString(),
    };
    applyChange('alerts', data, change, this.idx);
    const stored = { ...this.idx.alertsByKey.get(alertKey(sub))! };
    if (existing) await this.record(change);
    else await this.recordKeyed(key, change);
    return { record: stored, mail };
  }

  async requestMailingListConfirmation(
    entry: MailingListEntry,
    now: Date,
  ): Promise<ConfirmationDecision<MailingListEntry>> {
    await this.store.refreshFile('mailingList');
    await this.store.refreshFile('alerts');
    const lower = entry.email.toLowerCase();
    await this.pendingKeys.get(lower);
    const list = this.writable('mailingList');
    this.writable('alerts');
    const existing = this.idx.listByEmail.get(lower);
    const mail =
      (existing === undefined || existing.confirmedAt === null) &&
      confirmationAllowed(this.idx.confirmations.get(lower) ?? [], MAILING_LIST_SCOPE, now);
    const change: Change = {
      t: 'mailingRequest',
      entry: { id: entry.id, email: entry.email, source: entry.source, createdAt: entry.createdAt },
      mail,
      at: now.toISOString(),
    };
    applyChange('mailingList', list, change, this.idx);
    applyChange('alerts', this.store.writableData('alerts') as AlertsFile, change, this.idx);
    const stored = listEntry(this.idx.listByEmail.get(lower)!);
    if (existing) await this.record(change);
    else await this.recordKeyed(lower, change);
    return { record: stored, mail };
  }

  async confirmMailingListEntry(input: {
    id: string;
    now: Date;
  }): Promise<MailingListEntry | null> {
    await this.store.refreshFile('mailingList');
    const data = this.writable('mailingList');
    const entry = this.idx.listById.get(input.id);
    if (!entry) return null;
    await this.pendingKeys.get(entry.email.toLowerCase());
    const current = this.idx.listById.get(input.id);
    if (!current) return null;
    if (current.confirmedAt !== null) return listEntry(current);
    const change: Change = { t: 'mailingConfirm', id: input.id, at: input.now.toISOString() };
    applyChange('mailingList', data, change, this.idx);
    const confirmed = listEntry(this.idx.listById.get(input.id)!);
    await this.record(change);
    return confirmed;
  }

  async removeMailingListEntry(id: string): Promise<boolean> {
    await this.store.refreshFile('mailingList');
    const data = this.writable('mailingList');
    if (!this.idx.listById.has(id)) return false;
    const change: Change = { t: 'mailingRemove', id };
    applyChange('mailingList', data, change, this.idx);
    await this.record(change);
    return true;
  }

  async purgeUnconfirmed(now: Date): Promise<{ alertSubscriptions: number; mailingList: number }> {
    await this.store.refreshFile('mailingList');
    await this.store.refreshFile('alerts');
    const t = now.getTime();
    const list = this.store.get('mailingList')?.entries ?? [];
    const alerts = this.store.get('alerts');
    const counts = {
      alertSubscriptions: (alerts?.subscriptions ?? []).filter((a) => unconfirmedExpired(a, t))
        .length,
      mailingList: list.filter((e) => unconfirmedExpired(e, t)).length,
    };
    const staleMails = (alerts?.confirmations ?? []).some(
      (c) => Date.parse(c.sentAt) <= t - CONFIRMATION_WINDOW_MS,
    );
    if (counts.alertSubscriptions + counts.mailingList === 0 && !staleMails) return counts;
    const listData = this.writable('mailingList');
    const alertData = this.writable('alerts');
    const change: Change = { t: 'purge', at: now.toISOString() };
    applyChange('mailingList', listData, change, this.idx);
    applyChange('alerts', alertData, change, this.idx);
    await this.record(change);
    return counts;
  }

  async confirmAlertSubscription(input: {
    id: string;
    now: Date;
  }): Promise<AlertSubscription | null> {
    await this.store.refreshFile('alerts');
    const data = this.writable('alerts');
    const sub = this.idx.alertsById.get(input.id);
    if (!sub) return null;
    // The subscription itself may still be on its way to the disk.
    await this.pendingKeys.get(`alert:${alertKey(sub)}`);
    if (sub.confirmedAt !== null) return { ...sub };
    const change: Change = { t: 'alertConfirm', id: sub.id, at: input.now.toISOString() };
    applyChange('alerts', data, change, this.idx);
    const confirmed = { ...sub };
    await this.record(change);
    return confirmed;
  }

  async removeAlertSubscription(id: string): Promise<boolean> {
    await this.store.refreshFile('alerts');
    const data = this.writable('alerts');
    if (!this.idx.alertsById.has(id)) return false;
    const change: Change = { t: 'alertRemove', id };
    applyChange('alerts', data, change, this.idx);
    await this.record(change);
    return true;
  }

  async listConfirmedAlertSubscriptions(): Promise<AlertSubscription[]> {
    await this.store.refreshFile('alerts');
    return (this.store.get('alerts')?.subscriptions ?? [])
      .filter((a) => a.confirmedAt !== null)
      .map((a) => ({ ...a }))
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  async recordAlertDelivery(entry: AlertDelivery): Promise<boolean> {
    await this.store.refreshFile('alerts');
    const data = this.writable('alerts');
    const key = `delivery:${deliveryKey(entry)}`;
    if (this.idx.deliveries.has(deliveryKey(entry))) {
      await this.pendingKeys.get(key);
      return false;
    }
    const change: Change = { t: 'alertDelivery', delivery: { ...entry } };
    applyChange('alerts', data, change, this.idx);
    await this.recordKeyed(key, change);
    return true;
  }

  async markAlertDelivered(input: {
    subscriptionId: string;
    crossing: string;
    sentAt: Date;
  }): Promise<void> {
    await this.store.refreshFile('alerts');
    const data = this.writable('alerts');
    const delivery = this.idx.deliveries.get(deliveryKey(input));
    if (!delivery || delivery.sentAt !== null) return;
    const change: Change = {
      t: 'alertSent',
      subscriptionId: input.subscriptionId,
      crossing: input.crossing,
      at: input.sentAt.toISOString(),
    };
    applyChange('alerts', data, change, this.idx);
    await this.record(change);
  }

  async listUndeliveredAlerts(): Promise<AlertDelivery[]> {
    await this.store.refreshFile('alerts');
    return (this.store.get('alerts')?.deliveries ?? [])
      .filter((d) => d.sentAt === null)
      .map((d) => ({ ...d }));
  }

  async listInvites(): Promise<InviteRecord[]> {
    await this.store.refreshFile('invites');
    return (this.store.get('invites')?.invites ?? [])
      .filter((i) => !i.disabled)
      .map((i) => ({ ...i }));
  }

  async createInvite(invite: InviteRecord): Promise<void> {
    if (!this.journal) {
      // Operator command: an edit of invites.json, as an operator would make it by hand.
      await this.store.mutate('invites', (data) => {
        if (data.invites.some((i) => i.id === invite.id))
          return { result: undefined, changed: false };
        data.invites.push({ ...invite });
        return { result: undefined, changed: true };
      });
      return;
    }
    await this.store.refreshFile('invites');
    const data = this.writable('invites');
    if (this.idx.invites.has(invite.id)) return;
    const change: Change = { t: 'invite', invite: { ...invite } };
    applyChange('invites', data, change, this.idx);
    await this.record(change);
    // Operators expect to see a new code in invites.json at once.
    await this.compact();
  }

  async redeemInvite(input: {
    inviteId: string;
    user: UserRecord;
    now: Date;
  }): Promise<Redemption> {
    await Promise.all([this.store.refreshFile('invites'), this.store.refreshFile('users')]);
    return this.redeem(input.inviteId, input.user, input.now);
  }

  async loginWithInvite(input: {
    inviteId: string;
    email: string;
    tokenUserId: string | null;
    newUser: UserRecord;
    now: Date;
  }): Promise<Redemption> {
    await Promise.all([this.store.refreshFile('invites'), this.store.refreshFile('users')]);
    const users = this.writable('users');
    const mine = this.idx.usersByInvite.get(input.inviteId) ?? [];
    const found =
      mine.find((u) => u.email === input.email) ??
      mine.find((u) => input.tokenUserId !== null && u.userId === input.tokenUserId) ??
      mine.findLast((u) => u.email === null);
    if (!found) return this.redeem(input.inviteId, input.newUser, input.now);
    const change: Change = {
      t: 'login',
      userId: found.userId,
      email: input.email,
      at: input.now.toISOString(),
    };
    applyChange('users', users, change, this.idx);
    const user = { ...found };
    await this.record(change);
    return { ok: true, user };
  }

  async activateInviteEmail(input: InviteEmailActivation): Promise<Activation> {
    await Promise.all([this.store.refreshFile('invites'), this.store.refreshFile('users')]);
    const users = this.writable('users');
    const mine = this.idx.usersByInvite.get(input.inviteId) ?? [];
    const own =
      input.tokenUserId === null ? undefined : mine.find((u) => u.userId === input.tokenUserId);
    if (own) {
      const change: Change = {
        t: 'login',
        userId: own.userId,
        email: input.email,
        at: input.now.toISOString(),
      };
      applyChange('users', users, change, this.idx);
      const user = { ...own };
      await this.record(change);
      return { ok: true, user, created: false };
    }
    const email = input.email.toLowerCase();
    const bound = mine.find((u) => u.email !== null && u.email.toLowerCase() === email);
    if (bound) return { ok: false, reason: 'email_taken', user: { ...bound } };
    const invite = this.idx.invites.get(input.inviteId);
    if (!invite || invite.disabled) return { ok: false, reason: 'invalid' };
    const check = inviteUsable(invite, input.now);
    if (!check.ok) return { ok: false, reason: check.reason };
    const redeemed = await this.redeem(input.inviteId, input.newUser, input.now);
    return redeemed.ok ? { ...redeemed, created: true } : redeemed;
  }

  async activePremiumUser(userId: string): Promise<UserRecord | null> {
    // A hand edit of users.json or invites.json (a deleted user, a disabled invite) counts at once.
    await Promise.all([this.store.refreshFile('invites'), this.store.refreshFile('users')]);
    const user = this.journal
      ? this.idx.usersById.get(userId)
      : this.store.get('users')?.users.find((u) => u.userId === userId);
    if (!user) return null;
    const invite = this.journal
      ? this.idx.invites.get(user.inviteId)
      : this.store.get('invites')?.invites.find((i) => i.id === user.inviteId);
    return invite && !invite.disabled ? { ...user } : null;
  }

  async disableInvite(id: string): Promise<boolean> {
    if (!this.journal) {
      // Operator command: an edit of invites.json, as an operator would make it by hand.
      return this.store.mutate('invites', (data) => {
        const invite = data.invites.find((i) => i.id === id);
        if (!invite) return { result: false, changed: false };
        if (invite.disabled) return { result: true, changed: false };
        invite.disabled = true;
        return { result: true, changed: true };
      });
    }
    await this.store.refreshFile('invites');
    const data = this.writable('invites');
    const invite = this.idx.invites.get(id);
    if (!invite) return false;
    if (invite.disabled) return true;
    const change: Change = { t: 'inviteDisable', id };
    applyChange('invites', data, change, this.idx);
    await this.record(change);
    await this.compact();
    return true;
  }

  // ------------------------------------------------------------------ jobs and health

  /** One process owns the files, so an in-process mutex is the lock. */
  async withExclusiveLock(name: string, fn: () => Promise<void>): Promise<boolean> {
    if (this.running.has(name)) return false;
    this.running.add(name);
    try {
      await fn();
      return true;
    } finally {
      this.running.delete(name);
    }
  }

  /** Public (GET /api/health): which file and why in words, never a path or content. */
  health(): Promise<UserDataHealth> {
    const failed =
      this.journal !== null && (this.journal.failed !== null || this.recovering !== null);
    const error = this.lock?.lost
      ? 'data directory lock lost: another process took the data directory over'
      : (this.writeFailure ?? (failed ? `${JOURNAL_FILE}: write failed, reloading` : null));
    return Promise.resolve({ store: 'files', available: error === null, error });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.journal) return;
    try {
      await this.recovering;
      if (!this.journal.failed && !this.lock?.lost) await this.compact();
      await this.compactions;
      await this.journal.close();
    } finally {
      await this.lock?.release();
    }
  }

  /**
   * Lets go of the data directory the way a killed process does: nothing more is written or
   * folded (the journal stays as it is), and the lock is released (a restart would take over a
   * dead holder's lock). Tests restart in one process with it; the server uses close().
   */
  async abandon(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.journal?.close();
    await this.lock?.release();
  }

  // ------------------------------------------------------------------ writing

  /** Spends a use and creates the user: one journal line, so both or neither survive a crash. */
  private async redeem(inviteId: string, user: UserRecord, now: Date): Promise<Redemption> {
    const invites = this.writable('invites');
    const users = this.writable('users');
    const invite = this.idx.invites.get(inviteId);
    if (!invite || invite.disabled) return { ok: false, reason: 'invalid' };
    const check = inviteUsable(invite, now);
    if (!check.ok) return { ok: false, reason: check.reason };
    const change: Change = { t: 'redeem', inviteId, user: { ...user } };
    applyChange('invites', invites, change, this.idx);
    applyChange('users', users, change, this.idx);
    await this.record(change);
    return { ok: true, user: { ...user } };
  }

  /** The data of a file for a change: throws DataFileError if it or the journal cannot be written. */
  private writable<K extends Key>(key: K): DataOf<K> {
    if (!this.journal) throw new Error('operator commands only create invites');
    if (this.lock?.lost) {
      throw new DataFileError(JOURNAL_FILE, 'data directory lock lost: not writing user data');
    }
    if (this.journal.failed || this.recovering) {
      this.recovering ??= this.recover();
      throw new DataFileError(JOURNAL_FILE, `${JOURNAL_FILE}: write failed, reloading`);
    }
    return this.store.writableData(key) as DataOf<K>;
  }

  /** `record` for a change that creates `key`: a repeat meanwhile waits for it (pendingKeys). */
  private async recordKeyed(key: string, change: Change): Promise<void> {
    const durable = this.record(change);
    this.pendingKeys.set(key, durable);
    try {
      await durable;
    } finally {
      if (this.pendingKeys.get(key) === durable) this.pendingKeys.delete(key);
    }
  }

  /** Appends a change already applied in memory; resolves when it is durable. */
  private record(change: Change): Promise<void> {
    const journal = this.journal!;
    this.active.push(change);
    const durable = journal.append(JSON.stringify(change));
    this.noteChange();
    return durable.then(
      () => this.noteWriteSuccess(),
      (err: unknown) => {
        this.logger.error('user data journal write failed', { error: (err as Error).message });
        this.noteWriteFailure(err);
        this.recovering ??= this.recover();
        throw new DataFileError(JOURNAL_FILE, `${JOURNAL_FILE}: write failed`);
      },
    );
  }

  /**
   * After a failed write, memory may hold changes that never became durable: cut the journal back
   * to its last durable write and rebuild everything from the disk, as a restart would.
   */
  private async recover(): Promise<void> {
    try {
      await this.compactions;
      await this.journal!.reopen();
      await this.readJournal();
      for (const key of KEYS) await this.store.reload(key);
      this.pendingKeys.clear();
      this.logger.info('user data reloaded after a failed write');
    } catch (err) {
      this.logger.error('user data reload failed', { error: (err as Error).message });
    } finally {
      this.recovering = null;
    }
  }

  // ------------------------------------------------------------------ compaction

  private noteChange(): void {
    if (!this.started || this.closed) return;
    this.firstUnfoldedAt ??= Date.now();
    const fileBytes = KEYS.reduce((sum, k) => sum + this.store.sizeOf(k), 0);
    const threshold = Math.max(this.compaction.minBytes, fileBytes / 2);
    if (this.journal!.activeBytes >= threshold) this.schedule(0);
    else {
      const now = Date.now();
      const due = Math.min(
        this.compaction.idleMs,
        this.firstUnfoldedAt + this.compaction.maxDelayMs - now,
      );
      const spacing = this.lastFoldAt + (fileBytes / this.compaction.bytesPerSecond) * 1000 - now;
      this.schedule(Math.max(0, due, spacing));
    }
  }

  private schedule(delayMs: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.compactionQueued) return;
      this.compactionQueued = true;
      this.compact()
        .catch((err: unknown) =>
          this.logger.error('user data compaction failed', { error: (err as Error).message }),
        )
        .finally(() => {
          this.compactionQueued = false;
          // Changes made meanwhile (or files that could not be written) need another round.
          if (this.active.length + this.sealed.length > 0 && !this.closed) {
            this.firstUnfoldedAt = null;
            this.noteChange();
          }
        });
    }, delayMs);
    // Never keep a process alive for this (close() compacts what is left).
    this.timer.unref();
  }

  /**
   * Folds the journal into the JSON files now; resolves when every change recorded before the call
   * is in them (or, when a file cannot be written, it stays in the journal for a later round).
   */
  compact(): Promise<void> {
    const run = this.compactions.then(() => this.compactOnce());
    this.compactions = run.catch(() => undefined);
    return run;
  }

  /** Remembers a failed write of `file` for health() (the journal's unless said). */
  /** The journal for /metrics: changes not yet folded, and when the last fold finished. */
  journalState(): JournalState {
    const pending = (records: JournalRecord[]) =>
      records.reduce((n, r) => (r.t === 'compacted' ? n : n + 1), 0);
    return {
      pendingEntries: pending(this.sealed) + pending(this.active),
      lastCompactionAt: this.lastCompactionAt,
    };
  }

  private noteWriteFailure(err: unknown, file = JOURNAL_FILE): void {
    this.metrics?.journalWriteFailure();
    this.writeFailure = writeFailure(file, err);
  }

  private noteWriteSuccess(): void {
    if (this.writeFailure !== null) this.logger.info('user data written again');
    this.writeFailure = null;
  }

  private async compactOnce(): Promise<void> {
    const writing = { file: JOURNAL_FILE };
    try {
      await this.compactSteps(writing);
    } catch (err) {
      // A failed write (an operator's edit postpones without an error) is shown by health()
      // until a later write succeeds.
      if ((err as NodeJS.ErrnoException | null)?.code) this.noteWriteFailure(err, writing.file);
      throw err;
    }
  }

  /** One compaction; `writing.file` names the file being written at each step. */
  private async compactSteps(writing: { file: string }): Promise<void> {
    const journal = this.journal;
    if (!journal || journal.failed || this.recovering || this.lock?.lost) return;
    const started = Date.now();
    this.lastFoldAt = started;
    this.firstUnfoldedAt = null;
    let frozen = new Map<Key, Record<string, unknown>>();
    let loadsAtSeal = { ...this.loads };
    const n = await journal.seal(() => {
      loadsAtSeal = { ...this.loads };
      this.sealed.push(...this.active);
      this.active = [];
      const touched = new Set<Key>();
      for (const r of this.sealed)
        if (r.t !== 'compacted') for (const k of TOUCHES[r.t]) touched.add(k);
      frozen = new Map([...touched].map((k) => [k, freeze(k, this.store.get(k))]));
    });
    if (n !== null) this.sealedSegments.push(n);
    if (this.sealedSegments.length === 0) return;

    const out: { key: Key; text: Buffer; sha256: string }[] = [];
    for (const [key, data] of frozen) out.push({ key, ...(await jsonFileTextInSlices(data)) });
    if (out.length > 0) {
      const files = Object.fromEntries(out.map((o) => [this.store.fileName(o.key), o.sha256]));
      const marker: JournalRecord = { t: 'compacted', files };
      await journal.appendToSealed(this.sealedSegments.at(-1)!, JSON.stringify(marker));
      this.sealed.push(marker);
    }
    const kept: string[] = [];
    for (const o of out) {
      // An operator's edit wins: a file edited since the seal (loaded now or already) is not
      // written from the copy taken before; replaceFile also refuses a file changed on disk in
      // the last moment, or broken. Its changes stay in the journal for a later round.
      const edited =
        (await this.store.refreshFile(o.key)) || this.loads[o.key] !== loadsAtSeal[o.key];
      writing.file = this.store.fileName(o.key);
      if (edited || !(await this.store.replaceFile(o.key, o.text)))
        kept.push(this.store.fileName(o.key));
    }
    if (kept.length > 0) {
      const which = kept.join(', ');
      if (which !== this.lastPostponed)
        this.logger.warn('user data compaction postponed: file edited by hand or broken', {
          files: kept,
        });
      this.lastPostponed = which;
      return;
    }
    this.lastPostponed = '';
    writing.file = JOURNAL_FILE;
    await journal.removeSealed(this.sealedSegments);
    this.sealedSegments = [];
    this.sealed = [];
    this.noteWriteSuccess();
    this.lastCompactionAt = Date.now();
    this.logger.info('user data compacted', {
      files: out.map((o) => this.store.fileName(o.key)),
      ms: Date.now() - started,
    });
  }
}
