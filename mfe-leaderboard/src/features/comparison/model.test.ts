import type { Provenance, StrategyMetrics, YieldSource } from '@yield/contract';
import {
  baseComponentsNote,
  buildRows,
  chartAxes,
  chartPoints,
  dataNote,
  DEFAULT_SORT,
  detailPath,
  exitLabel,
  formatTvl,
  nextSort,
  rowDataTag,
  shortenName,
  distinctShortNames,
  sortRows,
  staleNote,
  ZERO_BASE_RATES,
  type ComparisonRow,
} from './model.ts';
import {
  baseRates,
  baseRow,
  metricsOf,
  SAMPLE_PROVENANCE,
  sourceRow,
} from '../../test/test-fixtures.ts';

const sources: YieldSource[] = [
  sourceRow({ id: 3, name: 'Liquity v1 - Stability Pool', rating: 4, detailSlug: 'liquity' }),
  sourceRow({ id: 2, name: 'Sky Spark - Savings Account', rating: 5, detailSlug: 'sky-spark' }),
  sourceRow({ id: 7, name: 'Fluid (InstaDapp) - GHO Lending', rating: 4 }),
  sourceRow({
    id: 8,
    name: 'Resolv - USR Staking',
    rating: 1,
    incidents: [
      {
        date: '2026-03-22',
        kind: 'exploit',
        summary: 'Unbacked USR minted',
        link: 'https://example.org/incident',
        linkVerified: '2026-11-23',
        active: true,
      },
    ],
  }),
  sourceRow({ id: 13, name: 'Lido - stETH', type: 'defi', rating: 5, detailSlug: 'lido' }),
  baseRow('stablecoin'),
  baseRow('defi'),
];

const metrics: StrategyMetrics[] = [
  metricsOf(3, 4.5, 2.75, 66e6),
  // The API's verdicts (base stable: reward 4.9, risk 0.9): Sky is GREAT.
  metricsOf(2, 3.9, 3.7, 4.99e9, { great: true }),
  // Fluid GHO has no live metric: listed, N/A, counts as 0 when sorting.
  metricsOf(8, 0.5, -6.27, 76e6),
  metricsOf(13, 2.75, 2.29, 24.36e9),
];

const rates = baseRates({
  baserateStable: 4.9,
  baserateRiskAdjustedStable: 4.0,
  baserateDefi: 2.8,
  baserateRiskAdjustedDefi: 1.8,
});

const stableRows = buildRows('stablecoin', sources, metrics, rates);
const names = (rows: ComparisonRow[]) => rows.map((r) => r.name);

describe('buildRows', () => {
  it('keeps one market per table, fills the base row from the base rates, and N/A for missing metrics', () => {
    expect(stableRows.map((r) => r.key)).toEqual([
      'source-3',
      'source-2',
      'source-7',
      'source-8',
      'base-stablecoin',
    ]);
    const base = stableRows.find((r) => r.isBaseRate)!;
    expect(base).toMatchObject({
      yield30d: 4.9,
      riskAdjustedYield30d: 4.0,
      tvl: null,
      breakdownId: 'base-stablecoin',
    });
    expect(stableRows.find((r) => r.id === 7)).toMatchObject({
      yield30d: null,
      riskAdjustedYield30d: null,
      tvl: null,
    });
    expect(stableRows.find((r) => r.id === 8)!.activeIncidents).toHaveLength(1);
    expect(buildRows('defi', sources, metrics, rates).map((r) => r.key)).toEqual([
      'source-13',
      'base-defi',
    ]);
  });

  it('treats an insufficient-data source as having no figures', () => {
    const rows = buildRows(
      'defi',
      sources,
      [metricsOf(13, 9, 8, 1, { status: 'insufficient_data' })],
      rates,
    );
    expect(rows[0]).toMatchObject({ status: 'insufficient_data', yield30d: null, risk: null });
  });

  it('reads a base rate without enough data as N/A, from the API status', () => {
    const rows = buildRows(
      'defi',
      sources,
      metrics,
      baseRates({ ...rates, status: { stablecoin: 'ok', defi: 'insufficient_data' } }),
    );
    expect(rows.find((r) => r.isBaseRate)).toMatchObject({
      status: 'insufficient_data',
      yield30d: null,
      riskAdjustedYield30d: null,
    });
  });
});

