/**
 * `pnpm --filter @yield/api method:backtest -- --charts <dir> --out <file> [--pools <pools.json>]`
 *
 * Runs rapool-v2 over every `chart-<pool>.json` (DeFiLlama `/chart/<pool>` answers) of <dir>:
 * one row per pool and UTC day with at least 30 days of that pool's history up to and including
 * it, each figure from the days up to it only. `--pools` (a `/pools` answer) gives the pools it
 * holds their facts (stablecoin, ilRisk, exposure, project for the safety score); the others are
 * computed without them. Writes `{"method":"rapool-v2","rows":[{pool,date,apy,expected,
 * riskAdjusted}]}` to <file> atomically.
 */
import { parseArgs } from 'node:util';
import writeFileAtomic from 'write-file-atomic';
import { RAPOOL_V2 } from '../src/engine/rapool2.ts';
import { runAsCommand, type CliResult } from './cli.ts';
import {
  backtestAll,
  readCharts,
  readPoolFacts,
  readSafety,
  type PoolFacts,
} from './method-data.ts';

const USAGE =
  'Usage: pnpm --filter @yield/api method:backtest -- --charts <dir> --out <file> [--pools <pools.json>]';

export interface BacktestOutputRow {
  pool: string;
  date: string;
  apy: number;
  expected: number;
  riskAdjusted: number;
}

export async function runBacktestCli(argv: string[]): Promise<CliResult> {
  let values: { charts?: string; out?: string; pools?: string };
  try {
    ({ values } = parseArgs({
      args: argv.filter((a) => a !== '--'),
      options: {
        charts: { type: 'string' },
        out: { type: 'string' },
        pools: { type: 'string' },
      },
      strict: true,
    }));
  } catch (err) {
    return { exitCode: 2, output: `${(err as Error).message}\n${USAGE}` };
  }
  if (!values.charts || !values.out) return { exitCode: 2, output: USAGE };

  let facts = new Map<string, PoolFacts>();
  try {
    const histories = await readCharts(values.charts);
    if (values.pools) facts = await readPoolFacts(values.pools);
    const safetyOf = await readSafety();
    const all = backtestAll(histories, facts, safetyOf, RAPOOL_V2);
    const rows: BacktestOutputRow[] = [];
    for (const { pool, rows: poolRows } of all) {
      for (const r of poolRows) {
        rows.push({
          pool,
          date: r.date,
          apy: r.apy,
          expected: r.expected,
          riskAdjusted: r.riskAdjusted,
        });
      }
    }
    await writeFileAtomic(
      values.out,
      JSON.stringify({ method: RAPOOL_V2.method, rows }) + '\n',
      'utf8',
    );
    const known = histories.filter((h) => facts.has(h.pool)).length;
    return {
      exitCode: 0,
      output: `${RAPOOL_V2.method}: ${rows.length} rows of ${histories.length} pools (${known} with /pools facts) written to ${values.out}`,
    };
  } catch (err) {
    return { exitCode: 1, output: `method:backtest failed: ${(err as Error).message}` };
  }
}

runAsCommand(import.meta.url, (argv) => runBacktestCli(argv));
