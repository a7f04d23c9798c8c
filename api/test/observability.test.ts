/**
 * Logs and metrics: each request gives one access line with its request id (echoed in
 * X-Request-Id) and without the tokens or addresses it carried; the logger redacts secrets and
 * addresses; /metrics exposes the documented series, only on its private port or with its token.
 */
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createLogger, parseLogLevel } from '../src/platform/logger.ts';
import { Metrics, startMetricsServer } from '../src/platform/metrics.ts';
import { setup, tempDataDir, TEST_SECRET, type TestContext } from './helpers.ts';
import { createDeps } from '../src/composition/deps.ts';
import { rm } from 'node:fs/promises';
import { closeAll, importWith, NOW, replayAllFeeds } from './import-fixtures.ts';
import type { ReplayServer } from './replay-server.ts';
import { freshDatabase } from './pg-cluster.ts';

let t: TestContext | undefined;
let replay: ReplayServer | undefined;
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
  await closeAll(t, replay);
  t = undefined;
  replay = undefined;
});

const postJson = (ctx: TestContext, url: string, body: unknown) =>
  ctx.http.post(url).set('Content-Type', 'application/json').send(JSON.stringify(body));

const accessLines = (ctx: TestContext) => ctx.logger.lines.filter((l) => l.message === 'request');

