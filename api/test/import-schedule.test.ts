/**
 * DATA_IMPORT_INTERVAL: the interval's syntax, one import at a time, exponential back-off after
 * failed runs (capped), stopping on close(), and the running API importing by itself.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDeps } from '../src/composition/deps.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { ImportSchedule, MAX_BACKOFF_MS, nextDelay } from '../src/modules/import/schedule.ts';
import { parseInterval } from '../src/platform/interval.ts';
import type { ImportResult } from '../src/modules/import/run-import.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';
import { closeAll, NOW, replayAllFeeds, strategies } from './import-fixtures.ts';
import type { ReplayServer } from './replay-server.ts';

function result(ok: boolean): ImportResult {
  return {
    ok,
    from: 'test',
    dryRun: false,
    startedAt: NOW.toISOString(),
    finishedAt: NOW.toISOString(),
    prices: [],
    feeds: [
      {
        series: 's',
        pool: 'p',
        ok,
        reason: ok ? null : 'HTTP 503',
        days: 1,
        added: 0,
        updated: 0,
        newestDay: null,
      },
    ],
    unfed: [],
    written: ok,
    error: null,
    figures: [],
    pools: null,
  };
}

describe('DATA_IMPORT_INTERVAL', () => {
  it('reads 30s, 15m, 6h and 1d; unset means off; anything else is refused', () => {
    expect(parseInterval('30s')).toBe(30_000);
    expect(parseInterval('15m')).toBe(900_000);
    expect(parseInterval('6h')).toBe(21_600_000);
    expect(parseInterval(' 1D ')).toBe(86_400_000);
    expect(parseInterval(undefined)).toBeNull();
    expect(parseInterval('')).toBeNull();
    for (const bad of ['15', 'often', '0s', '-5m', '1.5h', '10 minutes'])
      expect(() => parseInterval(bad)).toThrow(
        /DATA_IMPORT_INTERVAL must be a positive number with a unit/,
      );
  });

  it('backs off exponentially after failed runs, capped at max(interval, 6 h)', () => {
    const m = 60_000;
    expect([0, 1, 2, 3].map((f) => nextDelay(15 * m, f))).toEqual([
      15 * m,
      30 * m,
      60 * m,
      120 * m,
    ]);
    expect(nextDelay(15 * m, 10)).toBe(MAX_BACKOFF_MS);
    expect(nextDelay(12 * 60 * m, 3)).toBe(12 * 60 * m); // an interval above the cap stays as it is
  });
});

describe('the import schedule', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at start, then one import at a time: never a second one while one is in progress', async () => {
    vi.useFakeTimers();
    let finish: (r: ImportResult) => void = () => undefined;
    const run = vi.fn(() => new Promise<ImportResult>((resolve) => (finish = resolve)));
    const schedule = new ImportSchedule(1000, run, silentLogger, () => Date.now());
    schedule.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    expect(schedule.state().running).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000); // ten intervals while the first import hangs
    expect(run).toHaveBeenCalledTimes(1);
    finish(result(true));
    await vi.advanceTimersByTimeAsync(999);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(2);
    finish(result(true));
    await schedule.stop();
  });

  it('waits 2x, 4x, 8x the interval after failed runs and returns to the interval after a good one', async () => {
    vi.useFakeTimers();
    const outcomes = [false, false, false, true, true];
    const calls: number[] = [];
    const start = Date.now();
    const run = vi.fn(async () => {
      calls.push(Date.now() - start);
      const ok = outcomes.shift() ?? true;
      if (!ok && calls.length === 2) throw new Error('network down'); // a thrown run counts too
      return result(ok);
    });
    const schedule = new ImportSchedule(1000, run, silentLogger, () => Date.now());
    schedule.start();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(calls.slice(0, 6)).toEqual([0, 2000, 6000, 14_000, 15_000, 16_000]);
    await schedule.stop();
  });

  it('stop() aborts the import in progress and nothing runs afterwards', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const run = vi.fn(
      (s: AbortSignal) =>
        new Promise<ImportResult>((resolve) => {
          signal = s;
          s.addEventListener('abort', () => resolve(result(false)));
        }),
    );
    const schedule = new ImportSchedule(1000, run, silentLogger, () => Date.now());
    schedule.start();
    await vi.advanceTimersByTimeAsync(0);
    await schedule.stop();
    expect(signal?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(schedule.state()).toMatchObject({ running: false, nextRunAt: null });
  });
});

describe('the running API with DATA_IMPORT_INTERVAL', () => {
  let t: TestContext | undefined;
  let server: ReplayServer | undefined;
  afterEach(async () => {
    delete process.env.DATA_IMPORT_INTERVAL;
    await closeAll(t, server);
    [t, server] = [undefined, undefined];
  });

  it('imports by itself at start and on its interval, shows the schedule in /api/health, stops on close()', async () => {
    const dir = await tempDataDir();
    server = await replayAllFeeds(dir);
    process.env.DATA_IMPORT_INTERVAL = '1s';
    t = await setup({
      dir,
      now: () => NOW,
      defillamaApiUrl: server.url,
      coinsApiUrl: server.url,
    });
    const waitFor = async (what: string, done: () => boolean) => {
      const deadline = Date.now() + 10_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    // At start: all 12 feeds, and the API serves what they brought.
    await waitFor(
      'the first import',
      () => server!.requests.length >= 12 && !t!.deps.importSchedule!.state().running,
    );
    expect((await strategies(t)).find((s) => s.id === 13)!.provenance.kind).toBe('defillama');
    const health = (await t.http.get('/api/health').expect(200)).body as {
      import: {
        schedule: { intervalMs: number; nextRunAt: string };
        lastRun: { ok: boolean; pools: { ok: boolean } };
      };
    };
    expect(health.import.schedule.intervalMs).toBe(1000);
    expect(health.import.lastRun.ok).toBe(true);
    // The schedule imports the /pools snapshot too.
    expect(server.requests).toContain('/pools');
    expect(health.import.lastRun.pools.ok).toBe(true);
    // A second later by itself.
    await waitFor('the second import', () => server!.requests.length >= 24);
    await t.deps.close();
    const after = server.requests.length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(server.requests.length).toBe(after);
    expect(t.deps.importSchedule!.state().nextRunAt).toBeNull();
  });

  it('unset means off; a malformed value stops the start with a clear error', async () => {
    const dir = await tempDataDir();
    t = await setup({ dir });
    expect(t.deps.importSchedule).toBeNull();
    process.env.DATA_IMPORT_INTERVAL = 'hourly';
    await expect(
      createDeps({ dataDir: dir, logger: silentLogger, watchIntervalMs: 0 }),
    ).rejects.toThrow(
      'DATA_IMPORT_INTERVAL must be a positive number with a unit s, m, h or d (e.g. 15m, 6h), got "hourly"',
    );
  });
});
