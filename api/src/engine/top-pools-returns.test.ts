import { describe, expect, it } from 'vitest';
import {
  candidatesOn,
  historyUpTo,
  realizedMeanApy,
  scannerTrackRecord,
  topOf,
  type TrackPool,
} from './top-pools-returns.ts';
import { aprOfApy, rapoolV3OfHistory, type DayPoint } from './rapool2.ts';

const DAY_MS = 86_400_000;
/** Every day from `from` to `to` (inclusive). */
function days(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(from); t <= Date.parse(to); t += DAY_MS)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}
const history = (from: string, to: string, apy: (day: string) => number): DayPoint[] =>
  days(from, to).map((date) => ({
    date,
    apy: apy(date),
    apyBase: apy(date),
    apyReward: null,
    tvlUsd: 1e9,
  }));

function pool(id: string, over: Partial<TrackPool> & Pick<TrackPool, 'history'>): TrackPool {
  return {
    pool: id,
    project: 'proj',
    chain: 'Ethereum',
    symbol: `T${id.slice(0, 2)}`,
    stablecoin: true,
    ilRisk: 'no',
    exposure: 'single',
    outlier: false,
    ...over,
  };
}

const END = '2026-03-15';
/**
 * From 2026-01-01 to 2026-03-15 (decision days: 2026-01-01, too early, and 2026-02-01, held
 * 2026-02-02 .. 2026-03-01, 28 days):
 * - A pays 5 every day; B 4;
 * - C pays 2 except 50 on 2026-02-01 (the top raw APY that day, not by risk-adjusted APY);
 * - D pays 6 but its history stops on 2026-02-15 (14 days of 28);
 * - E is an outlier paying 100 (left out, as by the scanner's default query);
 * - F pays 9 but starts on 2026-01-13 (20 days on 2026-02-01: not a candidate yet).
 */
function pools(): TrackPool[] {
  return [
    pool('aaaaaaaa-0001', { history: history('2026-01-01', END, () => 5) }),
    pool('bbbbbbbb-0002', { history: history('2026-01-01', END, () => 4) }),
    pool('cccccccc-0003', {
      history: history('2026-01-01', END, (d) => (d === '2026-02-01' ? 50 : 2)),
    }),
    pool('dddddddd-0004', { history: history('2026-01-01', '2026-02-15', () => 6) }),
    pool('eeeeeeee-0005', {
      outlier: true,
      stablecoin: false,
      history: history('2026-01-01', END, () => 100),
    }),
    pool('ffffffff-0006', { history: history('2026-01-13', END, () => 9) }),
  ];
}
const constant = (v: number) => new Map(days('2026-01-01', END).map((d) => [d, v]));
const BASE = { stablecoin: constant(3), crypto: constant(4) };
const safety = () => 3 as const;

