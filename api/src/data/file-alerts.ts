/**
 * Alert subscriptions and the ledger of sent alerts for the embedded file store: `alerts.json` in
 * the data directory, held in memory and replaced whole (atomically and durably, one write at a
 * time) after each change, which resolves once the file holds it. Small on purpose: alerts are
 * few, and one process owns the file (the server), like the journal of user data.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileDurably } from './durable.ts';
import { jsonFileText } from './json-text.ts';
import type { AlertDelivery, AlertSubscription } from './user-data.ts';

export const ALERTS_FILE = 'alerts.json';

interface AlertsFile {
  subscriptions: AlertSubscription[];
  deliveries: AlertDelivery[];
}

const keyOf = (s: { email: string; sourceId: number; kind: string }) =>
  `${s.email.toLowerCase()}|${s.sourceId}|${s.kind}`;

export class FileAlertLedger {
  private data: AlertsFile | null = null;
  private loading: Promise<AlertsFile> | null = null;
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly dir: string) {}

  private get file(): string {
    return path.join(this.dir, ALERTS_FILE);
  }

  /** The file's content, read once (concurrent first calls share the read). */
  private load(): Promise<AlertsFile> {
    if (this.data) return Promise.resolve(this.data);
    this.loading ??= readFile(this.file, 'utf8')
      .then((text) => JSON.parse(text) as AlertsFile)
      .catch((err: unknown) => {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        return { subscriptions: [], deliveries: [] };
      })
      .then((data) => (this.data = data))
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  /**
   * Writes the whole file after a change; resolves when it is durable. After a failed write the
   * memory is dropped and read again from the file, so nothing unwritten is answered later.
   */
  private save(): Promise<void> {
    const text = jsonFileText(this.data);
    const run = this.writes.then(() => writeFileDurably(this.file, text));
    this.writes = run.catch(() => {
      this.data = null;
    });
    return run;
  }

  async add(
    sub: AlertSubscription,
  ): Promise<{ created: boolean; subscription: AlertSubscription }> {
    const data = await this.load();
    const existing = data.subscriptions.find((s) => keyOf(s) === keyOf(sub));
    if (existing) return { created: false, subscription: { ...existing } };
    data.subscriptions.push({ ...sub });
    await this.save();
    return { created: true, subscription: { ...sub } };
  }

  async confirm(id: string, now: Date): Promise<AlertSubscription | null> {
    const data = await this.load();
    const sub = data.subscriptions.find((s) => s.id === id);
    if (!sub) return null;
    if (sub.confirmedAt === null) {
      sub.confirmedAt = now.toISOString();
      await this.save();
    }
    return { ...sub };
  }

  async remove(id: string): Promise<boolean> {
    const data = await this.load();
    const before = data.subscriptions.length;
    data.subscriptions = data.subscriptions.filter((s) => s.id !== id);
    if (data.subscriptions.length === before) return false;
    await this.save();
    return true;
  }

  async confirmed(): Promise<AlertSubscription[]> {
    const data = await this.load();
    return data.subscriptions
      .filter((s) => s.confirmedAt !== null)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((s) => ({ ...s }));
  }

  async record(entry: AlertDelivery): Promise<boolean> {
    const data = await this.load();
    if (
      data.deliveries.some(
        (d) => d.subscriptionId === entry.subscriptionId && d.crossing === entry.crossing,
      )
    )
      return false;
    data.deliveries.push({ ...entry });
    await this.save();
    return true;
  }

  async delivered(subscriptionId: string, crossing: string, sentAt: Date): Promise<void> {
    const data = await this.load();
    const d = data.deliveries.find(
      (x) => x.subscriptionId === subscriptionId && x.crossing === crossing,
    );
    if (!d || d.sentAt !== null) return;
    d.sentAt = sentAt.toISOString();
    await this.save();
  }

  async undelivered(): Promise<AlertDelivery[]> {
    const data = await this.load();
    return data.deliveries.filter((d) => d.sentAt === null).map((d) => ({ ...d }));
  }
}
