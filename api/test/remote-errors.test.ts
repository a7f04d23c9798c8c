/**
 * POST /api/remote-errors: browsers' reports of a remote's load or render errors are counted in
 * remote_errors_total and handed to the sink with the visitor of the release_visitor cookie;
 * bad fields are 400 invalid_request naming the field, bodies over 2 KB 413, and the reports of
 * one client are rate limited like the other public POSTs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Metrics, REMOTE_RELEASE_LABELS } from '../src/platform/metrics.ts';
import type { RemoteErrorSink } from '../src/modules/remote-errors/index.ts';
import { setup, type TestContext } from './helpers.ts';

const URL = '/api/remote-errors';
const RELEASE = '0123456789ab';
const REPORT = {
  remote: 'mfe_strategy',
  release: RELEASE,
  module: './StrategyPage',
  kind: 'render',
  message: 'Cannot read properties of undefined',
};

type Call = Parameters<RemoteErrorSink['report']>;

let t: TestContext | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

/** A test API whose sink records each report it is given. */
async function start(options: Parameters<typeof setup>[0] = {}) {
  const calls: Call[] = [];
  const metrics = new Metrics({ processMetrics: false });
  const sink: RemoteErrorSink = { report: (...args) => void calls.push(args) };
  t = await setup({ metrics, remoteErrors: sink, ...options });
  return { t, calls, metrics };
}

const post = (ctx: TestContext, body: unknown, cookie?: string) => {
  const req = ctx.http.post(URL).set('Content-Type', 'application/json');
  if (cookie) req.set('Cookie', cookie);
  return req.send(typeof body === 'string' ? body : JSON.stringify(body));
};

/** The value of remote_errors_total for these labels (0 when the series does not exist). */
async function counted(metrics: Metrics, labels: Record<string, string>): Promise<number> {
  const metric = await metrics.registry.getSingleMetric('remote_errors_total')!.get();
  const sample = metric.values.find((v) =>
    Object.entries(labels).every(([k, value]) => v.labels[k] === value),
  );
  return sample?.value ?? 0;
}

async function total(metrics: Metrics): Promise<number> {
  const metric = await metrics.registry.getSingleMetric('remote_errors_total')!.get();
  return metric.values.reduce((sum, v) => sum + v.value, 0);
}