const LIVE: Provenance = {
  kind: 'defillama',
  asOf: '2026-11-23',
  stale: false,
  pool: '747c1d2a-c668-4682-b9f9-296708a3dd90',
  importedAt: '2026-11-23T10:00:00.000Z',
  series: 'lido-steth',
};
const STALE: Provenance = { ...LIVE, asOf: '2026-11-20', stale: true };

describe('stale rows', () => {
  it('shows a stale source with its figures and provenance, never GREAT', () => {
    const rows = buildRows(
      'defi',
      sources,
      [metricsOf(13, 2.75, 2.29, 24.36e9, { status: 'stale', great: true, provenance: STALE })],
      rates,
    );
    expect(rows[0]).toMatchObject({
      status: 'stale',
      yield30d: 2.75,
      riskAdjustedYield30d: 2.29,
      tvl: 24.36e9,
      great: false,
      provenance: STALE,
    });
    expect(chartPoints(rows).map((p) => [p.key, p.great])).toEqual([
      ['source-13', false],
      ['base-defi', false],
    ]);
    expect(staleNote(rows[0]!)).toBe(
      'Lido - stETH: no new data since Nov 20, 2026. Its figures are those of that day, and it is never marked GREAT while it is stale.',
    );
  });

  it("keeps a stale base rate's figures and names the stale component", () => {
    const baseProvenance: Provenance = {
      kind: 'defillama',
      asOf: '2026-11-23',
      stale: true,
      components: [
        { ...LIVE, series: 'lido-steth' },
        { ...STALE, series: 'rocketpool-reth' },
      ],
    };
    const rows = buildRows(
      'defi',
      sources,
      metrics,
      baseRates({
        ...rates,
        status: { stablecoin: 'ok', defi: 'stale' },
        provenance: { stablecoin: SAMPLE_PROVENANCE, defi: baseProvenance },
      }),
    );
    const base = rows.find((r) => r.isBaseRate)!;
    expect(base).toMatchObject({ status: 'stale', yield30d: 2.8, riskAdjustedYield30d: 1.8 });
    expect(staleNote(base)).toBe(
      'DeFi Base Rate: built on a component with no new data since Nov 20, 2026 (rocketpool-reth). The rate is computed from the days that arrived.',
    );
  });

  it("takes a row's provenance from its metrics, else from the list", () => {
    const rows = buildRows(
      'defi',
      [
        sourceRow({ id: 13, name: 'Lido - stETH', type: 'defi', provenance: LIVE }),
        baseRow('defi'),
      ],
      [],
      ZERO_BASE_RATES,
    );
    expect(rows.map((r) => r.provenance.kind)).toEqual(['defillama', 'sample']);
  });
});

describe('data note and row tags', () => {
  const settingsData = { sample: true, asOf: '2026-11-21', stale: false };
  const row = (provenance: Provenance, status: ComparisonRow['status'] = 'ok') => ({
    provenance,
    status,
  });

  it('keeps the sample text while every row is sample, and before the rows are known', () => {
    const sampleNote = {
      kind: 'sample',
      lead: 'Sample data as of ',
      asOf: '2026-11-21',
      tail: ': realistic examples, not live market figures.',
    };
    expect(dataNote(settingsData)).toEqual(sampleNote);
    expect(dataNote(settingsData, [row(SAMPLE_PROVENANCE)])).toEqual(sampleNote);
    expect(rowDataTag(row(SAMPLE_PROVENANCE), 'sample')).toBeNull();
  });

  it('names DeFiLlama once a row is imported and tags the rows still sample', () => {
    const note = dataNote({ ...settingsData, asOf: '2026-11-23' }, [
      row(LIVE),
      row(SAMPLE_PROVENANCE),
    ]);
    expect(note).toEqual({
      kind: 'defillama',
      lead: 'Data: DeFiLlama, as of ',
      asOf: '2026-11-23',
      tail: '. Rows marked Sample data are realistic examples, not live market figures.',
    });
    expect(rowDataTag(row(SAMPLE_PROVENANCE), note.kind)).toBe('Sample data');
    expect(rowDataTag(row(LIVE), note.kind)).toBeNull();
    expect(rowDataTag(row({ kind: 'operator', asOf: null, stale: false }), note.kind)).toBe(
      'Operator data',
    );
  });

  it('says what Stale means when a row is stale', () => {
    const note = dataNote({ sample: false, asOf: '2026-11-23', stale: true }, [
      row(LIVE),
      row(STALE, 'stale'),
    ]);
    expect(note.lead).toBe('Data: DeFiLlama, as of ');
    expect(note.tail).toBe(
      '. Rows marked Stale have had no new data for more than 48 hours: their figures are from their last day, and they are never marked GREAT.',
    );
  });

  it('reads typed data as dated data without a provider', () => {
    expect(dataNote({ sample: false, asOf: '2026-11-20', stale: false }).lead).toBe('Data as of ');
  });
});

