import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HealthReport, SiteSettings, StrategyMetrics } from '@yield/contract';
import { formatJsonPath } from '../src/platform/files/data-store.ts';
import { editFile, foldUserData, setup, tempDataDir, type TestContext } from './helpers.ts';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

const health = async (ctx: TestContext) => (await ctx.http.get('/api/health')).body as HealthReport;

describe('data files', () => {
  it('formats JSON paths the way operators read them', () => {
    expect(formatJsonPath(['series', 'liquity-sp', 3, 'apy'])).toBe('$.series.liquity-sp[3].apy');
    expect(formatJsonPath([])).toBe('$');
  });

  it('a hand edit takes effect without a restart, metrics recomputed', async () => {
    t = await setup();
    const before = ((await t.http.get('/api/strategies')).body as StrategyMetrics[]).find(
      (s) => s.id === 2,
    )!;
    const file = path.join(t.dir, 'history.json');
    const history = JSON.parse(await readFile(file, 'utf8')) as {
      series: Record<string, { apy: number }[]>;
    };
    for (const row of history.series['sky-susds']!.slice(-30)) row.apy = 9;
    await editFile(file, JSON.stringify(history));
    await t.deps.store.refresh();
    const after = ((await t.http.get('/api/strategies')).body as StrategyMetrics[]).find(
      (s) => s.id === 2,
    )!;
    expect(after.yield30d).not.toBe(before.yield30d);
    expect(after.yield30d).toBeCloseTo(100 * 365 * (Math.pow(1.09, 1 / 365) - 1), 10);
  });

  it('the poller notices edits by itself', async () => {
    t = await setup({ watchIntervalMs: 25 });
    const file = path.join(t.dir, 'settings.json');
    const settings = JSON.parse(await readFile(file, 'utf8')) as SiteSettings;
    await editFile(file, JSON.stringify({ ...settings, siteHeader: 'Edited by an operator' }));
    const deadline = Date.now() + 5000;
    let header = '';
    while (Date.now() < deadline) {
      header = ((await t.http.get('/api/settings')).body as SiteSettings).siteHeader;
      if (header === 'Edited by an operator') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(header).toBe('Edited by an operator');
  });

  it('a broken JSON edit is refused: last good data served, error logged and shown in /api/health', async () => {
    t = await setup();
    const good = await t.http.get('/api/strategies');
    const file = path.join(t.dir, 'sources.json');
    const original = await readFile(file, 'utf8');
    await editFile(file, original.slice(0, 200));
    await t.deps.store.refresh();

    const h = await health(t);
    expect(h.status).toBe('degraded');
    expect(h.files['sources.json']).toMatchObject({
      loaded: true,
      error: expect.stringMatching(/^sources\.json: \$: invalid JSON/),
    });
    expect(h.files['history.json']!.error).toBeNull();
    const still = await t.http.get('/api/strategies').expect(200);
    expect(still.text).toBe(good.text);
    expect(t.logger.lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        fields: expect.objectContaining({ file: 'sources.json', servingLastGood: true }),
      }),
    );

    // Fixing the file clears the error.
    await editFile(file, original);
    await t.deps.store.refresh();
    expect((await health(t)).status).toBe('ok');
  });

  it('a schema-breaking edit names the file, the JSON path and the reason', async () => {
    t = await setup();
    const file = path.join(t.dir, 'history.json');
    const history = JSON.parse(await readFile(file, 'utf8')) as {
      series: Record<string, Record<string, unknown>[]>;
    };
    history.series['liquity-sp']![3]!.apy = 'high';
    await editFile(file, JSON.stringify(history));
    await t.deps.store.refresh();
    const error = (await health(t)).files['history.json']!.error!;
    expect(error).toContain('history.json');
    expect(error).toContain('$.series.liquity-sp[3].apy');
    expect(error).toMatch(/expected number/i);
  });

  /** Sets a value at a JSON path inside parsed data (test edits of operator files). */
  function setAt(data: unknown, where: (string | number)[], value: unknown): void {
    let node = data as Record<string | number, unknown>;
    for (const key of where.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
    node[where[where.length - 1]!] = value;
  }

  it.each<[string, (string | number)[], unknown, string]>([
    ['sources.json', ['sources', 0, 'scores', 0, 'safety'], 7, '$.sources[0].scores[0].safety'],
    ['sources.json', ['sources', 1, 'id'], 3, '$.sources[1].id'],
    ['sources.json', ['sources', 3, 'exit', 'kind'], 'soon', '$.sources[3].exit.kind'],
    ['sources.json', ['sources', 3, 'exit', 'link'], 'ftp://x', '$.sources[3].exit.link'],
    ['settings.json', ['siteUrl'], 'not a url', '$.siteUrl'],
    ['settings.json', ['socials', 'x'], 'javascript:alert(1)', '$.socials.x'],
    // The API docs link may be a path on the site, never one that leaves it.
    ['settings.json', ['externalUrls', 'apiDocs'], '//evil.example/docs', '$.externalUrls.apiDocs'],
    [
      'strategy-content.json',
      ['strategies', 1, 'holdings', 0, 'percentage'],
      50,
      '$.strategies[1].holdings',
    ],
    [
      'strategy-content.json',
      ['strategies', 0, 'thirdPartyRatings', 0, 'provider'],
      'Nobody',
      '$.strategies[0].thirdPartyRatings[0].provider',
    ],
    ['liquidity.json', ['series', 'lido', 0, 'liquidityPct'], 4, '$.series.lido[0].liquidityPct'],
    [
      'history.json',
      ['series', 'lido-steth', 5, 'date'],
      '2020-01-01',
      '$.series.lido-steth[5].date',
    ],
    ['mailing-list.json', ['entries', 0], { email: 'nope' }, '$.entries[0]'],
  ])('%s: refuses an invalid edit at %s', async (file, where, value, jsonPath) => {
    t = await setup();
    const full = path.join(t.dir, file);
    const data = JSON.parse(await readFile(full, 'utf8')) as unknown;
    setAt(data, where, value);
    await editFile(full, JSON.stringify(data));
    await t.deps.store.refresh();
    const error = (await health(t)).files[file]!.error!;
    expect(error.startsWith(`${file}: `)).toBe(true);
    expect(error).toContain(jsonPath);
  });

  it('starting with an invalid file: that data is 503, everything else is served', async () => {
    const dir = await tempDataDir();
    await writeFile(path.join(dir, 'sources.json'), '{"sources": []}');
    t = await setup({ dir });
    const h = await health(t);
    expect(h.status).toBe('degraded');
    expect(h.files['sources.json']).toMatchObject({ loaded: false, loadedAt: null });
    const res = await t.http.get('/api/strategies').expect(503);
    expect(res.body).toMatchObject({
      error: { code: 'data_unavailable', message: expect.stringContaining('sources.json') },
    });
    await t.http.get('/api/history?id=3&range=7D').expect(503);
    await t.http.get('/api/settings').expect(200);
    await t.http.get('/api/strategy-content/lido').expect(200);
  });

  it('missing runtime files start empty; a missing data file is reported', async () => {
    const dir = await tempDataDir();
    const { rm } = await import('node:fs/promises');
    await rm(path.join(dir, 'mailing-list.json'));
    await rm(path.join(dir, 'liquidity.json'));
    t = await setup({ dir });
    const h = await health(t);
    expect(h.files['mailing-list.json']).toMatchObject({ loaded: true, error: null });
    expect(h.files['liquidity.json']!.error).toMatch(/liquidity\.json: file not found/);
    await t.http
      .post('/api/addToMailList')
      .set('Content-Type', 'application/json')
      .send({ email: 'first@example.com' })
      .expect(202);
    await foldUserData(t);
    expect(JSON.parse(await readFile(path.join(dir, 'mailing-list.json'), 'utf8'))).toMatchObject({
      entries: [{ email: 'first@example.com' }],
    });
  });

  it('writes are atomic: temp file + rename, nothing left behind', async () => {
    t = await setup();
    const file = path.join(t.dir, 'mailing-list.json');
    const before = await stat(file);
    await t.http
      .post('/api/addToMailList')
      .set('Content-Type', 'application/json')
      .send({ email: 'atomic@example.com' })
      .expect(202);
    await foldUserData(t);
    const after = await stat(file);
    // A rename puts a new inode in place; an in-place rewrite (which a crash can truncate) keeps it.
    expect(after.ino).not.toBe(before.ino);
    expect((await readdir(t.dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    JSON.parse(await readFile(file, 'utf8'));
  });

  it('a runtime file broken by hand is never overwritten: writes are refused with 503', async () => {
    t = await setup();
    const file = path.join(t.dir, 'mailing-list.json');
    await editFile(file, '{"entries": [');
    const res = await t.http
      .post('/api/addToMailList')
      .set('Content-Type', 'application/json')
      .send({ email: 'x@example.com' })
      .expect(503);
    expect(res.body).toMatchObject({ error: { code: 'data_unavailable' } });
    expect(await readFile(file, 'utf8')).toBe('{"entries": [');
    expect((await health(t)).files['mailing-list.json']!.error).toMatch(/invalid JSON/);
  });

  it('an operator edit of a runtime file between writes is kept', async () => {
    t = await setup();
    const file = path.join(t.dir, 'mailing-list.json');
    const send = (email: string) =>
      t!.http.post('/api/addToMailList').set('Content-Type', 'application/json').send({ email });
    await send('one@example.com').expect(202);
    await foldUserData(t!);
    const data = JSON.parse(await readFile(file, 'utf8')) as { entries: object[] };
    data.entries.push({
      email: 'added-by-hand@example.com',
      createdAt: new Date().toISOString(),
      source: 'import',
    });
    await editFile(file, JSON.stringify(data));
    await send('two@example.com').expect(202);
    await foldUserData(t!);
    const final = JSON.parse(await readFile(file, 'utf8')) as { entries: { email: string }[] };
    expect(final.entries.map((e) => e.email)).toEqual([
      'one@example.com',
      'added-by-hand@example.com',
      'two@example.com',
    ]);
  });
});
