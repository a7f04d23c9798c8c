/**
 * Methods a path does not serve: a method the API does not know (PROPFIND, TRACE) is a 501, a
 * known one the path does not serve (DELETE /api/strategies) a 405 with `Allow`; both the JSON
 * error, neither an error line in the log nor a server error for the documented 5xx alert.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metrics } from '../src/platform/metrics.ts';
import { API_ROOT } from '../src/platform/paths.ts';
import { setup, type TestContext } from './helpers.ts';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format: `name{labels} value` samples (comments and blank lines skipped). */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
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

/**
 * The server errors the documented Api5xxRate alert (docs/deploy.md) counts: the requests its
 * numerator's selector, `http_requests_total{…}`, matches (PromQL anchors its regular expressions).
 */
async function alertedServerErrors(metrics: Metrics): Promise<number> {
  const deploy = await readFile(path.join(API_ROOT, '..', 'docs', 'deploy.md'), 'utf8');
  const rule = deploy.slice(deploy.indexOf('alert: Api5xxRate'));
  const selector = /http_requests_total\{([^}]*)\}/.exec(rule)![1]!;
  const matchers = [...selector.matchAll(/(\w+)\s*(=~|!~|!=|=)\s*"([^"]*)"/g)].map(
    ([, label, op, value]) => ({ label: label!, op: op!, value: value! }),
  );
  expect(matchers.length).toBeGreaterThan(0);
  const matches = (labels: Record<string, string>) =>
    matchers.every(({ label, op, value }) => {
      const actual = labels[label] ?? '';
      if (op === '=') return actual === value;
      if (op === '!=') return actual !== value;
      const re = new RegExp(`^(?:${value})$`);
      return op === '=~' ? re.test(actual) : !re.test(actual);
    });
  const samples = parseMetrics((await metrics.text()).body);
  return samples
    .filter((s) => s.name === 'http_requests_total' && matches(s.labels))
    .reduce((sum, s) => sum + s.value, 0);
}

const REQUESTS = 50;

describe('methods a path does not serve', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await setup({ metrics: new Metrics({ processMetrics: false }) });
  });
  afterAll(() => t?.cleanup());

  it('an unknown method (PROPFIND, TRACE) is a 501 JSON error with Allow, without an error line in the log or a server error for the 5xx alert', async () => {
    for (let i = 0; i < REQUESTS; i++) {
      const res = await t.http
        .propfind('/api/strategies')
        .expect(501)
        .expect('Content-Type', /json/);
      expect(res.body).toEqual({
        error: {
          code: 'not_implemented',
          message:
            'The method PROPFIND is not implemented here (this server answers GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS)',
        },
      });
      expect(res.headers.allow).toBe('GET, HEAD');
    }
    const trace = await t.http.trace('/api/strategies').expect(501);
    expect(trace.body.error.code).toBe('not_implemented');
    // On a path the API does not have, still the method's 501, without Allow.
    const unknown = await t.http.propfind('/api/no-such-endpoint').expect(501);
    expect(unknown.body.error.code).toBe('not_implemented');
    expect(unknown.headers.allow).toBeUndefined();

    // Each request has its access line; none has an error line, nor a stack.
    const lines = t.logger.lines;
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(lines.filter((l) => l.fields && 'stack' in l.fields)).toEqual([]);
    const answered = lines.filter((l) => l.message === 'request' && l.fields?.status === 501);
    expect(answered).toHaveLength(REQUESTS + 2);

    // The metrics count each answer as it was (501), and the 5xx alert counts none of them.
    const samples = parseMetrics((await t.deps.metrics.text()).body);
    const propfind = samples.find(
      (s) => s.name === 'http_requests_total' && s.labels.method === 'PROPFIND',
    );
    expect(propfind).toMatchObject({
      labels: { method: 'PROPFIND', route: 'unmatched', status: '501' },
      value: REQUESTS + 1,
    });
    expect(await alertedServerErrors(t.deps.metrics)).toBe(0);
  });

  it('the 5xx alert still counts a server failure', async () => {
    const metrics = new Metrics({ processMetrics: false });
    metrics.request('GET', '/api/strategies', 500, 0.01);
    metrics.request('GET', '/api/health', 503, 0.01);
    metrics.request('PROPFIND', 'unmatched', 501, 0.001);
    expect(await alertedServerErrors(metrics)).toBe(2);
  });

  it('a known method the path does not serve is a 405 JSON error with Allow: GET, HEAD', async () => {
    const before = t.logger.lines.length;
    for (const send of [
      () => t.http.delete('/api/strategies'),
      () => t.http.put('/api/strategies').set('Content-Type', 'application/json').send('{}'),
    ]) {
      const res = await send().expect(405).expect('Content-Type', /json/);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.body.error.code).toBe('method_not_allowed');
      expect(res.body.error.message).toMatch(
        /^\/api\/strategies answers GET, HEAD, not (DELETE|PUT)$/,
      );
    }
    // A POST endpoint's other methods: Allow names POST; the premium analysis's path, GET, HEAD.
    const post = await t.http.get('/api/addToMailList').expect(405);
    expect(post.headers.allow).toBe('POST');
    const premium = await t.http.delete('/api/premium/strategies/lido').expect(405);
    expect([premium.headers.allow, premium.body.error.code]).toEqual([
      'GET, HEAD',
      'method_not_allowed',
    ]);
    const after = t.logger.lines.slice(before);
    expect(after.filter((l) => l.level !== 'info')).toEqual([]);
  });
});
