/**
 * method:backtest on real DeFiLlama chart recordings (copied into a temp dir at test time) and a
 * hand-built chart; and no look-ahead: every row is unchanged when the histories are cut after
 * its date.
 */
import { copyFile, mkdtemp, readFile, rm, writeFile, access } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_LLAMA, requireRealLlama } from './real-llama.ts';
import { runBacktestCli, type BacktestOutputRow } from '../scripts/method-backtest.ts';

const execFileAsync = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));

// Real charts: an 882-day pool with gaps, a 616-day one, 113-day ones, an 83-day one with
// rewards, and a 5-day one (too young for any row).
const REAL = [
  '8a922da8-ee3c-44c8-a6c0-68bed39089c2',
  'ca866182-4f97-4022-a9bb-82edff271eab',
  '4f715567-420c-400d-9a62-0059331e3940',
  'dc5b6771-96a6-4b38-b1c3-912544c23899',
  '88b18835-ae4f-4863-adef-3fee0ccd348d',
];

interface Output {
  method: string;
  rows: BacktestOutputRow[];
}

let dir: string;
let realFiles: string[] = [];

/** The hand-built chart: 40 days from 2025-01-01, two points a day (the later one counts). */
function handBuilt() {
  const data = [];
  for (let i = 0; i < 40; i++) {
    const day = new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10);
    data.push({
      timestamp: `${day}T06:00:00.000Z`,
      tvlUsd: 1,
      apy: 999,
      apyBase: 999,
      apyReward: 0,
      il7d: null,
      apyBase7d: null,
    });
    data.push({
      timestamp: `${day}T23:00:00.000Z`,
      tvlUsd: 1_000_000,
      apy: 10,
      apyBase: 10,
      apyReward: 0,
      il7d: null,
      apyBase7d: null,
    });
  }
  return { status: 'success', data };
}

async function run(charts: string, pools?: string): Promise<Output> {
  const out = path.join(dir, `out-${Math.random().toString(36).slice(2)}.json`);
  const args = ['--', '--charts', charts, '--out', out];
  if (pools) args.push('--pools', pools);
  const result = await runBacktestCli(args);
  expect(result.exitCode, result.output).toBe(0);
  return JSON.parse(await readFile(out, 'utf8')) as Output;
}

beforeAll(async () => {
  await requireRealLlama();
  dir = await mkdtemp(path.join(tmpdir(), 'method-backtest-'));
  const { readdir } = await import('node:fs/promises');
  const names = (await readdir(REAL_LLAMA)).filter((n) => n.startsWith('chart-'));
  // The named pools when present, else the first charts of the folder.
  realFiles = REAL.map((p) => `chart-${p}.json`).filter((n) => names.includes(n));
  for (const n of names) {
    if (realFiles.length >= REAL.length) break;
    if (!realFiles.includes(n)) realFiles.push(n);
  }
  await Promise.all(realFiles.map((n) => copyFile(path.join(REAL_LLAMA, n), path.join(dir, n))));
  await writeFile(path.join(dir, 'chart-hand-built.json'), JSON.stringify(handBuilt()));
  await writeFile(path.join(dir, 'notes.txt'), 'not a chart');
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('method:backtest', () => {
  it('writes one row per pool and day with 30 days of history, from the last point of each day', async () => {
    const out = await run(dir, path.join(REAL_LLAMA, 'pools.json'));
    expect(out.method).toBe('rapool-v2');
    const hand = out.rows.filter((r) => r.pool === 'hand-built');
    // 40 days from 2025-01-01: the 30th day (2025-01-30) is the first with 30 days of history.
    expect(hand.map((r) => r.date)).toEqual(
      Array.from({ length: 11 }, (_, i) =>
        new Date(Date.UTC(2025, 0, 30 + i)).toISOString().slice(0, 10),
      ),
    );
    for (const r of hand) {
      expect(Object.keys(r).sort()).toEqual(['apy', 'date', 'expected', 'pool', 'riskAdjusted']);
      // The 23:00 point (10%) counts, not the 06:00 one (999%).
      expect(r.apy).toBe(10);
      expect(r.expected).toBeLessThan(11);
      expect(r.riskAdjusted).toBeLessThanOrEqual(r.expected);
    }
    // Every real chart with at least 30 days has rows, each a finite figure.
    const pools = new Set(out.rows.map((r) => r.pool));
    expect(pools.size).toBeGreaterThanOrEqual(realFiles.length - 1);
    for (const r of out.rows) {
      expect(Number.isFinite(r.expected) && Number.isFinite(r.riskAdjusted)).toBe(true);
      expect(r.riskAdjusted).toBeLessThanOrEqual(r.expected);
    }
    // One row per pool and day.
    const keys = new Set(out.rows.map((r) => `${r.pool}/${r.date}`));
    expect(keys.size).toBe(out.rows.length);
  });

  it('has no look-ahead: cutting the histories after a date changes none of the rows up to it', async () => {
    const full = await run(dir);
    const dates = [...new Set(full.rows.map((r) => r.date))].sort();
    const cuts = [0.2, 0.5, 0.8, 0.97].map((q) => dates[Math.floor(q * (dates.length - 1))]!);
    for (const cut of cuts) {
      const cutDir = await mkdtemp(path.join(dir, 'cut-'));
      for (const name of [...realFiles, 'chart-hand-built.json']) {
        const body = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as {
          status: string;
          data: { timestamp: string }[];
        };
        const data = body.data.filter((p) => p.timestamp.slice(0, 10) <= cut);
        await writeFile(path.join(cutDir, name), JSON.stringify({ ...body, data }));
      }
      const cutOut = await run(cutDir);
      const expected = full.rows.filter((r) => r.date <= cut);
      expect(expected.length).toBeGreaterThan(0);
      expect(cutOut.rows.filter((r) => r.date > cut)).toEqual([]);
      expect(cutOut.rows).toEqual(expected);
    }
  });

  it('runs as the package command and prints what it wrote', async () => {
    const out = path.join(dir, 'command-out.json');
    const { stdout } = await execFileAsync(
      process.execPath,
      ['--import', 'tsx', 'scripts/method-backtest.ts', '--', '--charts', dir, '--out', out],
      { cwd: path.resolve(HERE, '..') },
    );
    const written = JSON.parse(await readFile(out, 'utf8')) as Output;
    expect(stdout).toContain(
      `rapool-v2: ${written.rows.length} rows of ${realFiles.length + 1} pools`,
    );
    expect(written).toEqual(await run(dir));
  });

  it('refuses a missing argument, and a chart that is not JSON, without writing the output', async () => {
    expect((await runBacktestCli(['--charts', dir])).exitCode).toBe(2);
    expect(
      (await runBacktestCli(['--charts', dir, '--out', '/tmp/x', '--bogus', '1'])).exitCode,
    ).toBe(2);
    const bad = await mkdtemp(path.join(dir, 'bad-'));
    await writeFile(path.join(bad, 'chart-broken.json'), '{"status":');
    const out = path.join(bad, 'out.json');
    const result = await runBacktestCli(['--charts', bad, '--out', out]);
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(/chart-broken\.json: not JSON/);
    await expect(access(out)).rejects.toThrow();
  });
});