describe('sorting', () => {
  it('starts on Overall Rating, best first, with the base row last', () => {
    expect(DEFAULT_SORT).toEqual({ key: 'rating', direction: 'descend' });
    expect(names(sortRows(stableRows, DEFAULT_SORT))).toEqual([
      'Sky Spark - Savings Account',
      // Equal ratings fall back to the higher risk-adjusted APR (GHO has none: counts as 0).
      'Liquity v1 - Stability Pool',
      'Fluid (InstaDapp) - GHO Lending',
      'Resolv - USR Staking',
      'DeFi Base Rate',
    ]);
  });

  it('flips the active header and starts another header ascending', () => {
    const flipped = nextSort(DEFAULT_SORT, 'rating');
    expect(flipped).toEqual({ key: 'rating', direction: 'ascend' });
    expect(nextSort(flipped, 'rating')).toEqual({ key: 'rating', direction: 'descend' });
    expect(nextSort(flipped, 'tvl')).toEqual({ key: 'tvl', direction: 'ascend' });
    expect(nextSort({ key: 'tvl', direction: 'descend' }, 'name')).toEqual({
      key: 'name',
      direction: 'ascend',
    });
  });

  it('keeps the DeFi Base Rate row last in both directions', () => {
    for (const direction of ['ascend', 'descend'] as const) {
      for (const key of ['rating', 'riskAdjustedYield30d', 'tvl', 'name'] as const) {
        expect(sortRows(stableRows, { key, direction }).at(-1)!.isBaseRate).toBe(true);
      }
    }
  });

  it('counts a missing live metric as 0', () => {
    const ascending = names(
      sortRows(stableRows, { key: 'riskAdjustedYield30d', direction: 'ascend' }),
    );
    expect(ascending).toEqual([
      'Resolv - USR Staking', // -6.27
      'Fluid (InstaDapp) - GHO Lending', // missing → 0
      'Liquity v1 - Stability Pool', // 2.75
      'Sky Spark - Savings Account', // 3.7
      'DeFi Base Rate',
    ]);
    expect(names(sortRows(stableRows, { key: 'tvl', direction: 'descend' })).slice(0, 2)).toEqual([
      'Sky Spark - Savings Account',
      'Resolv - USR Staking',
    ]);
  });

  it('sorts text columns alphabetically', () => {
    expect(names(sortRows(stableRows, { key: 'name', direction: 'ascend' }))[0]).toBe(
      'Fluid (InstaDapp) - GHO Lending',
    );
  });
});

