/**
 * What method:backtest and method:fit share: reading DeFiLlama `/chart/<pool>` files into daily
 * series, the pools' facts from a `/pools` answer, the projects' safety scores, and running
 * rapool-v2 over every pool and day.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  backtestSeries,
  dailySeries,
  RAPOOL_V2,
  type BacktestRow,
  type DayPoint,
  type PoolMetaV2,
  type RapoolV2Params,
} from '../src/engine/rapool2.ts';
import type { Score } from '../src/engine/ra30.ts';
import { projectTiersFileSchema } from '../src/modules/scanner/schemas.ts';
import { sourcesFileSchema } from '../src/modules/yields/schemas.ts';
import { projectSafetyTable } from '../src/modules/scanner/project-safety.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const API_DATA_DIR = path.join(HERE, '..', 'data');

export interface PoolHistory {
  pool: string;
  days: DayPoint[];
}

export interface PoolFacts extends PoolMetaV2 {
  project?: string;
  symbol?: string;
}

const CHART_FILE = /^chart-(.+)\.json$/;

/** Every `chart-<pool>.json` of `dir`, as daily series (last point of each UTC day), by pool id. */
export async function readCharts(dir: string): Promise<PoolHistory[]> {
  const names = (await readdir(dir)).filter((n) => CHART_FILE.test(n)).sort();
  const out: PoolHistory[] = [];
  for (const name of names) {
    const pool = CHART_FILE.exec(name)![1]!;
    let body: unknown;
    try {
      body = JSON.parse(await readFile(path.join(dir, name), 'utf8'));
    } catch (err) {
      throw new Error(`${name}: not JSON (${(err as Error).message})`, { cause: err });
    }
    const data = (body as { data?: unknown }).data;
    if (!Array.isArray(data)) throw new Error(`${name}: no "data" array (a /chart answer?)`);
    out.push({ pool, days: dailySeries(data as Parameters<typeof dailySeries>[0]) });
  }
  return out;
}

/** The facts of each pool of a `/pools` answer ({status, data:[...]}), by pool id. */
export async function readPoolFacts(file: string): Promise<Map<string, PoolFacts>> {
  const body = JSON.parse(await readFile(file, 'utf8')) as { data?: unknown };
  if (!Array.isArray(body.data)) throw new Error(`${file}: no "data" array (a /pools answer?)`);
  const facts = new Map<string, PoolFacts>();
  for (const raw of body.data as Record<string, unknown>[]) {
    if (typeof raw.pool !== 'string') continue;
    facts.set(raw.pool, {
      project: typeof raw.project === 'string' ? raw.project : undefined,
      symbol: typeof raw.symbol === 'string' ? raw.symbol : undefined,
      stablecoin: typeof raw.stablecoin === 'boolean' ? raw.stablecoin : undefined,
      ilRisk: raw.ilRisk === 'yes' || raw.ilRisk === 'no' ? raw.ilRisk : undefined,
      exposure: raw.exposure === 'single' || raw.exposure === 'multi' ? raw.exposure : undefined,
    });
  }
  return facts;
}

/** The safety score of a project from the shipped project-tiers.json and sources.json. */
export async function readSafety(dataDir = API_DATA_DIR): Promise<(project?: string) => Score> {
  const tiers = projectTiersFileSchema.parse(
    JSON.parse(await readFile(path.join(dataDir, 'project-tiers.json'), 'utf8')),
  );
  const sources = sourcesFileSchema.parse(
    JSON.parse(await readFile(path.join(dataDir, 'sources.json'), 'utf8')),
  );
  const table = projectSafetyTable(tiers, sources, null);
  return (project) => table.of(project ?? '').safety;
}

export interface PoolRows {
  pool: string;
  days: DayPoint[];
  rows: BacktestRow[];
}

export function backtestAll(
  histories: PoolHistory[],
  facts: Map<string, PoolFacts>,
  safetyOf: (project?: string) => Score,
  params: RapoolV2Params = RAPOOL_V2,
): PoolRows[] {
  return histories.map(({ pool, days }) => {
    const f = facts.get(pool) ?? {};
    return { pool, days, rows: backtestSeries(days, f, safetyOf(f.project), params) };
  });
}