describe('POST /api/remote-errors', () => {
  it('answers 204, counts the report and hands it to the sink with the visitor of the cookie', async () => {
    const { t, calls, metrics } = await start();
    const res = await post(t, REPORT, 'theme=dark; release_visitor=AbC_d-123xyz');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(calls).toEqual([['mfe_strategy', RELEASE, 'AbC_d-123xyz', 'render']]);
    const labels = { remote: 'mfe_strategy', release: RELEASE, kind: 'render' };
    expect(await counted(metrics, labels)).toBe(1);

    // Without the cookie the visitor is ''; a remote served from elsewhere has release null.
    const external = { remote: 'mfe_content', release: null, module: './Landing', kind: 'load' };
    expect((await post(t, external)).status).toBe(204);
    expect(calls[1]).toEqual(['mfe_content', null, '', 'load']);
    expect(
      await counted(metrics, { remote: 'mfe_content', release: 'external', kind: 'load' }),
    ).toBe(1);
    expect(await counted(metrics, labels)).toBe(1);
  });

  it('refuses each bad field with 400 invalid_request naming it, and counts nothing', async () => {
    const { t, calls, metrics } = await start();
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ ...REPORT, remote: 'mfe_unknown' }, /^remote /],
      [{ ...REPORT, remote: 'MFE_STRATEGY' }, /^remote /],
      [{ ...REPORT, remote: undefined }, /^remote /],
      [{ ...REPORT, release: '0123456789AB' }, /^release /],
      [{ ...REPORT, release: '0123456789a' }, /^release /],
      [{ ...REPORT, release: '0123456789abc' }, /^release /],
      [{ ...REPORT, release: 123456789012 }, /^release /],
      [{ ...REPORT, release: undefined }, /^release /],
      [{ ...REPORT, module: '' }, /^module /],
      [{ ...REPORT, module: 'm'.repeat(101) }, /^module /],
      [{ ...REPORT, module: 7 }, /^module /],
      [{ ...REPORT, kind: 'crash' }, /^kind /],
      [{ ...REPORT, kind: undefined }, /^kind /],
      [{ ...REPORT, message: 'x'.repeat(501) }, /^message /],
      [{ ...REPORT, message: { text: 'no' } }, /^message /],
    ];
    for (const [body, message] of bad) {
      const res = await post(t, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ error: { code: 'invalid_request', message: expect.any(String) } });
      expect((res.body as { error: { message: string } }).error.message).toMatch(message);
    }
    const json = await post(t, '{"remote":');
    expect(json.status).toBe(400);
    expect((json.body as { error: { code: string } }).error.code).toBe('invalid_json');
    const array = await post(t, '[]');
    expect((array.body as { error: { code: string } }).error.code).toBe('invalid_request');
    const text = await t.http.post(URL).set('Content-Type', 'text/plain').send('oops');
    expect(text.status).toBe(415);

    // The longest fields allowed are accepted.
    const longest = { ...REPORT, module: 'm'.repeat(100), message: 'x'.repeat(500) };
    expect((await post(t, longest)).status).toBe(204);
    expect(calls).toHaveLength(1);
    expect(await total(metrics)).toBe(1);
  });

  it('refuses a body over 2 KB with 413 and closes the connection', async () => {
    const { t, calls, metrics } = await start();
    // Unknown fields are dropped: under 2 KB such a body is a report like any other.
    const under = await post(t, { ...REPORT, pad: 'p'.repeat(1800) });
    expect(under.status).toBe(204);
    const over = await post(t, { ...REPORT, pad: 'p'.repeat(2100) });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({
      error: { code: 'payload_too_large', message: 'Request body exceeds 2048 bytes' },
    });
    expect(over.headers.connection).toBe('close');
    expect(calls).toHaveLength(1);
    expect(await total(metrics)).toBe(1);
  });

  it("answers 429 with Retry-After past the client's limit, without counting", async () => {
    const { t, calls, metrics } = await start({ rateLimit: { max: 3, windowMs: 60_000 } });
    for (let i = 0; i < 3; i++) expect((await post(t, REPORT)).status).toBe(204);
    const limited = await post(t, REPORT);
    expect(limited.status).toBe(429);
    expect((limited.body as { error: { code: string } }).error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(calls).toHaveLength(3);
    expect(await total(metrics)).toBe(3);
    // Its own bucket: the other rate-limited POSTs of the client are not used up by reports.
    const signup = await t.http
      .post('/api/addToMailList')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ email: 'reports@example.com' }));
    expect(signup.status).toBe(202);
  });

  it('counts the metric without a sink (the API alone)', async () => {
    const metrics = new Metrics({ processMetrics: false });
    t = await setup({ metrics });
    expect(t.deps.remoteErrors).toBeNull();
    expect((await post(t, REPORT)).status).toBe(204);
    expect(await counted(metrics, { remote: 'mfe_strategy', release: RELEASE })).toBe(1);
  });

  it('answers 204 and logs when the sink fails', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const failing: RemoteErrorSink = {
      report: () => Promise.reject(new Error('database gone')),
    };
    t = await setup({ metrics, remoteErrors: failing });
    expect((await post(t, REPORT)).status).toBe(204);
    const warned = t.logger.lines.filter((l) => l.message === 'remote error report not recorded');
    expect(warned).toHaveLength(1);
    expect(await total(metrics)).toBe(1);
  });

  it('passes no overlong visitor id on', async () => {
    const { t, calls } = await start();
    await post(t, REPORT, `release_visitor=${'v'.repeat(65)}`);
    expect(calls[0]![2]).toBe('');
  });
});

describe('remote_errors_total', () => {
  it('keeps its release label bounded: ids past the first ones of a remote count as other', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const id = (i: number) => i.toString(16).padStart(12, '0');
    for (let i = 0; i < REMOTE_RELEASE_LABELS + 5; i++)
      metrics.remoteError('mfe_premium', id(i), 'load');
    metrics.remoteError('mfe_premium', id(0), 'load');
    metrics.remoteError('mfe_content', id(99), 'load');
    expect(await counted(metrics, { remote: 'mfe_premium', release: 'other' })).toBe(5);
    expect(await counted(metrics, { remote: 'mfe_premium', release: id(0) })).toBe(2);
    expect(await counted(metrics, { remote: 'mfe_content', release: id(99) })).toBe(1);
    const text = (await metrics.text()).body;
    expect(text.match(/^remote_errors_total\{/gm)).toHaveLength(REMOTE_RELEASE_LABELS + 2);
  });
});
