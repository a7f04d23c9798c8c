import { describe, expect, it } from 'vitest';
import type { HistoryFile } from '../yields/index.ts';
import { mergeHistory } from './merge.ts';

const NOW = new Date('2026-11-23T12:00:00Z');
const POOL_A = '747c1d2a-c668-4682-b9f9-296708a3dd90';
const POOL_B = '0f45d730-b279-4629-8e11-ccb5cc3038b4';
const row = (date: string, apy: number) => ({ date, apy, tvlUsd: 100 });

function history(sample: boolean, provenancePool?: string): HistoryFile {
  return {
    sample,
    asOf: '2026-11-21',
    series: { s: [row('2026-11-19', 1), row('2026-11-20', 2), row('2026-11-21', 3)] },
    ...(provenancePool
      ? {
          provenance: {
            s: { kind: 'defillama', pool: provenancePool, asOf: '2026-11-21', importedAt: 'x' },
          },
        }
      : {}),
  } as HistoryFile;
}

const incoming = [row('2026-11-21', 3.5), row('2026-11-22', 4), row('2026-11-23', 5)];

describe('mergeHistory', () => {
  it('replaces sample rows on a series first import', () => {
    const m = mergeHistory(history(true), [{ series: 's', pool: POOL_A, rows: incoming }], NOW);
    expect(m.history.series.s).toEqual(incoming);
    expect(m.stats.get('s')).toEqual({ added: 3, updated: 0, replaced: 3 });
    expect(m.history.asOf).toBe('2026-11-23');
    expect(Object.keys(m.history)).toEqual(['sample', 'asOf', 'provenance', 'series']);
  });

  it('merges into imported rows of the same pool: new days added, changed days updated, older days kept', () => {
    const m = mergeHistory(
      history(true, POOL_A),
      [{ series: 's', pool: POOL_A, rows: incoming }],
      NOW,
    );
    expect(m.history.series.s!.map((r) => [r.date, r.apy])).toEqual([
      ['2026-11-19', 1],
      ['2026-11-20', 2],
      ['2026-11-21', 3.5],
      ['2026-11-22', 4],
      ['2026-11-23', 5],
    ]);
    expect(m.stats.get('s')).toEqual({ added: 2, updated: 1, replaced: 0 });
    expect(m.history.provenance!.s).toEqual({
      kind: 'defillama',
      pool: POOL_A,
      asOf: '2026-11-23',
      importedAt: NOW.toISOString(),
    });
  });

  it('starts over when the series is now fed from another pool', () => {
    const m = mergeHistory(
      history(true, POOL_B),
      [{ series: 's', pool: POOL_A, rows: incoming }],
      NOW,
    );
    expect(m.history.series.s).toEqual(incoming);
  });

  it('merges into rows an operator typed (sample: false)', () => {
    const m = mergeHistory(history(false), [{ series: 's', pool: POOL_A, rows: incoming }], NOW);
    expect(m.history.series.s).toHaveLength(5);
  });

  it('reports no change (and keeps importedAt) when the feed brings nothing new', () => {
    const first = mergeHistory(history(true), [{ series: 's', pool: POOL_A, rows: incoming }], NOW);
    const later = new Date(NOW.getTime() + 3_600_000);
    const again = mergeHistory(
      first.history,
      [{ series: 's', pool: POOL_A, rows: incoming }],
      later,
    );
    expect(again.changed).toBe(false);
    expect(again.history).toBe(first.history);
  });
});

describe('mergeHistory with an on-chain feed', () => {
  const ADDRESS = '0xa3931d71877C0E7a3148CB7Eb4463524FEc27fbD';
  const chainRows = [
    { date: '2026-11-21', apy: 6, pricePerShare: 1.05, tvlUsd: null },
    { date: '2026-11-22', apy: 6.1, pricePerShare: 1.0502, tvlUsd: 7e8 },
  ];
  const chain = { series: 's', chain: 'ethereum', address: ADDRESS, rows: chainRows };

  it('the chain leads; DeFiLlama rows move beside it, and the chain rows take their TVL', () => {
    const m = mergeHistory(
      history(true, POOL_A),
      [{ series: 's', pool: POOL_A, rows: incoming }],
      NOW,
      [chain],
    );
    expect(m.history.provenance?.s).toEqual({
      kind: 'onchain',
      chain: 'ethereum',
      address: ADDRESS,
      asOf: '2026-11-22',
      importedAt: NOW.toISOString(),
    });
    expect(m.history.series.s).toEqual([
      { date: '2026-11-21', apy: 6, tvlUsd: 100, pricePerShare: 1.05 },
      { date: '2026-11-22', apy: 6.1, tvlUsd: 100, pricePerShare: 1.0502 },
    ]);
    // The DeFiLlama rows stored before, with the new import merged in.
    expect(m.history.secondary?.s).toEqual({
      kind: 'defillama',
      pool: POOL_A,
      rows: [row('2026-11-19', 1), row('2026-11-20', 2), ...incoming],
    });
    expect(m.chainStats.get('s')).toEqual({ added: 2, updated: 0, replaced: 3 });
  });

  it('later imports merge by date, keep an operator edit of a DeFiLlama row the feed does not resend', () => {
    const first = mergeHistory(history(true, POOL_A), [], NOW, [chain]).history;
    const edited: HistoryFile = {
      ...first,
      secondary: {
        s: {
          ...first.secondary!.s!,
          rows: [row('2026-11-19', 9.99), ...first.secondary!.s!.rows.slice(1)],
        },
      },
    };
    const next = mergeHistory(
      edited,
      [{ series: 's', pool: POOL_A, rows: [row('2026-11-23', 5)] }],
      NOW,
      [{ ...chain, rows: [{ date: '2026-11-23', apy: 6.2, pricePerShare: 1.0504, tvlUsd: null }] }],
    );
    expect(next.history.secondary?.s?.rows[0]).toEqual(row('2026-11-19', 9.99));
    expect(next.history.secondary?.s?.rows.at(-1)).toEqual(row('2026-11-23', 5));
    expect(next.history.series.s?.map((r) => r.date)).toEqual([
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
    ]);
    expect(next.chainStats.get('s')).toEqual({ added: 1, updated: 0, replaced: 0 });
  });

  it('without rows from the chain, DeFiLlama keeps leading', () => {
    const m = mergeHistory(
      history(true, POOL_A),
      [{ series: 's', pool: POOL_A, rows: incoming }],
      NOW,
      [{ ...chain, rows: [] }],
    );
    expect(m.history.provenance?.s).toMatchObject({ kind: 'defillama', pool: POOL_A });
    expect(m.history.secondary).toBeUndefined();
  });
});
