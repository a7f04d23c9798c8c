/**
 * The contract test: calls every path and method of the route table (@yield/contract) for each
 * answer it documents, success and error alike, and checks every body against its zod schema
 * (strict: a field the schema lacks fails) and against /api/openapi.json (every field the API
 * sends is documented there, with its type). It also checks that the app serves exactly the
 * routes of the table.
 */
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import type { Test } from 'supertest';
import type Router from '@koa/router';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiErrorSchema,
  COMMON_ERROR_CODES,
  endpoints,
  errorCodesOf,
  SERVER_RESPONSES,
  STRATEGY_SLUGS,
  type EndpointName,
  type EndpointSpec,
} from '@yield/contract';
import { createInvite } from '../src/modules/premium/invite-codes.ts';
import { signPremiumToken } from '../src/modules/premium/tokens.ts';
import { SignInLinks } from '../src/modules/premium/sign-in.ts';
import { signAlertToken } from '../src/platform/email-links/links.ts';
import {
  editFile,
  outboxMails,
  setup,
  tempDataDir,
  TEST_SECRET,
  type TestContext,
} from './helpers.ts';

interface Answer {
  /** null: not an endpoint of the table (unknown path, wrong method, internal error). */
  endpoint: EndpointName | null;
  request: string;
  status: number;
  contentType: string;
  body: unknown;
  text: string;
}

const answers: Answer[] = [];
type PremiumUserBody = { userId: string; email: string | null };
const UNKNOWN_POOL = '00000000-0000-4000-8000-000000000000';
const specs = endpoints as Record<EndpointName, EndpointSpec>;
const json = 'application/json';

let t: TestContext;
let limited: TestContext;
let broken: TestContext;
/** Gives a JSON body 300 ms (API_BODY_TIMEOUT_MS) before answering 408. */
let slowBodies: TestContext;

async function record(endpoint: EndpointName | null, request: Test): Promise<Answer> {
  const res = await request;
  const req = (request as unknown as { method: string; url: string }).url;
  const answer: Answer = {
    endpoint,
    request: `${(request as unknown as { method: string }).method} ${new URL(req).pathname}${new URL(req).search}`,
    status: res.status,
    contentType: String(res.headers['content-type'] ?? ''),
    body: res.body as unknown,
    text: res.text ?? '',
  };
  answers.push(answer);
  return answer;
}

const post = (ctx: TestContext, url: string, body: unknown, type = json) =>
  ctx.http
    .post(url)
    .set('Content-Type', type)
    .send(typeof body === 'string' ? body : JSON.stringify(body));

/**
 * A POST whose body never arrives, to a real server on 127.0.0.1 (supertest cannot hold a body
 * back): the JSON body reader's 408 after its timeout (`ctx`'s bodyTimeoutMs, here 300 ms).
 */
