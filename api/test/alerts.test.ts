/**
 * Alerts end to end, through the real HTTP API, a real SMTP server in this process and the
 * importer against the DeFiLlama replay: double opt-in by following the e-mailed link, one e-mail
 * per crossing (never twice: a second import, another evaluation, a restart), none for
 * unconfirmed or unsubscribed addresses; and the outbox folder without SMTP_URL.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { editFile, setup, tempDataDir, type TestContext } from './helpers.ts';
import {
  closeAll,
  importWith,
  NOW,
  openIncident,
  readSources,
  replayAllFeeds,
  strategies,
  TODAY,
} from './import-fixtures.ts';
import { chartBody, dailyPoints, type ReplayServer } from './replay-server.ts';
import { linkIn, startInbox, type Inbox } from './smtp-inbox.ts';

const PUBLIC_URL = 'https://alerts.example';

let t: TestContext | undefined;
let server: ReplayServer | undefined;
let inbox: Inbox | undefined;
afterEach(async () => {
  await inbox?.close();
  await closeAll(t, server);
  [t, server, inbox] = [undefined, undefined, undefined];
});

interface SourceRow {
  id: number;
  name: string;
  type: 'stablecoin' | 'defi';
  isBaseRate: boolean;
  feeds: { provider: string; pool?: string }[];
}

/**
 * The first source with a DeFiLlama feed in sources.json (the one the test moves around its base
 * rate).
 */
async function importedSource(ctx: TestContext) {
  const sources = (await ctx.http.get('/api/sources').expect(200)).body as SourceRow[];
  const llama = (s: SourceRow) => s.feeds.find((f) => f.provider === 'defillama');
  const pick = sources.find((s) => !s.isBaseRate && llama(s))!;
  return { ...pick, pool: llama(pick)!.pool! };
}

/** The source's and its base rate's risk-adjusted 30-day APR as the API serves them. */
async function figures(ctx: TestContext, source: SourceRow) {
  const row = (await strategies(ctx)).find((s) => s.id === source.id)!;
  const rates = (await ctx.http.get('/api/baserate').expect(200)).body as Record<string, number>;
  const baseRa =
    source.type === 'stablecoin'
      ? rates.baserateRiskAdjustedStable!
      : rates.baserateRiskAdjustedDefi!;
  return { status: row.status, ra: row.riskAdjustedYield30d, baseRa };
}

/** 60 days of a constant APY ending today, as DeFiLlama would answer. */
const constantApy = (apy: number) => ({
  kind: 'json' as const,
  body: chartBody(dailyPoints({ lastDay: TODAY, days: 60, apy, tvlUsd: 2e8 })),
});

const subscribe = (ctx: TestContext, email: string, sourceId: number, kind = 'below-base') =>
  ctx.http
    .post('/api/alerts')
    .set('Content-Type', 'application/json')
    .send(JSON.stringify({ email, sourceId, kind }));

/** Opens an e-mailed link of the site (PUBLIC_URL) on the running API. */
const follow = (ctx: TestContext, link: URL) => {
  expect(link.origin).toBe(PUBLIC_URL);
  return ctx.http.get(`${link.pathname}${link.search}`);
};

const alertsTo = (box: Inbox, email: string) =>
  box.to(email).filter((m) => !(m.subject ?? '').startsWith('Confirm'));