describe('names and links', () => {
  it('drops the text after " - " and leaves other names whole', () => {
    expect(shortenName('Liquity v1 - Stability Pool')).toBe('Liquity v1');
    expect(shortenName('Fluid (InstaDapp) - stETH Vault')).toBe('Fluid (InstaDapp)');
    expect(shortenName('Gauntlet- USD Alpha')).toBe('Gauntlet- USD Alpha');
    expect(shortenName('DeFi Base Rate')).toBe('DeFi Base Rate');
  });

  it('keeps enough of two names that shortening would make equal to tell them apart', () => {
    const table = [
      'Liquity v1 - Stability Pool',
      'Resolv - USD0++ Pool',
      'Resolv - USR Staking',
      'Gauntlet- USD Alpha',
      'DeFi Base Rate',
    ];
    expect([...distinctShortNames(table).values()]).toEqual([
      'Liquity v1',
      'Resolv USD0++',
      'Resolv USR',
      'Gauntlet- USD Alpha',
      'DeFi Base Rate',
    ]);
    // Only clashes within one table count: alone, each keeps the spec's short name.
    expect(distinctShortNames(['Resolv - USR Staking']).get('Resolv - USR Staking')).toBe('Resolv');
    // Words are added until the names differ; a bare name keeps its form.
    expect([
      ...distinctShortNames(['Fluid - GHO Lending v1', 'Fluid - GHO Lending v2', 'Fluid']).values(),
    ]).toEqual(['Fluid GHO Lending v1', 'Fluid GHO Lending v2', 'Fluid']);
  });

  it('sends the four public strategies to /options and every other source to /premium', () => {
    expect(detailPath({ id: 3, detailSlug: 'liquity' })).toBe('/options/liquity');
    expect(detailPath({ id: 2, detailSlug: 'sky-spark' })).toBe('/options/sky-spark');
    expect(detailPath({ id: 12, detailSlug: 'gauntlet' })).toBe('/options/gauntlet');
    expect(detailPath({ id: 13, detailSlug: 'lido' })).toBe('/options/lido');
    expect(detailPath({ id: 8, detailSlug: null })).toBe('/premium/8');
  });
});

describe('formats', () => {
  it('formats TVL with two decimals for B on the comparison page', () => {
    expect(formatTvl(0)).toBe('$0');
    expect(formatTvl(999)).toBe('$999');
    expect(formatTvl(1_000)).toBe('$1.0K');
    expect(formatTvl(12_345)).toBe('$12.3K');
    expect(formatTvl(999_960)).toBe('$1.0M');
    expect(formatTvl(65_957_743)).toBe('$66.0M');
    expect(formatTvl(4_987_454_211)).toBe('$4.99B');
    expect(formatTvl(24_356_094_224)).toBe('$24.36B');
    expect(formatTvl(1_234_567_890, 1)).toBe('$1.2B');
    expect(formatTvl(null)).toBe('N/A');
  });
});

describe('chart points: risk and GREAT from the API', () => {
  it('plots each source at the API risk and reward, GREAT as the API says', () => {
    const points = chartPoints(stableRows);
    const sky = points.find((p) => p.id === 2)!;
    expect(sky.risk).toBeCloseTo(0.2);
    expect(sky.reward).toBe(3.9);
    expect(sky.great).toBe(true);
    expect(points.find((p) => p.id === 3)!.great).toBe(false);
    expect(points.find((p) => p.id === 8)).toMatchObject({ great: false, hasIncident: true });
    // A source without figures is not plotted; the base point is, and is never GREAT itself.
    expect(points.some((p) => p.id === 7)).toBe(false);
    expect(points.find((p) => p.isBaseRate)).toMatchObject({ great: false });
    expect(points.find((p) => p.isBaseRate)!.risk).toBeCloseTo(0.9);
  });

  it('takes the verdict from the API, not from the figures', () => {
    const rows = buildRows(
      'stablecoin',
      sources,
      [metricsOf(3, 40, 39, 1, { great: false })],
      rates,
    );
    expect(chartPoints(rows).find((p) => p.id === 3)).toMatchObject({ risk: 1, great: false });
    const odd = buildRows(
      'stablecoin',
      sources,
      [metricsOf(3, 1, 0, 1, { risk: 7, great: true })],
      rates,
    );
    expect(chartPoints(odd).find((p) => p.id === 3)).toMatchObject({ risk: 7, great: true });
  });

  it('leaves out a zeroed base point after a failed base-rate fetch', () => {
    const points = chartPoints(buildRows('stablecoin', sources, metrics, ZERO_BASE_RATES));
    expect(points.some((p) => p.isBaseRate)).toBe(false);
    expect(points.find((p) => p.id === 2)!.great).toBe(true);
  });
});

