/**
 * Sending e-mail: through SMTP when SMTP_URL is set (`smtp://user:pass@host:587`, `smtps://…:465`;
 * nodemailer, the maintained standard for SMTP in Node, handles STARTTLS, auth and encodings),
 * else each message is written as an .eml file (RFC 5322, as nodemailer would send it) into
 * `<DATA_DIR>/outbox/`, atomically and owner-only (0600): the embedded default, where an operator
 * or a test reads them.
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { writeFileDurably } from '../../platform/files/durable.ts';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message (or its file is written). */
  send(mail: OutgoingMail): Promise<void>;
  /** "smtp://host:port" or the outbox folder, for the log. */
  readonly target: string;
  close(): void;
}

export const OUTBOX_DIR = 'outbox';

export function createMailer(options: { smtpUrl: string | undefined; dataDir: string }): Mailer {
  if (options.smtpUrl !== undefined && options.smtpUrl.trim() !== '') {
    const url = new URL(options.smtpUrl);
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
      throw new Error(`SMTP_URL must start with smtp:// or smtps://, got "${url.protocol}"`);
    // Bounded waits, so that a send ends (or fails) well within the outbox's lease (pg-outbox.ts).
    const transport = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
    return {
      target: `${url.protocol}//${url.host}`,
      send: async (mail) => {
        await transport.sendMail(mail);
      },
      close: () => transport.close(),
    };
  }
  const dir = path.join(options.dataDir, OUTBOX_DIR);
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    target: dir,
    send: async (mail) => {
      const info = await composer.sendMail(mail);
      // The messages hold the savers' addresses: owner-only, like the user-data files.
      await mkdir(dir, { recursive: true, mode: 0o700 });
      // Sorted by time when listed; the random part keeps two messages of one millisecond apart.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
      await writeFileDurably(path.join(dir, name), info.message as Buffer, 0o600);
    },
    close: () => composer.close(),
  };
}