describe('alerts over SMTP', () => {
  it('double opt-in, exactly one e-mail per crossing, none for unconfirmed or unsubscribed', async () => {
    inbox = await startInbox();
    t = await setup({ now: () => NOW, smtpUrl: inbox.url, publicUrl: PUBLIC_URL });
    server = await replayAllFeeds(t.dir);
    const source = await importedSource(t);
    server.set(source.pool, constantApy(12));
    expect((await importWith(t, server)).written).toBe(true);
    await t.deps.alerts.settled();
    const before = await figures(t, source);
    expect(before.status).toBe('ok');
    expect(before.ra).toBeGreaterThan(before.baseRa);

    // Three addresses: A confirms, B never does, C confirms and then unsubscribes.
    for (const email of ['Saver.A@Example.com', 'saver.b@example.com', 'saver.c@example.com']) {
      const res = await subscribe(t, email, source.id).expect(202);
      expect(res.body).toEqual({
        success: true,
        message: expect.stringMatching(/Check your inbox/),
      });
    }
    // The same subscription again in another letter case: the same neutral answer, still one,
    // and no second confirmation e-mail within 24 hours.
    expect((await subscribe(t, 'saver.a@example.com', source.id).expect(202)).body.message).toMatch(
      /Check your inbox/,
    );
    expect(t.deps.store.get('alerts')!.subscriptions).toHaveLength(3);
    await t.deps.alerts.settled();
    await inbox.waitFor((m) => m.length === 3);
    const confirmation = inbox.to('saver.a@example.com')[0]!;
    expect(confirmation.subject).toContain(source.name);
    expect(confirmation.html).toContain('Confirm the alert');

    const confirmA = await follow(
      t,
      linkIn(confirmation, `${PUBLIC_URL}/api/alerts/confirm?`),
    ).expect(200);
    expect(confirmA.headers['content-type']).toContain('text/html');
    expect(confirmA.text).toContain('Alert confirmed');
    const toC = inbox.to('saver.c@example.com')[0]!;
    await follow(t, linkIn(toC, `${PUBLIC_URL}/api/alerts/confirm?`)).expect(200);
    const bye = await follow(t, linkIn(toC, `${PUBLIC_URL}/api/alerts/unsubscribe?`)).expect(200);
    expect(bye.text).toContain('Unsubscribed');
    // A tampered link is refused and changes nothing.
    const forged = linkIn(inbox.to('saver.b@example.com')[0]!, `${PUBLIC_URL}/api/alerts/confirm?`);
    forged.searchParams.set('token', `${forged.searchParams.get('token')!.slice(0, -2)}xx`);
    expect((await follow(t, forged).expect(400)).text).toContain('Invalid link');
    expect(
      t.deps.store.get('alerts')!.subscriptions.map((s) => [s.email, s.confirmedAt !== null]),
    ).toEqual([
      ['Saver.A@Example.com', true],
      ['saver.b@example.com', false],
    ]);

    // The import that makes the source cross below its base rate.
    server.set(source.pool, constantApy(0.2));
    expect((await importWith(t, server)).written).toBe(true);
    await t.deps.alerts.settled();
    const after = await figures(t, source);
    expect(after.ra).toBeLessThan(after.baseRa);

    await inbox.waitFor(() => alertsTo(inbox!, 'saver.a@example.com').length === 1);
    const alert = alertsTo(inbox, 'saver.a@example.com')[0]!;
    expect(alert.subject).toContain(source.name);
    expect(alert.text).toContain(`${after.ra.toFixed(2)}%`);
    expect(alert.text).toContain(`${after.baseRa.toFixed(2)}%`);
    expect(alert.text).toContain(`As of ${TODAY}`);
    expect(alert.text).toContain(`${PUBLIC_URL}/strategy/${source.id}`);
    const unsubscribe = linkIn(alert, `${PUBLIC_URL}/api/alerts/unsubscribe?`);
    const header = (name: string) =>
      alert.headerLines.find((h) => h.key === name)?.line.replace(/\r?\n\s+/g, ' ');
    expect(header('list-unsubscribe')).toBe(`List-Unsubscribe: <${unsubscribe.toString()}>`);
    expect(header('list-unsubscribe-post')).toBe(
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    );

    // Nothing more: the same import again, another evaluation, a restart.
    await importWith(t, server);
    await t.deps.alerts.evaluate();
    await t.deps.close();
    const restarted = await setup({
      dir: t.dir,
      now: () => NOW,
      smtpUrl: inbox.url,
      publicUrl: PUBLIC_URL,
    });
    t = restarted;
    await restarted.deps.alerts.settled();
    expect(await restarted.deps.alerts.evaluate()).toEqual({ sent: 0, failed: 0 });
    await new Promise((r) => setTimeout(r, 200));
    expect(alertsTo(inbox, 'saver.a@example.com')).toHaveLength(1);
    expect(alertsTo(inbox, 'saver.b@example.com')).toHaveLength(0);
    expect(alertsTo(inbox, 'saver.c@example.com')).toHaveLength(0);
    expect(inbox.messages).toHaveLength(4);

    // The alert's own link unsubscribes in one click.
    expect((await follow(restarted, unsubscribe).expect(200)).text).toContain('Unsubscribed');
    expect(restarted.deps.store.get('alerts')!.subscriptions.map((s) => s.email)).toEqual([
      'saver.b@example.com',
    ]);
  }, 60_000);
});