describe('scanner track record', () => {
  it('realized mean APY counts a day without a row as 0', () => {
    const byDay = new Map(days('2026-02-02', '2026-02-15').map((d) => [d, 6]));
    expect(realizedMeanApy(byDay, '2026-02-01', '2026-03-01')).toEqual({
      apy: (6 * 14) / 28,
      daysWithData: 14,
      days: 28,
    });
  });

  it('picks the top by risk-adjusted APY and by that day’s APY, and what each paid', () => {
    const track = scannerTrackRecord(pools(), BASE, safety, { size: 2 });
    expect(track.firstDay).toBe('2026-01-01');
    expect(track.lastDay).toBe(END);
    // On 2026-01-01 no pool has 30 days of history.
    expect(track.skipped).toEqual([
      { decidedOn: '2026-01-01', until: '2026-02-01', candidates: 0, reason: 'history_too_short' },
    ]);
    expect(track.months).toHaveLength(1);
    const m = track.months[0]!;
    expect(m).toMatchObject({ decidedOn: '2026-02-01', until: '2026-03-01', days: 28 });
    // A, B, C, D (E is an outlier, F has 20 days).
    expect(m.candidates).toBe(4);
    expect(m.riskAdjusted.picks.map((p) => p.pool)).toEqual(['dddddddd-0004', 'aaaaaaaa-0001']);
    expect(m.rawApy.picks.map((p) => p.pool)).toEqual(['cccccccc-0003', 'dddddddd-0004']);
    expect(m.rawApy.picks.map((p) => p.apy)).toEqual([50, 6]);
    // D paid 6 on 14 of 28 days: 3; A 5. C paid 2.
    expect(m.riskAdjusted.picks[0]).toMatchObject({ realizedApy: 3, daysWithData: 14 });
    expect(m.riskAdjusted.realizedApy).toBeCloseTo(4, 12);
    expect(m.rawApy.realizedApy).toBeCloseTo(2.5, 12);
    // Every pick is a stablecoin pool: the stablecoin base rate, 3.
    expect(m.riskAdjusted.baseApy).toBeCloseTo(3, 12);
    expect(m.rawApy.baseApy).toBeCloseTo(3, 12);
    expect(m.value.riskAdjusted).toBeCloseTo(10_000 * 1.04 ** (28 / 365), 8);
    expect(m.value.rawApy).toBeCloseTo(10_000 * 1.025 ** (28 / 365), 8);
    expect(m.value.base).toBeCloseTo(10_000 * 1.03 ** (28 / 365), 8);
    expect(track.final).toEqual(m.value);
  });

  it('sets a crypto pool against the crypto base rate', () => {
    const list = [
      pool('aaaaaaaa-0001', { history: history('2026-01-01', END, () => 5) }),
      pool('bbbbbbbb-0002', {
        stablecoin: false,
        history: history('2026-01-01', END, () => 4),
      }),
    ];
    const m = scannerTrackRecord(list, BASE, safety, { size: 2 }).months[0]!;
    // (3 + 4) / 2.
    expect(m.riskAdjusted.baseApy).toBeCloseTo(3.5, 12);
    expect(m.riskAdjusted.picks.map((p) => p.kind).sort()).toEqual(['crypto', 'stablecoin']);
  });

  it('leaves a month without base rate data out and says why', () => {
    const track = scannerTrackRecord(
      pools(),
      { stablecoin: new Map(), crypto: new Map() },
      safety,
      { size: 2 },
    );
    expect(track.months).toEqual([]);
    expect(track.skipped.map((s) => s.reason)).toEqual(['history_too_short', 'no_base_rate']);
    expect(track.final).toEqual({ riskAdjusted: 10_000, rawApy: 10_000, base: 10_000 });
  });

  it('has no months without histories', () => {
    expect(scannerTrackRecord([], BASE, safety)).toEqual({
      firstDay: null,
      lastDay: null,
      months: [],
      skipped: [],
      final: { riskAdjusted: 10_000, rawApy: 10_000, base: 10_000 },
    });
  });

  it('no look-ahead: cutting or changing the histories after a decision day leaves its picks', () => {
    const full = pools();
    const cut = full.map((p) => ({ ...p, history: historyUpTo(p.history, '2026-02-01') }));
    const changed = full.map((p) => ({
      ...p,
      history: p.history.map((d) => (d.date > '2026-02-01' ? { ...d, apy: 1000 - d.apy } : d)),
    }));
    const picks = (list: TrackPool[]) => {
      const c = candidatesOn(list, '2026-02-01', safety);
      return [
        topOf(c, 'riskAdjustedApr', 2).map((x) => [x.pool, x.riskAdjustedApr]),
        topOf(c, 'apy', 2).map((x) => [x.pool, x.apy]),
      ];
    };
    expect(picks(cut)).toEqual(picks(full));
    const pickedIn = (list: TrackPool[]) => {
      const m = scannerTrackRecord(list, BASE, safety, { size: 2 }).months[0]!;
      return [m.riskAdjusted.picks, m.rawApy.picks].map((g) =>
        g.map((p) => [p.pool, p.riskAdjustedApr, p.apy]),
      );
    };
    expect(pickedIn(changed)).toEqual(pickedIn(full));
  });

  it('computes each past decision day with the scanner’s method, rapool-v3, in APR', () => {
    const a = pool('aaaaaaaa-0001', { history: history('2026-01-01', END, () => 5) });
    const [pick] = candidatesOn([a], '2026-02-01', safety);
    const seen = historyUpTo(a.history, '2026-02-01').slice(-30);
    const meta = { stablecoin: true, ilRisk: 'no' as const, exposure: 'single' as const };
    const v3 = rapoolV3OfHistory(seen, meta, safety())!;
    expect(pick!.riskAdjustedApr).toBeCloseTo(v3.riskAdjusted, 12);
    // A flat 5% APY is read as its 4.88% APR: the level, before the pull, is the APR.
    expect(v3.inputs.level).toBeCloseTo(aprOfApy(5), 12);
    expect(aprOfApy(5)).toBeCloseTo(4.8793, 4);
  });

  it('ranks ties by the lower pool id', () => {
    const list = [
      pool('bbbbbbbb-0002', { history: history('2026-01-01', END, () => 5) }),
      pool('aaaaaaaa-0001', { history: history('2026-01-01', END, () => 5) }),
    ];
    const m = scannerTrackRecord(list, BASE, safety, { size: 1 }).months[0]!;
    expect(m.riskAdjusted.picks[0]!.pool).toBe('aaaaaaaa-0001');
    expect(m.rawApy.picks[0]!.pool).toBe('aaaaaaaa-0001');
  });
});