async function recordBodyTimeout(ctx: TestContext, name: EndpointName, url: string) {
  const server = http.createServer(ctx.app.callback());
  try {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const reply = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write(
          `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${json}\r\nContent-Length: 100\r\n\r\n{"email":`,
        ),
      );
      socket.setEncoding('utf8');
      socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    const [head = '', text = ''] = reply.split('\r\n\r\n');
    answers.push({
      endpoint: name,
      request: `POST ${url} (body never sent)`,
      status: Number(head.split(' ')[1]),
      contentType: /content-type: ([^\r]+)/i.exec(head)?.[1] ?? '',
      body: JSON.parse(text) as unknown,
      text,
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** A GET, then the same GET with the ETag it answered (304). */
async function getTwice(name: EndpointName, url: string): Promise<void> {
  const first = await record(name, t.http.get(url));
  const etag = (await t.http.get(url)).headers.etag as string;
  expect(first.status).toBe(200);
  await record(name, t.http.get(url).set('If-None-Match', etag));
}

beforeAll(async () => {
  t = await setup();
  limited = await setup({
    rateLimit: { max: 1, windowMs: 60_000 },
    asOf: { rateLimitMax: 1, precompute: false },
  });
  slowBodies = await setup({ bodyTimeoutMs: 300 });
  // Data files broken before start (their endpoints answer 503), runtime files broken later.
  const dir = await tempDataDir();
  for (const file of ['settings.json', 'sources.json', 'strategy-content.json'])
    await writeFile(path.join(dir, file), '{"broken": true}');
  broken = await setup({ dir });

  await record('health', t.http.get('/api/health'));
  await getTwice('settings', '/api/settings');
  await getTwice('sources', '/api/sources');
  await getTwice('strategies', '/api/strategies');
  await getTwice('baseRates', '/api/baserate');
  await getTwice('strategies', '/api/strategies?asOf=2026-01-15');
  await getTwice('baseRates', '/api/baserate?asOf=2026-01-15');
  await record('strategies', t.http.get('/api/strategies?asOf=2026-13-01'));
  await record('strategies', t.http.get('/api/strategies?asOf=2000-01-01'));
  await record('baseRates', t.http.get('/api/baserate?asOf=2999-01-01'));
  await getTwice('trackRecord', '/api/track-record');
  await record('trackRecord', t.http.get('/api/track-record?format=csv'));
  await record('trackRecord', t.http.get('/api/track-record?format=pdf'));
  await getTwice('scannerTrackRecord', '/api/track-record/scanner');
  await record('scannerTrackRecord', t.http.get('/api/track-record/scanner?format=csv'));
  await record('scannerTrackRecord', t.http.get('/api/track-record/scanner?format=pdf'));
  await getTwice('history', '/api/history?id=3&range=30D');
  await record('history', t.http.get('/api/history?id=base-defi&range=180D'));
  await record('history', t.http.get('/api/history?id=abc&range=30D'));
  await record('history', t.http.get('/api/history?id=3'));
  await record('earnings', t.http.get('/api/earnings?id=3&amount=1000&range=30D'));
  await record('earnings', t.http.get('/api/earnings?id=13&amount=2.5&range=180D'));
  for (const query of ['id=abc&amount=1&range=30D', 'id=3&amount=0&range=7D', 'id=3&range=7D'])
    await record('earnings', t.http.get(`/api/earnings?${query}`));
  await record('netYield', t.http.get('/api/net-yield?id=3&amount=1000&days=30'));
  await record('netYield', t.http.get('/api/net-yield?id=13&amount=2.5&days=365'));
  for (const query of ['id=abc&amount=1&days=30', 'id=3&amount=0&days=30', 'id=3&amount=1&days=0'])
    await record('netYield', t.http.get(`/api/net-yield?${query}`));
  await record('netYieldRanking', t.http.get('/api/net-yield/ranking?amount=500&days=90'));
  for (const query of ['amount=abc&days=30', 'amount=500&days=36501'])
    await record('netYieldRanking', t.http.get(`/api/net-yield/ranking?${query}`));
  await getTwice('breakdown', '/api/strategies/5/breakdown');
  await record('breakdown', t.http.get('/api/strategies/base-stablecoin/breakdown'));
  await record('breakdown', t.http.get('/api/strategies/abc/breakdown'));
  await record('breakdown', t.http.get('/api/strategies/999/breakdown'));
  await record('breakdown', t.http.get('/api/strategies/5/breakdown?asOf=2026-03-01'));
  await record('breakdown', t.http.get('/api/strategies/5/breakdown?asOf=03/01/2026'));
  await getTwice('strategyContent', '/api/strategy-content/lido');
  for (const slug of STRATEGY_SLUGS)
    await record('strategyContent', t.http.get(`/api/strategy-content/${slug}`));
  await record('strategyContent', t.http.get('/api/strategy-content/aave'));

  await record('mailSignup', post(t, '/api/addToMailList', { email: 'contract@example.com' }));
  await record('mailSignup', post(t, '/api/addToMailList', { email: 'Contract@Example.com' }));
  await record('mailSignup', post(t, '/api/addToMailList', { email: 'not-an-address' }));
  await record('mailSignup', post(t, '/api/addToMailList', '{"email":'));
  await record(
    'mailSignup',
    post(t, '/api/addToMailList', { email: 'a@example.com', pad: 'x'.repeat(17 * 1024) }),
  );
  await record('mailSignup', post(t, '/api/addToMailList', 'a@example.com', 'text/plain'));

  const entryId = t.deps.store.get('mailingList')!.entries[0]!.id!;
  const listLink = (ctx: TestContext, action: 'confirm' | 'unsubscribe', id = entryId) =>
    `/api/mailing-list/${action}?token=${signAlertToken(ctx.deps.alerts.ctx.secret, action, id, action === 'confirm' ? new Date(Date.now() + 60_000) : null)}`;
  await record('mailConfirm', t.http.get(listLink(t, 'confirm')));
  await record('mailConfirm', t.http.get('/api/mailing-list/confirm?token=forged.token'));
  await record('mailConfirm', t.http.get(listLink(t, 'confirm', 'no-such-entry')));
  await record('mailUnsubscribe', t.http.get(listLink(t, 'unsubscribe')));
  await record('mailUnsubscribe', t.http.get('/api/mailing-list/unsubscribe'));

  const alert = { email: 'alert@example.com', sourceId: 3, kind: 'below-base' };
  await record('alertSubscribe', post(t, '/api/alerts', alert));
  await record('alertSubscribe', post(t, '/api/alerts', { ...alert, email: 'nope' }));
  await record('alertSubscribe', post(t, '/api/alerts', { ...alert, sourceId: 999 }));
  await record('alertSubscribe', post(t, '/api/alerts', { ...alert, pad: 'x'.repeat(17e3) }));
  await record('alertSubscribe', post(t, '/api/alerts', 'x', 'text/plain'));
  await record('alertSubscribe', post(t, '/api/alerts', { ...alert, kind: 'warning' }));
  await record('alertSubscribe', post(t, '/api/alerts', { ...alert, kind: 'rumour' }));
  const alertId = t.deps.store.get('alerts')!.subscriptions[0]!.id;
  const link = (ctx: TestContext, action: 'confirm' | 'unsubscribe', id = alertId) =>
    `/api/alerts/${action}?token=${signAlertToken(ctx.deps.alerts.ctx.secret, action, id, action === 'confirm' ? new Date(Date.now() + 60_000) : null)}`;
  await record('alertConfirm', t.http.get(link(t, 'confirm')));
  await record('alertConfirm', t.http.get('/api/alerts/confirm?token=forged.token'));
  await record('alertConfirm', t.http.get(link(t, 'confirm', 'no-such-alert')));
  await record('alertUnsubscribe', t.http.get(link(t, 'unsubscribe')));
  await record('alertUnsubscribe', t.http.get('/api/alerts/unsubscribe'));
  await record(
    'alertUnsubscribeOneClick',
    post(
      t,
      link(t, 'unsubscribe'),
      'List-Unsubscribe=One-Click',
      'application/x-www-form-urlencoded',
    ),
  );
  await record('alertUnsubscribeOneClick', t.http.post('/api/alerts/unsubscribe?token=x.y'));

  await createInvite(t.deps.userData, { code: 'CONTRACT-CODE', maxUses: 10 });
  const invite = await record(
    'premiumInvite',
    post(t, '/api/premium', { inviteCode: 'contract-code' }),
  );
  await record('premiumInvite', post(t, '/api/premium', {}));
  await record('premiumInvite', post(t, '/api/premium', { inviteCode: 'WRONG-CODE' }));
  await record('premiumInvite', post(t, '/api/premium', { inviteCode: 'x'.repeat(17 * 1024) }));
  await record('premiumInvite', post(t, '/api/premium', 'inviteCode=x', 'text/plain'));
  const login = { email: 'member@example.com', inviteCode: 'CONTRACT-CODE' };
  // Without the caller's own token: no token, a sign-in link is mailed (new or bound email alike).
  await record('premiumLogin', post(t, '/api/premiumLogin', login));
  await record('premiumLogin', post(t, '/api/premiumLogin', login));
  const inviteToken = (invite.body as { token: string; user: PremiumUserBody }).token;
  const own = { email: 'own@example.com', inviteCode: 'CONTRACT-CODE' };
  await record(
    'premiumLogin',
    post(t, '/api/premiumLogin', own).set('Authorization', `Bearer ${inviteToken}`),
  );
  const [signInMail] = await outboxMails(t.dir, login.email);
  const signInUrl = new URL(
    /https?:\/\/\S+\/api\/premium\/sign-in\?token=\S+/.exec(signInMail!.text!)![0],
  );
  await record('premiumSignIn', t.http.get(signInUrl.pathname + signInUrl.search));
  await record('premiumSignIn', t.http.get(signInUrl.pathname + signInUrl.search));
  await record('premiumSignIn', t.http.get('/api/premium/sign-in?token=not-a-token'));
  // The button of a used link: a new one for the own user (no link yet), then not so soon again.
  const ownUser = { ...(invite.body as { user: PremiumUserBody }).user, ...own } as const;
  const ownLink = new URL(
    new SignInLinks(t.deps).link(
      { ...ownUser, inviteId: 'any', createdAt: '', lastLoginAt: '' },
      own.email,
      'http://localhost',
    ),
  );
  await record('premiumSignInRenew', t.http.post(ownLink.pathname + ownLink.search));
  await record('premiumSignInRenew', t.http.post(ownLink.pathname + ownLink.search));
  await record('premiumSignInRenew', t.http.post('/api/premium/sign-in?token=not-a-token'));
  const nobody = {
    userId: 'no-such-user',
    inviteId: 'none',
    email: 'nobody@example.com',
    createdAt: new Date().toISOString(),
    lastLoginAt: new Date().toISOString(),
  };
  const unknownUser = new URL(
    new SignInLinks(t.deps).link(nobody, nobody.email, 'http://localhost'),
  );
  await record('premiumSignIn', t.http.get(unknownUser.pathname + unknownUser.search));
  await record('premiumSignInRenew', t.http.post(unknownUser.pathname + unknownUser.search));
  await record('premiumLogin', post(t, '/api/premiumLogin', { ...login, email: 'nope' }));
  await record('premiumLogin', post(t, '/api/premiumLogin', { ...login, inviteCode: 'WRONG' }));
  await record('premiumLogin', post(t, '/api/premiumLogin', { ...login, pad: 'x'.repeat(17e3) }));
  await record('premiumLogin', post(t, '/api/premiumLogin', 'x', 'text/plain'));

  const token = (invite.body as { token: string }).token;
  for (const id of ['3', 'lido', 'base-defi', 'strategy', '42', 'a.b'])
    await record(
      'premiumAnalysis',
      t.http.get(`/api/premium/strategies/${id}`).set('Authorization', `Bearer ${token}`),
    );
  await record('premiumAnalysis', t.http.get('/api/premium/strategies/3'));

  await getTwice('scanner', '/api/scanner?asset=USDC&sort=apy');
  const bearer = `Bearer ${token}`;
  await record('scanner', t.http.get('/api/scanner?limit=200').set('Authorization', bearer));
  await record('scanner', t.http.get('/api/scanner?format=csv').set('Authorization', bearer));
  await record('scanner', t.http.get('/api/scanner?format=csv'));
  await record('scanner', t.http.get('/api/scanner?assets=USDC'));
  await record('scanner', t.http.get('/api/scanner?limit=0'));
  const firstPool = (
    (await t.http.get('/api/scanner?limit=1')).body as { items: { pool: string }[] }
  ).items[0]!.pool;
  await getTwice('poolHistory', `/api/scanner/pools/${firstPool}/history`);
  await record('poolHistory', t.http.get('/api/scanner/pools/xyz/history'));
  await record('poolHistory', t.http.get(`/api/scanner/pools/${UNKNOWN_POOL}/history`));

  const report = {
    remote: 'mfe_strategy',
    release: '0123456789ab',
    module: './Page',
    kind: 'load',
  };
  await record('remoteErrors', post(t, '/api/remote-errors', report));
  await record('remoteErrors', post(t, '/api/remote-errors', { ...report, release: 'v1' }));
  await record('remoteErrors', post(t, '/api/remote-errors', '{"remote":'));
  await record(
    'remoteErrors',
    post(t, '/api/remote-errors', { ...report, pad: 'x'.repeat(3 * 1024) }),
  );
  await record('remoteErrors', post(t, '/api/remote-errors', 'load', 'text/plain'));

  await getTwice('openApi', '/api/openapi.json');
  await record('docs', t.http.get('/api/docs'));
  await getTwice('docsScript', '/api/docs/redoc.standalone.js');

  for (const [name, url, body] of [
    ['mailSignup', '/api/addToMailList', { email: 'limit@example.com' }],
    ['premiumInvite', '/api/premium', { inviteCode: 'NOPE-NOPE' }],
    ['premiumLogin', '/api/premiumLogin', { email: 'a@example.com', inviteCode: 'NOPE' }],
    ['alertSubscribe', '/api/alerts', { email: 'a@example.com', sourceId: 1, kind: 'stale' }],
    ['remoteErrors', '/api/remote-errors', report],
  ] as const) {
    await post(limited, url, body);
    await record(name, post(limited, url, body));
  }
  // One past day not computed yet allowed: the next ones are refused (a kept one never is).
  await record('strategies', limited.http.get('/api/strategies?asOf=2026-01-15'));
  await record('strategies', limited.http.get('/api/strategies?asOf=2026-01-16'));
  await record('baseRates', limited.http.get('/api/baserate?asOf=2026-01-16'));
  await record('breakdown', limited.http.get('/api/strategies/5/breakdown?asOf=2026-01-16'));

  for (const [name, url] of [
    ['mailSignup', '/api/addToMailList'],
    ['alertSubscribe', '/api/alerts'],
    ['premiumInvite', '/api/premium'],
    ['premiumLogin', '/api/premiumLogin'],
    ['remoteErrors', '/api/remote-errors'],
  ] as const)
    await recordBodyTimeout(slowBodies, name, url);

  for (const [name, url] of [
    ['settings', '/api/settings'],
    ['sources', '/api/sources'],
    ['strategies', '/api/strategies'],
    ['baseRates', '/api/baserate'],
    ['history', '/api/history?id=3&range=7D'],
    ['earnings', '/api/earnings?id=3&amount=100&range=7D'],
    ['netYield', '/api/net-yield?id=3&amount=100&days=7'],
    ['netYieldRanking', '/api/net-yield/ranking?amount=100&days=7'],
    ['breakdown', '/api/strategies/3/breakdown'],
    ['strategyContent', '/api/strategy-content/lido'],
    ['scanner', '/api/scanner'],
    ['trackRecord', '/api/track-record'],
    ['scannerTrackRecord', '/api/track-record/scanner'],
    ['strategies', '/api/strategies?asOf=2026-01-15'],
    ['poolHistory', `/api/scanner/pools/${UNKNOWN_POOL}/history`],
  ] as const)
    await record(name, broken.http.get(url));
  await createInvite(broken.deps.userData, { code: 'BROKEN-USERS', maxUses: 10 });
  await editFile(path.join(broken.dir, 'mailing-list.json'), '{"entries": [');
  await editFile(path.join(broken.dir, 'users.json'), '{"users": [');
  await record('mailSignup', post(broken, '/api/addToMailList', { email: 'x@example.com' }));
  await record('mailConfirm', broken.http.get(listLink(broken, 'confirm', 'any')));
  await record('mailUnsubscribe', broken.http.get(listLink(broken, 'unsubscribe', 'any')));
  await record('alertSubscribe', post(broken, '/api/alerts', alert));
  await editFile(path.join(broken.dir, 'alerts.json'), '{"subscriptions": [');
  await record('alertConfirm', broken.http.get(link(broken, 'confirm')));
  await record('alertUnsubscribe', broken.http.get(link(broken, 'unsubscribe')));
  await record('alertUnsubscribeOneClick', broken.http.post(link(broken, 'unsubscribe')));
  await record('premiumInvite', post(broken, '/api/premium', { inviteCode: 'BROKEN-USERS' }));
  await record(
    'premiumLogin',
    post(broken, '/api/premiumLogin', { email: 'x@example.com', inviteCode: 'BROKEN-USERS' }),
  );

  // A database that cannot be reached: a token's user cannot be checked.
  const down = await setup({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none' });
  try {
    const member = { userId: 'some-member', email: null, accessLevel: 'premium' as const };
    await record(
      'premiumAnalysis',
      down.http
        .get('/api/premium/strategies/3')
        .set('Authorization', `Bearer ${signPremiumToken(member, TEST_SECRET)}`),
    );
    const link = new URL(new SignInLinks(down.deps).link(nobody, nobody.email, 'http://localhost'));
    await record('premiumSignIn', down.http.get(link.pathname + link.search));
    await record('premiumSignInRenew', down.http.post(link.pathname + link.search));
  } finally {
    await down.cleanup();
  }

  await record(null, t.http.get('/api/no-such-endpoint'));
  await record(null, t.http.delete('/api/strategies'));
  const original = t.deps.snapshot;
  t.deps.snapshot = () => {
    throw new Error('internal detail');
  };
  try {
    await record(null, t.http.get('/api/sources?via=koa'));
  } finally {
    t.deps.snapshot = original;
  }
}, 60_000);

afterAll(async () => {
  await Promise.all([t.cleanup(), limited.cleanup(), broken.cleanup(), slowBodies.cleanup()]);
});

function zodProblems(
  schema: { safeParse(v: unknown): { success: boolean; error?: unknown } },
  value: unknown,
) {
  const result = schema.safeParse(value);
  return result.success ? null : JSON.stringify(result.error, null, 1).slice(0, 2000);
}

describe('the route table', () => {
  it('lists exactly the paths and methods the app serves', () => {
    const served = new Set<string>();
    for (const middleware of t.app.middleware) {
      const router = (middleware as { router?: Router }).router;
      for (const layer of router?.stack ?? []) {
        for (const method of layer.methods.filter((m) => m !== 'HEAD'))
          served.add(`${method} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`);
      }
    }
    const documented = Object.values(specs).map((s) => `${s.method.toUpperCase()} ${s.path}`);
    expect([...served].sort()).toEqual([...documented].sort());
  });
});

describe('every answer matches its schema', () => {
  it.each(Object.keys(endpoints) as EndpointName[])('%s', (name) => {
    const spec = specs[name];
    const mine = answers.filter((a) => a.endpoint === name);
    // Every answer the table documents was produced at least once (500 is covered below).
    expect([...new Set(mine.map((a) => a.status))].sort()).toEqual(
      Object.keys(spec.responses).map(Number).sort(),
    );
    for (const answer of mine) {
      const documented = spec.responses[answer.status];
      expect(documented, `${answer.request} → ${answer.status} is not documented`).toBeDefined();
      if (answer.status === 304 || answer.status === 204) {
        expect(answer.text).toBe('');
      } else if (documented!.mediaType) {
        expect(answer.contentType).toContain(documented!.mediaType);
      } else if (documented!.csv && answer.contentType.includes('text/csv')) {
        const header: Partial<Record<EndpointName, RegExp>> = {
          trackRecord: /^type,decidedOn,until,/,
          scannerTrackRecord: /^decidedOn,until,days,candidates,group,/,
        };
        expect(answer.text.split('\r\n')[0]).toMatch(header[name] ?? /^pool,project,chain,/);
      } else {
        expect(answer.contentType).toContain(json);
        expect(zodProblems(documented!.schema!, answer.body), answer.request).toBeNull();
      }
    }
  });

  it('answers outside the table (404, 405, 500) are the JSON error', () => {
    const others = answers.filter((a) => a.endpoint === null);
    expect(others.map((a) => a.status)).toEqual([404, 405, 500]);
    for (const answer of others) expect(zodProblems(apiErrorSchema, answer.body)).toBeNull();
  });

  it('a field the schema lacks fails the check', () => {
    const metrics = answers.find((a) => a.endpoint === 'strategies' && a.status === 200)!;
    const [first, ...rest] = metrics.body as Record<string, unknown>[];
    const schema = specs.strategies.responses[200]!.schema!;
    expect(zodProblems(schema, [first, ...rest])).toBeNull();
    expect(zodProblems(schema, [{ ...first, extra: 1 }, ...rest])).toContain('extra');
  });
});

describe('every error code is one its endpoint lists', () => {
  const codeOf = (answer: Answer) => (answer.body as { error?: { code?: unknown } }).error?.code;
  const errors = () => answers.filter((a) => a.status >= 400 && a.contentType.includes(json));

  it.each(Object.keys(endpoints) as EndpointName[])('%s', (name) => {
    const listed: readonly unknown[] = errorCodesOf(specs[name]);
    for (const answer of errors().filter((a) => a.endpoint === name)) {
      expect(listed, `${answer.request} → ${answer.status}`).toContain(codeOf(answer));
      // And among the codes of that very answer.
      expect(specs[name].responses[answer.status]?.codes, answer.request).toContain(codeOf(answer));
    }
  });

  it('answers outside the table carry a common code or not_found', () => {
    const listed: readonly unknown[] = [...COMMON_ERROR_CODES, 'not_found'];
    const others = errors().filter((a) => a.endpoint === null);
    expect(others.map(codeOf)).toEqual(['not_found', 'method_not_allowed', 'internal_error']);
    for (const answer of others) expect(listed).toContain(codeOf(answer));
  });

  it('an answer with a code its entry does not list fails the check', () => {
    const schema = specs.premiumLogin.responses[401]!.schema!;
    const body = (code: string) => ({ success: false, error: { code, message: 'No.' } });
    expect(zodProblems(schema, body('invalid_invite_code'))).toBeNull();
    expect(zodProblems(schema, body('invalid_code'))).not.toBeNull();
    expect(zodProblems(schema, body('invalid_email'))).not.toBeNull();
  });
});

describe('/api/openapi.json', () => {
  const doc = () =>
    answers.find((a) => a.endpoint === 'openApi' && a.status === 200)!.body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: Record<string, unknown>;
    };
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  const validatorFor = (schema: object) => ajv.compile({ ...schema, components: doc().components });
  type Content = { content?: Record<string, { schema: object }> };

  it('documents every path and method of the app, each answer with its status', () => {
    for (const spec of Object.values(specs)) {
      const operation = doc().paths[spec.path]?.[spec.method];
      expect(operation, `${spec.method} ${spec.path}`).toBeDefined();
      // The route's own answers, the server's own (408, 431) and the unexpected 500.
      const statuses = new Set([
        ...Object.keys(spec.responses),
        ...Object.keys(SERVER_RESPONSES),
        '500',
      ]);
      expect(Object.keys(operation!.responses).sort()).toEqual([...statuses].sort());
    }
  });

  it('describes every field of every JSON answer, with its type', () => {
    let checked = 0;
    for (const answer of answers) {
      if (answer.endpoint === null || !answer.contentType.includes(json)) continue;
      const spec = specs[answer.endpoint];
      const response = doc().paths[spec.path]![spec.method]!.responses[answer.status] as Content;
      const schema = response.content?.[json]?.schema;
      expect(schema, `${answer.request} → ${answer.status}`).toBeDefined();
      const validate = validatorFor(schema!);
      expect(validate(answer.body), `${answer.request}: ${ajv.errorsText(validate.errors)}`).toBe(
        true,
      );
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('a field the document lacks fails the check', () => {
    const response = doc().paths['/api/baserate']!.get!.responses['200'] as Content;
    const validate = validatorFor(response.content![json]!.schema);
    const body = answers.find((a) => a.endpoint === 'baseRates' && a.status === 200)!.body;
    expect(validate(body)).toBe(true);
    expect(validate({ ...(body as object), undocumented: true })).toBe(false);
    expect(validate({ ...(body as object), baserateDefi: '4.2' })).toBe(false);
  });
});