/** A stream collecting the JSON lines pino writes. */
function lineSink(): {
  stream: Writable;
  lines: () => Record<string, unknown>[];
  text: () => string;
} {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return {
    stream,
    text: () => text,
    lines: () =>
      text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/** Prometheus text format: `name{labels} value` samples (comments and blank lines skipped). */
function parseMetrics(
  text: string,
): { name: string; labels: Record<string, string>; value: number }[] {
  const samples: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

async function metricsServer(metrics: Metrics, token: string | null = null): Promise<string> {
  const server = await startMetricsServer(metrics, { port: 0, host: '127.0.0.1', token });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
}

async function scrape(url: string, token?: string) {
  const res = await fetch(url, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return parseMetrics(await res.text());
}

describe('request ids and the access log', () => {
  it('one access line per request, with its route pattern and request id, no token, no address', async () => {
    t = await setup({ smtpUrl: '', publicUrl: 'https://alerts.example' });
    const token = 'eyJsecret.link-token.value';

    const fast = await t.http.get('/api/strategies').expect(200);
    const confirm = await t.http.get(`/api/alerts/confirm?token=${token}`);
    const sub = await postJson(t, '/api/alerts', {
      email: 'saver@example.com',
      sourceId: 3,
      kind: 'below-base',
    }).expect(202);
    const missing = await t.http.get('/api/no-such-endpoint').expect(404);

    const lines = accessLines(t);
    expect(lines).toHaveLength(4);
    const ids = [fast, confirm, sub, missing].map((r) => r.headers['x-request-id'] as string);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    expect(new Set(ids).size).toBe(4);
    expect(lines.map((l) => l.fields)).toEqual([
      {
        requestId: ids[0],
        method: 'GET',
        route: '/api/strategies',
        status: 200,
        ms: expect.any(Number),
      },
      {
        requestId: ids[1],
        method: 'GET',
        route: '/api/alerts/confirm',
        status: confirm.status,
        ms: expect.any(Number),
      },
      {
        requestId: ids[2],
        method: 'POST',
        route: '/api/alerts',
        status: 202,
        ms: expect.any(Number),
      },
      { requestId: ids[3], method: 'GET', route: 'unmatched', status: 404, ms: expect.any(Number) },
    ]);
    const logged = JSON.stringify(t.logger.lines);
    expect(logged).not.toContain(token);
    expect(logged).not.toContain('saver@example.com');
    expect(logged).not.toContain('no-such-endpoint');
  });

  it('keeps a short safe X-Request-Id from the client, replaces anything else', async () => {
    t = await setup();
    const kept = await t.http
      .get('/api/strategies')
      .set('X-Request-Id', 'edge-7f3a.19_x')
      .expect(200);
    expect(kept.headers['x-request-id']).toBe('edge-7f3a.19_x');
    const koa = await t.http.get('/api/health').set('X-Request-Id', 'proxy-42');
    expect(koa.headers['x-request-id']).toBe('proxy-42');
    for (const bad of ['a b', 'x'.repeat(65), '<script>', 'saver@example.com']) {
      const res = await t.http.get('/api/strategies').set('X-Request-Id', bad).expect(200);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    }
    expect(
      accessLines(t)
        .map((l) => l.fields?.requestId)
        .slice(0, 2),
    ).toEqual(['edge-7f3a.19_x', 'proxy-42']);
    expect(JSON.stringify(t.logger.lines)).not.toContain('saver@example.com');
  });

  it('the server logger writes the access line as JSON through pino', async () => {
    const sink = lineSink();
    t = await setup({ logger: createLogger({ destination: sink.stream }) });
    const res = await t.http.get('/api/alerts/confirm?token=tok-abc-123');
    const access = sink.lines().filter((l) => l.message === 'request');
    expect(access).toEqual([
      {
        level: 'info',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        message: 'request',
        requestId: res.headers['x-request-id'],
        method: 'GET',
        route: '/api/alerts/confirm',
        status: res.status,
        ms: expect.any(Number),
      },
    ]);
    expect(sink.text()).not.toContain('tok-abc-123');
  });
});

describe('the logger', () => {
  it('redacts secret and address fields and scrubs addresses from texts', () => {
    const sink = lineSink();
    const logger = createLogger({ destination: sink.stream });
    logger.info('confirmation sent to saver@example.com', {
      email: 'saver@example.com',
      to: 'Saver <saver@example.com>',
      token: 'tok-123',
      detail: 'bounced: mailbox full for other.saver+x@mail.example.org',
      subscription: { email: 'nested@example.com', id: 'sub-1' },
      files: ['alerts.json'],
    });
    const [line] = sink.lines();
    expect(line).toMatchObject({
      level: 'info',
      message: 'confirmation sent to [email]',
      email: '[redacted]',
      to: '[redacted]',
      token: '[redacted]',
      detail: 'bounced: mailbox full for [email]',
      subscription: { email: '[redacted]', id: 'sub-1' },
      files: ['alerts.json'],
    });
    expect(sink.text()).not.toContain('@');
    expect(sink.text()).not.toContain('tok-123');
  });

  it('writes only lines at or above its level', () => {
    const sink = lineSink();
    const logger = createLogger({ level: 'warn', destination: sink.stream });
    logger.info('not written');
    logger.warn('written', { n: 1 });
    expect(sink.lines()).toEqual([
      { level: 'warn', time: expect.any(String), message: 'written', n: 1 },
    ]);
  });
});

describe('settings', () => {
  it('LOG_LEVEL: one of the levels, default info; anything else stops the start', () => {
    expect(parseLogLevel(undefined)).toBe('info');
    expect(parseLogLevel(' WARN ')).toBe('warn');
    expect(() => parseLogLevel('verbose')).toThrow(/LOG_LEVEL must be one of/);
  });

  it('a METRICS_TOKEN shorter than 16 characters stops the start', async () => {
    const dir = await tempDataDir();
    try {
      await expect(
        createDeps({
          dataDir: dir,
          jwtSecret: TEST_SECRET,
          watchIntervalMs: 0,
          metricsToken: 'short',
        }),
      ).rejects.toThrow(/METRICS_TOKEN must be at least 16 characters/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('/metrics', () => {
  it('exposes requests, import ages and outcomes, e-mails, the journal and process metrics', async () => {
    t = await setup({ now: () => NOW, smtpUrl: '', publicUrl: 'https://alerts.example' });
    replay = await replayAllFeeds(t.dir);
    const url = await metricsServer(t.deps.metrics);
    const result = await importWith(t, replay, { metrics: t.deps.metrics });
    await t.deps.store.refreshFile('history');

    await t.http.get('/api/strategies').expect(200);
    await t.http.get('/api/strategies').expect(200);
    await t.http.get('/api/alerts/confirm?token=x').expect((r) => r.status >= 400);
    await postJson(t, '/api/alerts', {
      email: 'm@example.com',
      sourceId: 3,
      kind: 'below-base',
    }).expect(202);
    await t.deps.alerts.settled();

    const samples = await scrape(url);
    const value = (name: string, labels: Record<string, string> = {}) =>
      samples.find(
        (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
      )?.value;

    expect(
      value('http_requests_total', { method: 'GET', route: '/api/strategies', status: '200' }),
    ).toBe(2);
    expect(
      value('http_requests_total', { method: 'POST', route: '/api/alerts', status: '202' }),
    ).toBe(1);
    expect(
      value('http_request_duration_seconds_count', { route: '/api/strategies', status: '200' }),
    ).toBe(2);
    expect(
      value('http_request_duration_seconds_bucket', { route: '/api/strategies', le: '+Inf' }),
    ).toBe(2);
    // Bounded labels: route patterns, never raw paths or query strings.
    const routes = new Set(samples.filter((s) => s.labels.route).map((s) => s.labels.route));
    expect([...routes].sort()).toEqual(['/api/alerts', '/api/alerts/confirm', '/api/strategies']);

    // Every imported series has an age (seconds since its import, by source id).
    const fed = result.feeds.map((f) => f.series);
    expect(fed.length).toBeGreaterThan(0);
    const ages = samples.filter((s) => s.name === 'yield_import_series_age_seconds');
    expect(ages.map((s) => s.labels.source).sort()).toEqual([...new Set(fed)].sort());
    for (const a of ages) expect(a.value).toBeGreaterThanOrEqual(0);
    expect(value('yield_pools_snapshot_age_seconds')).toBeGreaterThanOrEqual(0);
    for (const f of result.feeds) {
      expect(
        value('yield_import_feed_runs_total', { feed: f.series, outcome: f.ok ? 'ok' : 'failed' }),
      ).toBeGreaterThanOrEqual(1);
    }
    expect(value('yield_emails_total', { kind: 'confirmation', outcome: 'sent' })).toBe(1);
    expect(value('yield_journal_pending_entries')).toBeGreaterThanOrEqual(1);
    expect(value('yield_journal_last_compaction_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(value('yield_journal_write_failures_total')).toBe(0);
    // prom-client's default process metrics.
    expect(value('process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    expect(value('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(value('nodejs_eventloop_lag_seconds')).toBeDefined();
  });

  it('counts a failed feed and failed e-mail sends', async () => {
    t = await setup({ now: () => NOW, smtpUrl: '', publicUrl: 'https://alerts.example' });
    replay = await replayAllFeeds(t.dir);
    const url = await metricsServer(t.deps.metrics);
    const mailer = t.deps.alerts.ctx.mailer;
    mailer.send = () => Promise.reject(new Error('connection refused'));
    await postJson(t, '/api/alerts', {
      email: 'f@example.com',
      sourceId: 3,
      kind: 'below-base',
    }).expect(202);
    await t.deps.alerts.settled();
    const firstFeed = (await importWith(t, replay, { metrics: t.deps.metrics })).feeds[0]!;
    replay.set(firstFeed.pool!, { kind: 'raw', status: 500, body: 'down' });
    await importWith(t, replay, { metrics: t.deps.metrics });

    const samples = await scrape(url);
    const value = (name: string, labels: Record<string, string>) =>
      samples.find(
        (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
      )?.value;
    expect(value('yield_emails_total', { kind: 'confirmation', outcome: 'retried' })).toBe(1);
    expect(value('yield_import_feed_runs_total', { feed: firstFeed.series, outcome: 'ok' })).toBe(
      1,
    );
    expect(
      value('yield_import_feed_runs_total', { feed: firstFeed.series, outcome: 'failed' }),
    ).toBe(1);
  });

  it('shows the PostgreSQL pool: total, idle, waiting', async () => {
    const databaseUrl = await freshDatabase(inject('pgBaseUrl'));
    t = await setup({ databaseUrl });
    const url = await metricsServer(t.deps.metrics);
    await postJson(t, '/api/addToMailList', {
      email: 'pool@example.com',
      source: 'newsletter',
    }).expect(202);
    const samples = await scrape(url);
    const pool = Object.fromEntries(
      samples
        .filter((s) => s.name === 'yield_pg_pool_connections')
        .map((s) => [s.labels.state, s.value]),
    );
    expect(pool).toEqual({ total: expect.any(Number), idle: expect.any(Number), waiting: 0 });
    expect(pool.total).toBeGreaterThanOrEqual(1);
    expect(pool.idle).toBeLessThanOrEqual(pool.total!);
    // The file journal is not in use.
    expect(samples.some((s) => s.name === 'yield_journal_pending_entries')).toBe(false);
  });

  it('asks for its token when one is set, answers nothing else', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const token = 'metrics-token-0123456789';
    const url = await metricsServer(metrics, token);
    const none = await fetch(url);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({
      error: { code: 'unauthorized', message: expect.any(String) },
    });
    const wrong = await fetch(url, {
      headers: { Authorization: 'Bearer metrics-token-0123456788' },
    });
    expect(wrong.status).toBe(401);
    expect(await scrape(url, token)).toEqual(expect.any(Array));
    const other = await fetch(url.replace('/metrics', '/api/strategies'));
    expect(other.status).toBe(404);
  });
});
