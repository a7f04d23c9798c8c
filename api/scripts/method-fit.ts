/**
 * `pnpm --filter @yield/api method:fit -- --charts <dir> [--pools <pools.json>] [--write]`
 *
 * Fits rapool-v3's few coefficients on real pool histories and reports, out of time, how well
 * its figures rank the pools by the APR they went on to pay. Every daily APY is first turned into
 * the APR behind it (`aprPoint`; DeFiLlama's APYs compound daily):
 *
 * - realized: the mean daily APR of the 30 days after a day (days d+1 .. d+30, at least 20 of
 *   them present, the history reaching d+30);
 * - fit: days whose realized window ends before the cut date. The priors are the median
 *   realized APR of each category; trim, rewardKeep, beta and ageHalfDays are the grid point with
 *   the smallest mean absolute error of ln(1 + expected) against ln(1 + realized); volShare is
 *   the smallest whose top 10 disappoint on those days no more often than the baseline's;
 * - baseline: the trailing 30-day mean APR minus BASELINE_SD × its standard deviation;
 * - report: days from the cut date on, with the fitted coefficients. Per day, Spearman's rank
 *   correlation across pools of each predictor with realized (days with at least 20 pools),
 *   averaged over days; and of each day's top 10 by a predictor, the share that disappoint
 *   (realized < half the figure) and that are understated (realized > twice the figure).
 *
 * `--write` puts the figures between the markers of docs/methodology.md and into
 * mfe-content/src/features/methodology/rapool-v3-fit.json (what /methodology shows).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import writeFileAtomic from 'write-file-atomic';
import {
  aprOfApy,
  aprPoint,
  computeRapoolV2,
  dayNumber,
  growth,
  POOL_CATEGORIES,
  RAPOOL_V3,
  type PoolCategory,
  type RapoolV2Params,
  type WindowStats,
} from '../src/engine/rapool2.ts';
import type { Score } from '../src/engine/ra30.ts';
import { runAsCommand, type CliResult } from './cli.ts';
import {
  backtestAll,
  readCharts,
  readPoolFacts,
  readSafety,
  type PoolFacts,
} from './method-data.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.join(HERE, '..', '..');
export const DOCS_FILE = path.join(REPO, 'docs', 'methodology.md');
export const PAGE_FIT_FILE = path.join(
  REPO,
  'mfe-content',
  'src',
  'features',
  'methodology',
  'rapool-v3-fit.json',
);
export const BEGIN_MARKER =
  '<!-- method:fit begin (written by pnpm --filter @yield/api method:fit -- --write) -->';
export const END_MARKER = '<!-- method:fit end -->';

/** The cut date: fit on days whose next 30 days end before it, report on days from it on. */
export const CUT_DATE = '2025-03-01';
const HORIZON = 30;
const MIN_REALIZED_DAYS = 20;
const MIN_POOLS_PER_DAY = 20;
const TOP = 10;
/** Pools a category needs among the fit days for a prior of its own. */
const MIN_PRIOR_POOLS = 20;

export const GRID = {
  trim: [0, 0.05, 0.1, 0.2],
  rewardKeep: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1],
  beta: [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1],
  ageHalfDays: [0, 15, 30, 60, 120],
  volShare: [0, 0.125, 0.25, 0.375, 0.5, 0.75, 1],
};

interface Sample {
  pool: string;
  date: string;
  day: number;
  apy: number;
  trailing30: number;
  baseline: number;
  stats: WindowStats;
  facts: PoolFacts;
  safety: Score;
  realized: number;
}

/** Mean APR of days d+1 .. d+30 per row of a pool (none when not enough of them are known). */
function realizedMeans(days: { date: string; apr: number }[]): Map<string, number> {
  const nums = days.map((d) => dayNumber(d.date));
  const out = new Map<string, number>();
  const last = nums[nums.length - 1] ?? 0;
  let lo = 0;
  let hi = 0;
  let sum = 0;
  for (let k = 0; k < days.length; k++) {
    const d = nums[k]!;
    // Window (d, d + HORIZON]: points lo .. hi-1.
    while (hi < days.length && nums[hi]! <= d + HORIZON) sum += days[hi++]!.apr;
    while (lo < hi && nums[lo]! <= d) sum -= days[lo++]!.apr;
    const n = hi - lo;
    if (last >= d + HORIZON && n >= MIN_REALIZED_DAYS) out.set(days[k]!.date, sum / n);
  }
  return out;
}

