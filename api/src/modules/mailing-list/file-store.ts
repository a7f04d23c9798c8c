/**
 * The mailing list of the file store: `mailing-list.json`, its journal records and their reducer.
 * "Already on the list" is answered from an index of lower-cased addresses in memory. The caps on
 * confirmation e-mails are the alerts aggregate's (`alerts.json`): a sign-up request is one
 * journal line that both files apply.
 */
import { z } from 'zod';
import type { FilesView, FileSpec } from '../../platform/files/data-store.ts';
import { mailingListFileSchema, type MailingListFile } from './schemas.ts';
import {
  confirmationAllowed,
  MAILING_LIST_SCOPE,
  type ConfirmationDecision,
  type ConfirmationMail,
} from '../confirmations/index.ts';
import type { MailingListEntry, MailingListStore, NewSubscriber } from './store.ts';
import type { ModuleJournal } from '../../platform/files/journal-engine.ts';
import {
  sharedRecords,
  unconfirmedExpired,
  type MailingRequestRecord,
  type PurgeRecord,
} from '../confirmations/index.ts';

/** The files the mailing list's store reads and writes: its own, and alerts.json (the shared caps). */
type MailingListFiles = { mailingList: FileSpec<MailingListFile>; alerts: FileSpec<unknown> };

export const mailingListRecords = {
  subscriber: z.object({
    t: z.literal('subscriber'),
    ...mailingListFileSchema.shape.entries.element.shape,
  }),
  mailingRequest: sharedRecords.mailingRequest,
  mailingConfirm: z.object({ t: z.literal('mailingConfirm'), id: z.string(), at: z.string() }),
  mailingRemove: z.object({ t: z.literal('mailingRemove'), id: z.string() }),
};
type Records = { [T in keyof typeof mailingListRecords]: z.infer<(typeof mailingListRecords)[T]> };
type ListRecord = Records[keyof Records] | PurgeRecord;

type ListEntry = MailingListFile['entries'][number];

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

export class FileMailingList implements MailingListStore {
  private readonly emails = new Set<string>();
  /** Entries by lower-cased address and by id (entries of older files have none). */
  private readonly byEmail = new Map<string, ListEntry>();
  private readonly byId = new Map<string, ListEntry>();

  /** `confirmations`: the confirmation e-mails counted for a lower-cased address (the alerts' file-store.ts). */
  constructor(
    private readonly engine: ModuleJournal<MailingListFiles>,
    private readonly store: FilesView<MailingListFiles>,
    private readonly confirmations: (email: string) => readonly ConfirmationMail[],
  ) {
    engine.declare(mailingListRecords);
    engine.register<MailingListFile, ListRecord>({
      key: 'mailingList',
      types: ['subscriber', 'mailingRequest', 'mailingConfirm', 'mailingRemove', 'purge'],
      apply: (data, record) => this.apply(data, record),
      rebuild: (data) => this.rebuild(data),
      freeze: (data) => ({ entries: data.entries.slice() }),
    });
  }

  private rebuild(data: MailingListFile): void {
    this.emails.clear();
    this.byEmail.clear();
    this.byId.clear();
    for (const e of data.entries) this.index(e);
  }

  private index(e: ListEntry): void {
    const lower = e.email.toLowerCase();
    this.emails.add(lower);
    this.byEmail.set(lower, e);
    if (e.id !== undefined) this.byId.set(e.id, e);
  }

  /** Replaces an entry by a changed copy (entries are never changed in place). */
  private replace(data: MailingListFile, old: ListEntry, next: ListEntry): void {
    const i = data.entries.indexOf(old);
    if (i >= 0) data.entries[i] = next;
    this.index(next);
  }

