/**
 * The numbers the API serves are the engine's numbers on the shipped data: this recomputes every
 * metric straight from the shipped files with the pure engine (no snapshot code) and compares.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BaseRates, HistoryResponse, RiskBreakdown, StrategyMetrics } from '@yield/contract';
import {
  apyToApr,
  computeRa30,
  cryptoBaseSeries,
  derivedSeries,
  isGreat,
  stableBaseSeries,
  type DailyRow,
  type Ra30Result,
  type Score,
} from '../src/engine/index.ts';
import { DEFAULT_DATA_DIR } from '../src/composition/deps.ts';
import { setup, type TestContext } from './helpers.ts';

interface ScoreRow {
  date: string;
  safety: Score;
  liquidity: Score;
}
interface SourceRow {
  id: number;
  series: string;
  type: 'stablecoin' | 'defi';
  scores: ScoreRow[];
  incidents: { active: boolean }[];
}
interface BaseRow {
  key: string;
  type: 'stablecoin' | 'defi';
  scores: ScoreRow[];
  components: {
    kind: string;
    coins?: { venues: { series: string }[] }[];
    assets?: ({ series: string } | { derivedFrom: string; divisor: number })[];
  };
}

let t: TestContext;
let sources: SourceRow[];
let baseRows: BaseRow[];
let series: Record<string, DailyRow[]>;

beforeAll(async () => {
  t = await setup();
  const s = JSON.parse(await readFile(path.join(DEFAULT_DATA_DIR, 'sources.json'), 'utf8')) as {
    sources: SourceRow[];
    baseRates: BaseRow[];
  };
  sources = s.sources;
  baseRows = s.baseRates;
  series = (
    JSON.parse(await readFile(path.join(DEFAULT_DATA_DIR, 'history.json'), 'utf8')) as {
      series: Record<string, DailyRow[]>;
    }
  ).series;
});
afterAll(async () => {
  await t.cleanup();
});

/** The score dated on or before the last day (every shipped score list is sorted by date). */
function scoreOn(scores: ScoreRow[], date: string): ScoreRow {
  return scores.filter((s) => s.date <= date).pop() ?? scores[0]!;
}

function baseResult(type: 'stablecoin' | 'defi'): Ra30Result {
  const b = baseRows.find((r) => r.type === type)!;
  const rows =
    b.components.kind === 'stablecoin'
      ? stableBaseSeries({
          coins: b.components.coins!.map((c, i) => ({
            coin: String(i),
            venues: c.venues.map((v) => series[v.series]!),
          })),
        })
      : cryptoBaseSeries({
          assets: b.components.assets!.map((a, i) =>
            'series' in a
              ? { asset: String(i), rows: series[a.series]!, derived: false }
              : {
                  asset: String(i),
                  rows: derivedSeries(series[a.derivedFrom]!, a.divisor),
                  derived: true,
                },
          ),
        });
  return computeRa30(rows, scoreOn(b.scores, rows[rows.length - 1]!.date));
}

function sourceResult(id: number): Ra30Result {
  const s = sources.find((x) => x.id === id)!;
  const rows = series[s.series]!;
  return computeRa30(rows, scoreOn(s.scores, rows[rows.length - 1]!.date));
}

describe('API numbers equal the engine on the shipped data', () => {
  it('GET /api/strategies', async () => {
    const served = (await t.http.get('/api/strategies').expect(200)).body as (StrategyMetrics & {
      great: boolean;
      risk: number;
    })[];
    expect(served).toHaveLength(sources.length);
    for (const s of sources) {
      const r = sourceResult(s.id);
      const base = baseResult(s.type);
      const api = served.find((x) => x.id === s.id)!;
      expect(api).toMatchObject({
        id: s.id,
        yield30d: r.yield30d,
        riskAdjustedYield30d: r.riskAdjustedYield30d,
        tvl: r.inputs.tvl,
        risk: r.risk,
        charges: r.charges,
        status: r.status,
        great: isGreat(
          r,
          base,
          s.incidents.some((i) => i.active),
        ),
      });
    }
  });

  it('GET /api/baserate', async () => {
    const served = (await t.http.get('/api/baserate').expect(200)).body as BaseRates;
    const stable = baseResult('stablecoin');
    const defi = baseResult('defi');
    expect(served).toMatchObject({
      baserateStable: stable.yield30d,
      baserateRiskAdjustedStable: stable.riskAdjustedYield30d,
      baserateDefi: defi.yield30d,
      baserateRiskAdjustedDefi: defi.riskAdjustedYield30d,
      charges: { stablecoin: stable.charges, defi: defi.charges },
    });
    // Base rates carry risk above 0 (the GREAT slope would be undefined otherwise).
    expect(stable.risk).toBeGreaterThan(0);
    expect(defi.risk).toBeGreaterThan(0);
  });

  it('GET /api/strategies/:id/breakdown', async () => {
    for (const s of sources) {
      const b = (await t.http.get(`/api/strategies/${s.id}/breakdown`).expect(200))
        .body as RiskBreakdown;
      const r = sourceResult(s.id);
      expect(b.charges).toEqual(r.charges);
      expect(b.inputs).toEqual(r.inputs);
      expect(b.window).toEqual(r.window);
    }
    const base = (await t.http.get('/api/strategies/base-defi/breakdown')).body as RiskBreakdown;
    expect(base.charges).toEqual(baseResult('defi').charges);
  });

  it('GET /api/history returns the raw daily APR and the engine summary', async () => {
    for (const s of sources) {
      const body = (await t.http.get(`/api/history?id=${s.id}&range=90D`).expect(200))
        .body as HistoryResponse;
      const rows = series[s.series]!.slice(-90);
      expect(body.data).toEqual(
        rows.map((r) => ({
          timestamp: Date.parse(`${r.date}T00:00:00Z`),
          tvl: r.tvlUsd,
          apr: apyToApr(r.apy),
        })),
      );
      const r = sourceResult(s.id);
      expect(body).toMatchObject({
        lastApr: r.yield30d,
        lastRaApr: r.riskAdjustedYield30d,
        lastTvl: rows[rows.length - 1]!.tvlUsd,
      });
    }
  });

  it('the shipped data exercises the method: spike clamped, steps unclamped, incident', () => {
    // Lido's one-day spike in the window is clamped; Sky's flat governance rate has MAD = 0.
    expect(sourceResult(13).inputs.clampedDays).toBeGreaterThanOrEqual(1);
    expect(sourceResult(2).inputs.clampedDays).toBe(0);
    expect(sourceResult(2).inputs.sigma30).toBeCloseTo(0, 12);
    // Resolv USR after the exploit: safety 1 in effect, never GREAT.
    expect(sourceResult(8).inputs.safety).toBe(1);
    expect(isGreat(sourceResult(8), baseResult('stablecoin'), true)).toBe(false);
  });
});
