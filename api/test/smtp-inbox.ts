/**
 * A real SMTP server in the test process (smtp-server on 127.0.0.1, a free port; plain SMTP with
 * AUTH, as `SMTP_URL=smtp://user:pass@host:port` reaches it) that parses every message it receives
 * (mailparser), so a test reads what a mail client would show.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Inbox {
  /** smtp://user:pass@127.0.0.1:<port> */
  url: string;
  messages: ParsedMail[];
  /** Messages to one address (any letter case). */
  to(address: string): ParsedMail[];
  /**
   * From now on, each message is held after its data arrived, before the server accepts it (an
   * SMTP server slow to answer), until `release()`. A message whose sender hung up meanwhile was
   * never accepted, so it is dropped, as a real server drops it.
   */
  hold(): void;
  release(): void;
  /** Envelope senders of the messages held so far (accepted or not). */
  held: string[];
  /** Whether every sender of a held message has hung up, as the server has seen it by now. */
  heldHungUp(): boolean;
  /** Waits until `predicate` holds over the messages (polls; fails after timeoutMs). */
  waitFor(predicate: (messages: ParsedMail[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export const SMTP_USER = 'alerts';
export const SMTP_PASS = 'smtp-test-pass';

export async function startInbox(): Promise<Inbox> {
  const messages: ParsedMail[] = [];
  const held: string[] = [];
  const heldSessions: string[] = [];
  const closed = new Set<string>();
  let gate: { promise: Promise<void>; open: () => void } | null = null;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASS)
        callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          if (gate) {
            const from = session.envelope.mailFrom;
            held.push(from ? from.address : '');
            heldSessions.push(session.id);
            await gate.promise;
          }
          if (closed.has(session.id)) return;
          messages.push(mail);
          callback();
        })
        .catch((err: Error) => callback(err));
    },
    onClose(session) {
      closed.add(session.id);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const recipients = (m: ParsedMail) =>
    (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) =>
      a.value.map((v) => (v.address ?? '').toLowerCase()),
    );
  return {
    url: `smtp://${SMTP_USER}:${SMTP_PASS}@127.0.0.1:${port}`,
    messages,
    held,
    heldHungUp: () => heldSessions.every((id) => closed.has(id)),
    hold: () => {
      if (gate) return;
      let open!: () => void;
      const promise = new Promise<void>((r) => (open = r));
      gate = { promise, open };
    },
    release: () => {
      gate?.open();
      gate = null;
    },
    to: (address) => messages.filter((m) => recipients(m).includes(address.toLowerCase())),
    waitFor: async (predicate, timeoutMs = 10_000) => {
      const until = Date.now() + timeoutMs;
      while (!predicate(messages)) {
        if (Date.now() > until)
          throw new Error(`inbox: condition not met (${messages.length} messages)`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => {
      gate?.open();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The first link of a message's text that starts with `prefix`. */
export function linkIn(mail: { text?: string | undefined }, prefix: string): URL {
  const m = new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\S+`).exec(
    mail.text ?? '',
  );
  if (!m) throw new Error(`no link ${prefix}… in:\n${mail.text}`);
  return new URL(m[0]);
}
