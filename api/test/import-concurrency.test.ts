/**
 * An operator edit and an import running at the same moment lose neither change, and the running
 * API picks an import up the way it picks up an edit.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/composition/data-files.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { runImport } from '../src/modules/import/run-import.ts';
import { runImportCli } from '../scripts/import-data.ts';
import { editFile, setup, type TestContext } from './helpers.ts';
import {
  closeAll,
  importWith,
  NOW,
  POOL,
  readHistory,
  replayAllFeeds,
  strategies,
  TODAY,
} from './import-fixtures.ts';
import { chartBody, dailyPoints, type ReplayServer } from './replay-server.ts';

let t: TestContext | undefined;
let server: ReplayServer | undefined;
afterEach(() =>
  closeAll(t, server).finally(() => {
    [t, server] = [undefined, undefined];
  }),
);

/** The operator's edit: the newest Liquity day (a series without a feed) set to 7.77%. */
async function operatorEdit(dir: string): Promise<void> {
  const file = path.join(dir, 'history.json');
  const history = JSON.parse(await readFile(file, 'utf8')) as {
    series: Record<string, { apy: number }[]>;
  };
  history.series['liquity-sp']!.at(-1)!.apy = 7.77;
  await editFile(file, JSON.stringify(history, null, 2));
}

describe('an operator edit and an import at the same moment', () => {
  it('an edit saved while the feeds are being fetched is kept, and the import lands on top of it', async () => {
    t = await setup({ now: () => NOW });
    server = await replayAllFeeds(t.dir);
    server.set(POOL.lido, {
      kind: 'json',
      body: chartBody(dailyPoints({ lastDay: TODAY, days: 60, apy: 3.4 })),
      delayMs: 400,
    });
    const importing = importWith(t, server);
    await new Promise((r) => setTimeout(r, 100));
    await operatorEdit(t.dir);
    const result = await importing;
    expect(result.ok).toBe(true);

    const history = await readHistory(t.dir);
    expect(history.series['liquity-sp']!.at(-1)!.apy).toBe(7.77);
    expect(history.series['lido-steth']!.at(-1)).toMatchObject({ date: TODAY, apy: 3.4 });
    // And the API serves the import; Liquity's rows are still sample rows of a file that has
    // been imported into, so the API serves no figures for them (no live data).
    const rows = await strategies(t);
    expect(rows.find((s) => s.id === 13)!.provenance.kind).toBe('defillama');
    const liquity = (await t.http.get('/api/history?id=3&range=7D').expect(200)).body as {
      data: { apr: number }[];
      provenance: { kind: string };
    };
    expect(liquity).toMatchObject({ data: [], provenance: { kind: 'none' } });
  });

  it('an edit saved between the merge and the write makes the import merge again on top of it', async () => {
    t = await setup({ now: () => NOW });
    server = await replayAllFeeds(t.dir);
    const attempts: number[] = [];
    const result = await importWith(t, server, {
      beforeCommit: async (attempt) => {
        attempts.push(attempt);
        if (attempt === 1) await operatorEdit(t!.dir);
      },
    });
    expect(result.ok).toBe(true);
    expect(attempts).toEqual([1, 2]);
    const history = await readHistory(t.dir);
    expect(history.series['liquity-sp']!.at(-1)!.apy).toBe(7.77);
    expect(history.provenance?.['lido-steth']).toMatchObject({ pool: POOL.lido });
    expect(history.series['lido-steth']!.at(-1)!.date).toBe(TODAY);
  });

  it('two imports at once (the schedule and the command) both complete, one after the other', async () => {
    t = await setup({ now: () => NOW });
    server = await replayAllFeeds(t.dir);
    const other = openStore(t.dir, silentLogger); // the command's own store, as in another process
    await other.loadAll();
    const [a, b] = await Promise.all([
      importWith(t, server),
      runImport({
        store: other,
        apiUrl: server.url,
        coinsApiUrl: server.url,
        now: () => NOW,
        timeoutMs: 1000,
      }),
    ]);
    expect(a.ok && b.ok).toBe(true);
    expect([a.written, b.written].sort()).toEqual([false, true]); // the second found nothing new
    const history = await readHistory(t.dir);
    // Every series with a feed (by id or by selector): all but Liquity's.
    expect(Object.keys(history.provenance ?? {})).toHaveLength(18);
  });

  it('a history.json an operator broke by hand is never overwritten: the import writes nothing and says why', async () => {
    t = await setup({ now: () => NOW });
    server = await replayAllFeeds(t.dir);
    const file = path.join(t.dir, 'history.json');
    await editFile(file, '{"sample": true, "series": {');
    const result = await importWith(t, server);
    expect(result.ok).toBe(false);
    expect(result.written).toBe(false);
    expect(result.error).toMatch(/^history\.json: \$: invalid JSON/);
    expect(
      result.feeds.every((f) => !f.ok && f.reason!.startsWith('not written: history.json')),
    ).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('{"sample": true, "series": {');
    const health = (await t.http.get('/api/health').expect(200)).body as {
      status: string;
      import: { lastRun: { error: string } };
    };
    expect(health.status).toBe('degraded');
    expect(health.import.lastRun.error).toMatch(/invalid JSON/);
  });
});

describe('the running API and a command-line import', () => {
  it('picks the import up by polling, as it does an operator edit, and shows its outcome in /api/health', async () => {
    t = await setup({ now: () => NOW });
    const saved = path.join(os.tmpdir(), `yield-import-saved-${process.pid}-${Date.now()}`);
    await mkdir(path.join(saved, 'chart'), { recursive: true });
    await writeFile(
      path.join(saved, 'chart', `${POOL.lido}.json`),
      JSON.stringify(chartBody(dailyPoints({ lastDay: TODAY, days: 45, apy: 3.9, tvlUsd: 8e9 }))),
    );
    const before = (await strategies(t)).find((s) => s.id === 13)!;
    expect(before.provenance.kind).toBe('sample');

    const cli = await runImportCli(['--from', saved, '--data-dir', t.dir], {}, () => NOW);
    expect(cli.exitCode).toBe(1); // only Lido's response was saved
    expect(cli.output).toMatch(/ok {4}lido-steth/);

    await t.deps.store.refresh(); // what the poller does every DATA_POLL_MS
    const after = (await strategies(t)).find((s) => s.id === 13)!;
    expect(after.provenance).toMatchObject({ kind: 'defillama', asOf: TODAY });
    expect(after.yield30d).toBeCloseTo(100 * 365 * (Math.pow(1.039, 1 / 365) - 1), 10);
    const health = (await t.http.get('/api/health').expect(200)).body as {
      import: {
        lastRun: { from: string; feeds: { series: string; ok: boolean; reason: string }[] };
      };
    };
    // Public: the folder by its name only, never the server's absolute path.
    expect(health.import.lastRun.from).toBe(`files:${path.basename(saved)}`);
    expect(health.import.lastRun.feeds.find((f) => f.series === 'aave-v3-usdc')).toMatchObject({
      ok: false,
      reason: `no saved response ${POOL.aaveUsdc}.json`,
    });
  });
});