/** Mean and sample standard deviation of the APR of days (d − 30, d] per day. */
function trailingMeans(
  days: { date: string; apr: number }[],
): Map<string, { mean: number; sd: number }> {
  const nums = days.map((d) => dayNumber(d.date));
  const out = new Map<string, { mean: number; sd: number }>();
  let lo = 0;
  for (let k = 0; k < days.length; k++) {
    while (nums[lo]! <= nums[k]! - HORIZON) lo++;
    const w = days.slice(lo, k + 1).map((d) => d.apr);
    const mean = w.reduce((a, b) => a + b, 0) / w.length;
    const v = w.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, w.length - 1);
    out.set(days[k]!.date, { mean, sd: Math.sqrt(v) });
  }
  return out;
}

/** The plain baseline a published forecast must not lose to: mean − BASELINE_SD × sd. */
export const BASELINE_SD = 0.25;

function medianOf(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? 0 : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Ranks 1..n with ties given their average rank. */
function ranks(values: number[]): number[] {
  const idx = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const r = new Array<number>(values.length);
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j + 1 < idx.length && values[idx[j + 1]!] === values[idx[i]!]) j++;
    for (let k = i; k <= j; k++) r[idx[k]!] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

export function spearman(x: number[], y: number[]): number {
  const rx = ranks(x);
  const ry = ranks(y);
  const n = x.length;
  const mx = rx.reduce((a, b) => a + b, 0) / n;
  const my = ry.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (rx[i]! - mx) * (ry[i]! - my);
    sxx += (rx[i]! - mx) ** 2;
    syy += (ry[i]! - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
}

const round = (x: number, digits: number) => Number(x.toFixed(digits));

type Entry = { s: Sample; expected: number; riskAdjusted: number };

/**
 * Per day (days with at least MIN_POOLS_PER_DAY pools): Spearman of each predictor with the APR
 * paid, and counts of each predictor's top 10 that disappoint or are understated.
 */
function measure(samples: Sample[], params: RapoolV2Params) {
  const byDay = new Map<number, { s: Sample; expected: number; riskAdjusted: number }[]>();
  for (const s of samples) {
    const r = computeRapoolV2(s.stats, s.facts, s.safety, params);
    const list = byDay.get(s.day) ?? [];
    list.push({ s, expected: r.expected, riskAdjusted: r.riskAdjusted });
    byDay.set(s.day, list);
  }
  const predictors: Record<
    'expected' | 'riskAdjusted' | 'apy' | 'trailing30' | 'baseline',
    (e: Entry) => number
  > = {
    expected: (e) => e.expected,
    riskAdjusted: (e) => e.riskAdjusted,
    apy: (e) => e.s.apy,
    trailing30: (e) => e.s.trailing30,
    baseline: (e) => e.s.baseline,
  };
  const rho = { expected: 0, riskAdjusted: 0, apy: 0, trailing30: 0 };
  const top = {
    expected: { disappoint: 0, understated: 0, n: 0 },
    riskAdjusted: { disappoint: 0, understated: 0, n: 0 },
    apy: { disappoint: 0, understated: 0, n: 0 },
    baseline: { disappoint: 0, understated: 0, n: 0 },
  };
  let days = 0;
  for (const list of byDay.values()) {
    if (list.length < MIN_POOLS_PER_DAY) continue;
    days++;
    const realized = list.map((e) => e.s.realized);
    for (const key of Object.keys(rho) as (keyof typeof rho)[]) {
      rho[key] += spearman(list.map(predictors[key]), realized);
    }
    for (const key of Object.keys(top) as (keyof typeof top)[]) {
      const f = predictors[key];
      const picks = [...list]
        .sort((a, b) => f(b) - f(a) || (a.s.pool < b.s.pool ? -1 : 1))
        .slice(0, TOP);
      for (const e of picks) {
        top[key].n++;
        if (e.s.realized < 0.5 * f(e)) top[key].disappoint++;
        if (e.s.realized > 2 * f(e)) top[key].understated++;
      }
    }
  }
  return { byDay, rho, top, days };
}

export interface FitReport {
  method: string;
  cutDate: string;
  pools: number;
  fit: { samples: number; from: string; to: string };
  test: { samples: number; days: number; from: string; to: string };
  coefficients: {
    trim: number;
    rewardKeep: number;
    beta: number;
    ageHalfDays: number;
    volShare: number;
    priors: Record<PoolCategory, number>;
    priorSamples: Record<PoolCategory, number>;
    priorPools: Record<PoolCategory, number>;
  };
  spearman: { expected: number; riskAdjusted: number; apy: number; trailing30: number };
  top10: {
    expected: { disappoint: number; understated: number };
    apy: { disappoint: number; understated: number };
    baseline: { disappoint: number; understated: number };
    riskAdjusted: { disappoint: number; understated: number };
  };
}

export async function runFit(chartsDir: string, poolsFile?: string): Promise<FitReport> {
  const histories = await readCharts(chartsDir);
  const facts = poolsFile ? await readPoolFacts(poolsFile) : new Map<string, PoolFacts>();
  const safetyOf = await readSafety();
  const cut = dayNumber(CUT_DATE);
  // rapool-v3 reads and forecasts APRs: DeFiLlama's APYs are turned into the APRs behind them.
  const aprHistories = histories.map((h) => ({ pool: h.pool, days: h.days.map(aprPoint) }));
  const apyOf = new Map(
    histories.flatMap((h) => h.days.map((d) => [`${h.pool} ${d.date}`, d.apy] as const)),
  );
  const aprsOf = (h: (typeof histories)[number]) =>
    h.days.map((d) => ({ date: d.date, apr: aprOfApy(d.apy) }));
  const realizedOf = new Map(histories.map((h) => [h.pool, realizedMeans(aprsOf(h))]));
  const trailingOf = new Map(histories.map((h) => [h.pool, trailingMeans(aprsOf(h))]));

  /** The fit and report samples with the window statistics of one trim. */
  const samplesOf = (trim: number) => {
    const all = backtestAll(aprHistories, facts, safetyOf, { ...RAPOOL_V3, trim });
    const train: Sample[] = [];
    const test: Sample[] = [];
    for (const { pool, rows } of all) {
      const realized = realizedOf.get(pool)!;
      const trailing = trailingOf.get(pool)!;
      const f = facts.get(pool) ?? {};
      for (const r of rows) {
        const value = realized.get(r.date);
        if (value === undefined) continue;
        const day = dayNumber(r.date);
        const s: Sample = {
          pool,
          date: r.date,
          day,
          apy: apyOf.get(`${pool} ${r.date}`)!,
          trailing30: trailing.get(r.date)!.mean,
          baseline: trailing.get(r.date)!.mean - BASELINE_SD * trailing.get(r.date)!.sd,
          stats: r.stats,
          facts: f,
          safety: safetyOf(f.project),
          realized: value,
        };
        if (day + HORIZON < cut) train.push(s);
        else if (day >= cut) test.push(s);
      }
    }
    if (train.length === 0 || test.length === 0) {
      throw new Error(`No days to fit or to report on around the cut date ${CUT_DATE}`);
    }
    return { train, test };
  };

  const catOf = (s: Sample) =>
    computeRapoolV2(s.stats, s.facts, s.safety, RAPOOL_V3).inputs.category;
  let best = {
    loss: Infinity,
    trim: 0,
    rewardKeep: 0,
    beta: 0,
    ageHalfDays: 0,
    priors: {} as Record<PoolCategory, number>,
    priorSamples: {} as Record<PoolCategory, number>,
    priorPools: {} as Record<PoolCategory, number>,
    train: [] as Sample[],
    test: [] as Sample[],
  };
  for (const trim of GRID.trim) {
    const { train, test } = samplesOf(trim);
    // Priors: median realized APR of each category over the fit days.
    const byCat = new Map<PoolCategory, number[]>(POOL_CATEGORIES.map((c) => [c, []]));
    const poolsOf = new Map<PoolCategory, Set<string>>(POOL_CATEGORIES.map((c) => [c, new Set()]));
    for (const s of train) {
      byCat.get(catOf(s))!.push(s.realized);
      poolsOf.get(catOf(s))!.add(s.pool);
    }
    const priors = {} as Record<PoolCategory, number>;
    const priorSamples = {} as Record<PoolCategory, number>;
    const priorPools = {} as Record<PoolCategory, number>;
    // A category seen in fewer than MIN_PRIOR_POOLS pools takes the prior of "other": the
    // pools with known facts are the few chart pools the /pools recording holds, all of them
    // above 100% APY that day, a biased sample.
    const other = round(medianOf(byCat.get('other')!), 1);
    for (const c of POOL_CATEGORIES) {
      const v = byCat.get(c)!;
      const enough = c === 'other' || poolsOf.get(c)!.size >= MIN_PRIOR_POOLS;
      priors[c] = enough ? round(medianOf(v), 1) : other;
      priorSamples[c] = v.length;
      priorPools[c] = poolsOf.get(c)!.size;
    }
    // Grid search of rewardKeep, beta, ageHalfDays.
    for (const rewardKeep of GRID.rewardKeep) {
      for (const beta of GRID.beta) {
        for (const ageHalfDays of GRID.ageHalfDays) {
          const params: RapoolV2Params = {
            ...RAPOOL_V3,
            rewardKeep,
            beta,
            ageHalfDays,
            priors,
            volShare: 0,
          };
          let loss = 0;
          for (const s of train) {
            const e = computeRapoolV2(s.stats, s.facts, s.safety, params).expected;
            loss += Math.abs(growth(e) - growth(s.realized));
          }
          loss /= train.length;
          if (loss < best.loss - 1e-12) {
            best = {
              loss,
              trim,
              rewardKeep,
              beta,
              ageHalfDays,
              priors,
              priorSamples,
              priorPools,
              train,
              test,
            };
          }
        }
      }
    }
  }
  const { train, test, priors, priorSamples, priorPools } = best;
  const fittedLevel: RapoolV2Params = {
    ...RAPOOL_V3,
    trim: best.trim,
    rewardKeep: best.rewardKeep,
    beta: best.beta,
    ageHalfDays: best.ageHalfDays,
    priors,
  };

  // In sample: the smallest volShare whose top 10 disappoint no more often than the baseline's.
  let fitted: RapoolV2Params = { ...fittedLevel, volShare: GRID.volShare[0]! };
  for (const volShare of GRID.volShare) {
    fitted = { ...fittedLevel, volShare };
    const t = measure(train, fitted).top;
    if (t.expected.disappoint <= t.baseline.disappoint) break;
  }
  // Out of time: the report days.
  const { byDay, rho, top, days } = measure(test, fitted);
  const share = (t: { disappoint: number; understated: number; n: number }) => ({
    disappoint: round(t.disappoint / Math.max(1, t.n), 3),
    understated: round(t.understated / Math.max(1, t.n), 3),
  });
  const dates = (list: Sample[]) => {
    const ds = list.map((s) => s.date).sort();
    return { from: ds[0]!, to: ds[ds.length - 1]! };
  };
  const testDays = [...byDay.entries()].filter(([, l]) => l.length >= MIN_POOLS_PER_DAY);
  return {
    method: RAPOOL_V3.method,
    cutDate: CUT_DATE,
    pools: histories.length,
    fit: { samples: train.length, ...dates(train) },
    test: {
      samples: testDays.reduce((a, [, l]) => a + l.length, 0),
      days,
      ...dates(testDays.flatMap(([, l]) => l.map((e) => e.s))),
    },
    coefficients: {
      trim: best.trim,
      rewardKeep: best.rewardKeep,
      beta: best.beta,
      ageHalfDays: best.ageHalfDays,
      volShare: fitted.volShare ?? 0,
      priors,
      priorSamples,
      priorPools,
    },
    spearman: {
      expected: round(rho.expected / days, 3),
      riskAdjusted: round(rho.riskAdjusted / days, 3),
      apy: round(rho.apy / days, 3),
      trailing30: round(rho.trailing30 / days, 3),
    },
    top10: {
      expected: share(top.expected),
      apy: share(top.apy),
      baseline: share(top.baseline),
      riskAdjusted: share(top.riskAdjusted),
    },
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The Markdown block that docs/methodology.md holds between the markers. */
export function reportMarkdown(r: FitReport): string {
  const c = r.coefficients;
  return [
    BEGIN_MARKER,
    '',
    `Fit: ${r.fit.samples} pool-days of ${r.pools} pools, ${r.fit.from} to ${r.fit.to} (next 30 days ending before ${r.cutDate}).`,
    `Report: ${r.test.samples} pool-days, ${r.test.days} days from ${r.test.from} to ${r.test.to}.`,
    '',
    '| Coefficient | Fitted value |',
    '| --- | --- |',
    `| trim | ${c.trim} |`,
    `| rewardKeep | ${c.rewardKeep} |`,
    `| beta | ${c.beta} |`,
    `| ageHalfDays | ${c.ageHalfDays} |`,
    `| volShare | ${c.volShare} |`,
    ...POOL_CATEGORIES.map(
      (k) =>
        `| prior ${k} | ${c.priors[k]}% (${c.priorSamples[k]} pool-days of ${c.priorPools[k]} pools${k !== 'other' && c.priorPools[k] < MIN_PRIOR_POOLS ? `; under ${MIN_PRIOR_POOLS} pools: other's` : ''}) |`,
    ),
    '',
    '| Predictor | Spearman with the next 30 days (mean per day) | Top 10 disappointing | Top 10 understated |',
    '| --- | --- | --- | --- |',
    `| expected | ${r.spearman.expected} | ${pct(r.top10.expected.disappoint)} | ${pct(r.top10.expected.understated)} |`,
    `| riskAdjusted | ${r.spearman.riskAdjusted} | ${pct(r.top10.riskAdjusted.disappoint)} | ${pct(r.top10.riskAdjusted.understated)} |`,
    `| raw APY of the day | ${r.spearman.apy} | ${pct(r.top10.apy.disappoint)} | ${pct(r.top10.apy.understated)} |`,
    `| trailing 30-day mean APR | ${r.spearman.trailing30} | | |`,
    `| baseline: trailing 30-day mean APR − ${BASELINE_SD} × its standard deviation | | ${pct(r.top10.baseline.disappoint)} | ${pct(r.top10.baseline.understated)} |`,
    '',
    END_MARKER,
  ].join('\n');
}

export function replaceBetweenMarkers(doc: string, block: string): string {
  const start = doc.indexOf(BEGIN_MARKER);
  const end = doc.indexOf(END_MARKER);
  if (start < 0 || end < start) throw new Error('docs/methodology.md has no method:fit markers');
  return doc.slice(0, start) + block + doc.slice(end + END_MARKER.length);
}

export async function runFitCli(argv: string[]): Promise<CliResult> {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--'),
    options: {
      charts: { type: 'string' },
      pools: { type: 'string' },
      write: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.charts) {
    return {
      exitCode: 2,
      output:
        'Usage: pnpm --filter @yield/api method:fit -- --charts <dir> [--pools <pools.json>] [--write]',
    };
  }
  const report = await runFit(values.charts, values.pools);
  const block = reportMarkdown(report);
  if (values.write) {
    const doc = await readFile(DOCS_FILE, 'utf8');
    await writeFileAtomic(DOCS_FILE, replaceBetweenMarkers(doc, block), 'utf8');
    await writeFileAtomic(PAGE_FIT_FILE, JSON.stringify(report, null, 2) + '\n', 'utf8');
  }
  return { exitCode: 0, output: `${block}\n\n${JSON.stringify(report, null, 2)}` };
}

runAsCommand(import.meta.url, (argv) => runFitCli(argv));