describe('alerts without SMTP_URL', () => {
  it('writes each message as an .eml file into the outbox of the data directory', async () => {
    t = await setup({ now: () => NOW, smtpUrl: '', publicUrl: PUBLIC_URL });
    await subscribe(t, 'outbox@example.com', 3, 'incident').expect(202);
    await t.deps.alerts.settled();
    const outbox = path.join(t.dir, 'outbox');
    const files = await readdir(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const mail = await simpleParser(await readFile(path.join(outbox, files[0]!)));
    expect(mail.to).toMatchObject({ text: 'outbox@example.com' });
    const confirm = linkIn(mail, `${PUBLIC_URL}/api/alerts/confirm?`);
    expect((await follow(t, confirm).expect(200)).text).toContain('Alert confirmed');
  });
});

describe('a failed send', () => {
  it('stays in the ledger and is sent at the next evaluation, once', async () => {
    t = await setup({ now: () => NOW, smtpUrl: '', publicUrl: PUBLIC_URL });
    await subscribe(t, 'incident@example.com', 3, 'incident').expect(202);
    await t.deps.alerts.settled();
    const outbox = path.join(t.dir, 'outbox');
    const [confirmation] = await readdir(outbox);
    const mail = await simpleParser(await readFile(path.join(outbox, confirmation!)));
    await follow(t, linkIn(mail, `${PUBLIC_URL}/api/alerts/confirm?`)).expect(200);

    // The mail server is down when an incident opens on the source.
    const mailer = t.deps.alerts.ctx.mailer;
    const send = mailer.send;
    mailer.send = () => Promise.reject(new Error('connection refused'));
    const sourceName = await openIncident(t);
    await t.deps.alerts.settled();
    expect(await t.deps.userData.listUndeliveredAlerts()).toEqual([
      expect.objectContaining({ crossing: 'incident:3:2026-11-22:depeg', sentAt: null }),
    ]);
    expect(await readdir(outbox)).toHaveLength(1);

    mailer.send = send;
    expect(await t.deps.alerts.evaluate()).toEqual({ sent: 1, failed: 0 });
    expect(await t.deps.alerts.evaluate()).toEqual({ sent: 0, failed: 0 });
    expect(await t.deps.userData.listUndeliveredAlerts()).toEqual([]);
    const files = (await readdir(outbox)).sort();
    expect(files).toHaveLength(2);
    const alert = await simpleParser(await readFile(path.join(outbox, files[1]!)));
    expect(alert.subject).toBe(`Incident on ${sourceName}: Depeg`);
    expect(alert.text).toContain('The token traded below its peg for a day.');
  });
});

describe('warning alerts (a warning detected from data opens)', () => {
  const USDS = 'ethereum:0xdC035D45d973E3EC169d2276DDab16f1e407384F';
  const SKY = 2;

  /**
   * A confirmed `warning` subscription to Sky Spark (source 2); the outbox holds its confirmation.
   * The shipped rows stand as an operator's (history.json `sample: false`): figures from sample
   * rows raise no alert (docs/decisions.md 45).
   */
  async function subscribed() {
    const dir = await tempDataDir();
    const history = path.join(dir, 'history.json');
    const rows = JSON.parse(await readFile(history, 'utf8')) as Record<string, unknown>;
    await editFile(history, JSON.stringify({ ...rows, sample: false }));
    t = await setup({ dir, now: () => NOW, smtpUrl: '', publicUrl: PUBLIC_URL });
    await subscribe(t, 'warn@example.com', SKY, 'warning').expect(202);
    await t.deps.alerts.settled();
    const outbox = path.join(t.dir, 'outbox');
    const [confirmation] = await readdir(outbox);
    const mail = await simpleParser(await readFile(path.join(outbox, confirmation!)));
    expect(mail.text).toContain('a warning is detected from its data');
    await follow(t, linkIn(mail, `${PUBLIC_URL}/api/alerts/confirm?`)).expect(200);
    const original = JSON.parse(await readFile(path.join(t.dir, 'prices.json'), 'utf8')) as {
      coins: Record<string, { date: string; price: number }[]>;
    };
    return { ctx: t, outbox, original };
  }

  /** Writes prices.json with USDS's sample prices, `price(i)` for its i-th day, cut after `days`. */
  async function usdsPrices(
    ctx: TestContext,
    original: { coins: Record<string, { date: string; price: number }[]> },
    price: (i: number, p: number) => number,
    days?: number,
  ) {
    const usds = original.coins[USDS]!.slice(0, days).map((p, i) => ({
      ...p,
      price: price(i, p.price),
    }));
    const edited = { ...original, coins: { ...original.coins, [USDS]: usds } };
    await editFile(path.join(ctx.dir, 'prices.json'), JSON.stringify(edited));
    expect(await ctx.deps.store.refreshFile('prices')).toBe(true);
    await ctx.deps.alerts.settled();
    return usds;
  }

  const alertsIn = async (outbox: string) => {
    const files = (await readdir(outbox)).sort();
    const mails = await Promise.all(
      files.map(async (f) => simpleParser(await readFile(path.join(outbox, f)))),
    );
    return mails.filter((m) => !(m.subject ?? '').startsWith('Confirm'));
  };

  it('one e-mail when it opens, none at the next evaluation, a new one when it opens again on a later day', async () => {
    const { ctx, outbox, original } = await subscribed();
    expect(await alertsIn(outbox)).toHaveLength(0);
    const n = original.coins[USDS]!.length;

    // USDS at $0.97 on the last three days of a feed that ends 8 days early: a depeg opens.
    const early = await usdsPrices(ctx, original, (i, p) => (i >= n - 11 ? 0.97 : p), n - 8);
    const openedOn = early.at(-3)!.date;
    let mails = await alertsIn(outbox);
    expect(mails).toHaveLength(1);
    const alert = mails[0]!;
    expect(alert.subject).toBe('Sky Spark - Savings Account: Off its peg (detected from data)');
    expect(alert.text).toContain(
      `A warning opened on Sky Spark - Savings Account on ${openedOn}, detected from its data`,
    );
    expect(alert.text).toContain('The token traded at $0.97, 3% below its $1 peg.');
    expect(alert.text).toContain(`Figures on ${openedOn}: price $0.97, 3% below $1.`);
    expect(alert.text).toContain(`${PUBLIC_URL}/strategy/${SKY}`);
    const unsubscribe = linkIn(alert, `${PUBLIC_URL}/api/alerts/unsubscribe?`);
    expect(await ctx.deps.userData.listUndeliveredAlerts()).toEqual([]);
    expect((await ctx.deps.alerts.evaluate())?.sent).toBe(0);

    // The full feed: back at $1 for five days (the warning closes), then $0.97 again from the
    // day before yesterday: a new warning, a new e-mail; the closed one sends nothing.
    const full = await usdsPrices(ctx, original, (i, p) =>
      (i >= n - 11 && i < n - 8) || i >= n - 2 ? 0.97 : i >= n - 8 ? 1 : p,
    );
    mails = await alertsIn(outbox);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain(
      `A warning opened on Sky Spark - Savings Account on ${full.at(-2)!.date}`,
    );
    expect((await ctx.deps.alerts.evaluate())?.sent).toBe(0);
    expect(await alertsIn(outbox)).toHaveLength(2);
    // The e-mail's signed link unsubscribes in one click.
    expect((await follow(ctx, unsubscribe).expect(200)).text).toContain('Unsubscribed');
    expect(ctx.deps.store.get('alerts')!.subscriptions).toEqual([]);
  });

  it('sends nothing for a warning an operator dismissed with a dated note', async () => {
    const { ctx, outbox, original } = await subscribed();
    const usds = original.coins[USDS]!;
    const sources = await readSources(ctx.dir);
    sources.sources.find((s) => s.id === SKY)!.warningDismissals = [
      { kind: 'depeg', openedOn: usds.at(-2)!.date, on: TODAY, note: 'One venue mispriced it.' },
    ];
    await editFile(path.join(ctx.dir, 'sources.json'), JSON.stringify(sources));
    expect(await ctx.deps.store.refreshFile('sources')).toBe(true);
    await ctx.deps.alerts.settled();

    await usdsPrices(ctx, original, (i, p) => (i >= usds.length - 2 ? 0.97 : p));
    const served = (await ctx.http.get('/api/sources').expect(200)).body as {
      id: number;
      warnings: { kind: string; closedOn: string | null; dismissed?: unknown }[];
    }[];
    const depeg = served.find((s) => s.id === SKY)!.warnings.find((w) => w.kind === 'depeg')!;
    expect(depeg).toMatchObject({ closedOn: null, dismissed: { on: TODAY } });
    expect((await ctx.deps.alerts.evaluate())?.sent).toBe(0);
    expect(await alertsIn(outbox)).toHaveLength(0);
  });
});