describe('chart axes', () => {
  it('puts x max at the largest risk + 0.3, y max at the largest reward + 1, round gridlines about a quarter apart', () => {
    const axes = chartAxes([
      { risk: 1.5, reward: 4 },
      { risk: 6.7, reward: 0.5 },
      { risk: 0.2, reward: 7 },
    ]);
    expect(axes.x.max).toBeCloseTo(7.0);
    expect(axes.y.max).toBe(8);
    expect(axes.x.min).toBe(0);
    expect(axes.y.tickPositions).toEqual([0, 2, 4, 6, 8]);
    expect(axes.x.tickPositions).toEqual([0, 2, 4, 6]);
  });

  it('ticks an odd range at round values, not at its quarters (2.17%, 4.33%, …)', () => {
    const axes = chartAxes([
      { risk: 1.87, reward: 7.67 },
      { risk: 0.9, reward: 3.1 },
    ]);
    expect(axes.y.max).toBeCloseTo(8.67);
    expect(axes.y.tickPositions).toEqual([0, 2, 4, 6, 8]);
    expect(axes.x.max).toBeCloseTo(2.17);
    expect(axes.x.tickPositions).toEqual([0, 0.5, 1, 1.5, 2]);
  });

  it('extends below zero only when a point is negative', () => {
    const axes = chartAxes([{ risk: 1, reward: -2 }]);
    expect(axes.y.min).toBe(-2);
    expect(axes.y.max).toBe(-1);
    expect(axes.y.tickPositions).toEqual([-2, -1.75, -1.5, -1.25, -1]);
  });
});

describe('the Exit column', () => {
  const exit = (kind: 'instant' | 'cooldown' | 'queue' | 'lock', days: number) => ({
    kind,
    days,
    note: 'How it works.',
    link: 'https://example.org/docs',
    verified: '2026-11-23',
  });
  const rows = buildRows(
    'stablecoin',
    [
      sourceRow({ id: 5, name: 'Ethena - sUSDe', exit: exit('cooldown', 7) }),
      sourceRow({ id: 6, name: 'USD0++', exit: exit('lock', 585) }),
      sourceRow({ id: 2, name: 'Sky Spark - Savings Account', exit: exit('instant', 0) }),
      baseRow('stablecoin'),
    ],
    [],
    rates,
  );

  it('sorts by the days until the money is back, quickest first, base row last', () => {
    expect(names(sortRows(rows, { key: 'exitDays', direction: 'ascend' }))).toEqual([
      'Sky Spark - Savings Account',
      'Ethena - sUSDe',
      'USD0++',
      'DeFi Base Rate',
    ]);
    expect(names(sortRows(rows, { key: 'exitDays', direction: 'descend' }))[0]).toBe('USD0++');
  });

  it('says each kind in words', () => {
    expect(exitLabel(exit('instant', 0))).toBe('Instant');
    expect(exitLabel(exit('cooldown', 7))).toBe('7-day cooldown');
    expect(exitLabel(exit('queue', 5))).toBe('Queue, up to 5 days');
    expect(exitLabel(exit('lock', 1))).toBe('Locked 1 day');
    expect(rows.at(-1)).toMatchObject({ exit: null, exitDays: null });
  });
});