  private apply(data: MailingListFile, change: ListRecord): void {
    if (change.t === 'subscriber') {
      const lower = change.email.toLowerCase();
      if (this.emails.has(lower)) return;
      this.emails.add(lower);
      data.entries.push({
        email: change.email,
        createdAt: change.createdAt,
        source: change.source,
      });
    } else if (change.t === 'mailingRequest') {
      const lower = change.entry.email.toLowerCase();
      let entry = this.byEmail.get(lower);
      if (!entry) {
        if (this.byId.has(change.entry.id)) return;
        entry = { ...change.entry, confirmedAt: null };
        this.index(entry);
        data.entries.push(entry);
      }
      if (change.mail && entry.confirmedAt === null)
        this.replace(data, entry, { ...entry, mailedAt: change.at });
    } else if (change.t === 'mailingConfirm') {
      const entry = this.byId.get(change.id);
      if (entry && entry.confirmedAt === null)
        this.replace(data, entry, { ...entry, confirmedAt: change.at });
    } else if (change.t === 'mailingRemove') {
      const entry = this.byId.get(change.id);
      if (!entry) return;
      const i = data.entries.indexOf(entry);
      if (i >= 0) data.entries.splice(i, 1);
      this.rebuild(data);
    } else {
      const now = Date.parse(change.at);
      const kept = data.entries.filter((e) => !unconfirmedExpired(e, now));
      if (kept.length === data.entries.length) return;
      data.entries = kept;
      this.rebuild(data);
    }
  }

  /** How many unconfirmed sign-ups the purge at `now` removes. */
  expiredCount(now: number): number {
    return (this.store.get('mailingList')?.entries ?? []).filter((e) => unconfirmedExpired(e, now))
      .length;
  }

  async addSubscriber(entry: NewSubscriber): Promise<{ created: boolean }> {
    await this.store.refreshFile('mailingList');
    this.engine.writable('mailingList');
    const lower = entry.email.toLowerCase();
    if (this.emails.has(lower)) {
      // Answer "already on the list" only once that entry is durable.
      await this.engine.pending(lower);
      return { created: false };
    }
    const change: Records['subscriber'] = { t: 'subscriber', ...entry };
    this.engine.apply(change);
    await this.engine.recordKeyed(lower, change);
    return { created: true };
  }

  async requestMailingListConfirmation(
    entry: MailingListEntry,
    now: Date,
  ): Promise<ConfirmationDecision<MailingListEntry>> {
    await this.store.refreshFile('mailingList');
    await this.store.refreshFile('alerts');
    const lower = entry.email.toLowerCase();
    await this.engine.pending(lower);
    this.engine.writable('mailingList');
    this.engine.writable('alerts');
    const existing = this.byEmail.get(lower);
    const mail =
      (existing === undefined || existing.confirmedAt === null) &&
      confirmationAllowed(this.confirmations(lower), MAILING_LIST_SCOPE, now);
    const change: MailingRequestRecord = {
      t: 'mailingRequest',
      entry: { id: entry.id, email: entry.email, source: entry.source, createdAt: entry.createdAt },
      mail,
      at: now.toISOString(),
    };
    this.engine.apply(change);
    const stored = listEntry(this.byEmail.get(lower)!);
    if (existing) await this.engine.record(change);
    else await this.engine.recordKeyed(lower, change);
    return { record: stored, mail };
  }

  async confirmMailingListEntry(input: {
    id: string;
    now: Date;
  }): Promise<MailingListEntry | null> {
    await this.store.refreshFile('mailingList');
    this.engine.writable('mailingList');
    const entry = this.byId.get(input.id);
    if (!entry) return null;
    await this.engine.pending(entry.email.toLowerCase());
    const current = this.byId.get(input.id);
    if (!current) return null;
    if (current.confirmedAt !== null) return listEntry(current);
    const change: Records['mailingConfirm'] = {
      t: 'mailingConfirm',
      id: input.id,
      at: input.now.toISOString(),
    };
    this.engine.apply(change);
    const confirmed = listEntry(this.byId.get(input.id)!);
    await this.engine.record(change);
    return confirmed;
  }

  async removeMailingListEntry(id: string): Promise<boolean> {
    await this.store.refreshFile('mailingList');
    this.engine.writable('mailingList');
    if (!this.byId.has(id)) return false;
    const change: Records['mailingRemove'] = { t: 'mailingRemove', id };
    this.engine.apply(change);
    await this.engine.record(change);
    return true;
  }
}