describe('no live data (the site has imported; the source has no feed yet)', () => {
  const NONE: Provenance = { kind: 'none', asOf: null, stale: false };
  const live = (id: number, name: string, ra: number, extra: Partial<StrategyMetrics> = {}) =>
    metricsOf(id, ra + 1, ra, 50e6, { provenance: LIVE, ...extra });
  // As the API answers such a source: kind none, zeros, status insufficient_data, never GREAT.
  const none = (id: number) =>
    metricsOf(id, 0, 0, 0, { status: 'insufficient_data', asOf: null, provenance: NONE });
  const listed = [
    sourceRow({ id: 3, name: 'Liquity v1 - Stability Pool', rating: 5, provenance: NONE }),
    sourceRow({ id: 2, name: 'Sky Spark - Savings Account', rating: 4, provenance: LIVE }),
    sourceRow({ id: 12, name: 'Gauntlet - USD Alpha', rating: 3, provenance: NONE }),
    sourceRow({ id: 8, name: 'Resolv - USR Staking', rating: 1, provenance: LIVE }),
    baseRow('stablecoin', { provenance: LIVE }),
  ];
  const rows = buildRows(
    'stablecoin',
    listed,
    [none(3), live(2, 'Sky', 3.7, { great: true }), none(12), live(8, 'Resolv', -1)],
    baseRates({
      baserateStable: 4.9,
      baserateRiskAdjustedStable: 4,
      provenance: { stablecoin: LIVE, defi: LIVE },
    }),
  );

  it('has no figures and is tagged No live data, whatever the note speaks for', () => {
    const liquity = rows.find((r) => r.id === 3)!;
    expect(liquity).toMatchObject({
      yield30d: null,
      riskAdjustedYield30d: null,
      tvl: null,
      risk: null,
      charges: null,
      great: false,
    });
    expect(rowDataTag(liquity, 'defillama')).toBe('No live data');
    expect(rowDataTag(liquity, 'sample')).toBe('No live data');
    expect(
      rowDataTag(
        rows.find((r) => r.id === 2)!,
        'defillama',
      ),
    ).toBeNull();
  });

  it('is never plotted', () => {
    expect(chartPoints(rows).map((p) => p.key)).toEqual([
      'source-2',
      'source-8',
      'base-stablecoin',
    ]);
  });

  it('sorts last in every direction of every column, before the base row', () => {
    const keys = ['rating', 'riskAdjustedYield30d', 'yield30d', 'tvl', 'name'] as const;
    for (const key of keys) {
      for (const direction of ['ascend', 'descend'] as const) {
        const order = sortRows(rows, { key, direction }).map((r) => r.id);
        expect(order.slice(0, 2).sort((a, b) => a - b)).toEqual([2, 8]);
        expect(order.slice(2, 4).sort((a, b) => a - b)).toEqual([3, 12]);
        expect(order[4]).toBe(0);
      }
    }
  });

  it('the note says what No live data means, and names DeFiLlama', () => {
    const note = dataNote({ sample: false, asOf: '2026-11-23', stale: false }, rows);
    expect(note).toEqual({
      kind: 'defillama',
      lead: 'Data: DeFiLlama, as of ',
      asOf: '2026-11-23',
      tail: '. Rows marked No live data have no feed the site imports yet: they are listed without figures, and neither plotted nor ranked.',
    });
    expect(note.tail).not.toContain('Sample data');
  });

  it('a base rate names the components it uses and those it leaves out', () => {
    const base = {
      name: 'Stablecoin DeFi Base Rate',
      isBaseRate: true,
      provenance: {
        ...LIVE,
        components: [
          { ...LIVE, series: 'aave-v3-usdc' },
          { ...LIVE, series: 'sky-dsr-dai' },
          { ...NONE, series: 'spark-dai' },
        ],
      },
    };
    expect(baseComponentsNote(base)).toBe(
      'Stablecoin DeFi Base Rate: the mean of aave-v3-usdc, sky-dsr-dai. Left out, without live data: spark-dai.',
    );
    expect(
      baseComponentsNote({
        ...base,
        provenance: { ...LIVE, components: [{ ...LIVE, series: 'a' }] },
      }),
    ).toBeNull();
    // A base rate with no live component has no figures at all.
    const empty = buildRows(
      'stablecoin',
      [baseRow('stablecoin')],
      [],
      baseRates({
        baserateStable: 4.9,
        status: { stablecoin: 'insufficient_data', defi: 'ok' },
        provenance: {
          stablecoin: { ...NONE, components: [{ ...NONE, series: 'spark-dai' }] },
          defi: LIVE,
        },
      }),
    );
    expect(empty[0]).toMatchObject({ yield30d: null, riskAdjustedYield30d: null });
    expect(chartPoints(empty)).toEqual([]);
  });
});
