import { useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import {
  baseRatesQuery,
  breakdownQuery,
  colors,
  historyQuery,
  PageMeta,
  sourcesQuery,
  strategiesQuery,
} from '@yield/platform';
import type { Incident, SourceRow } from '@yield/contract';
import { BASE_KEY_OF_TYPE, type TimeRange } from '@yield/contract/constants';
import { describeIncidents, incidentsWithin, type ChartIncident } from '@yield/charts';
import {
  parseCompareIds,
  COMPARE_MAX_SOURCES,
  comparePath,
  DepositsPausedNote,
  formatApr,
  formatDay,
  formatPoints,
  formatSignedPoints,
  ProvenanceLine,
  formatTvl,
  hasNoLiveData,
  NegativeYieldHint,
  RA30_CHARGE_LIST,
  sourcePagePath,
  ExternalLink,
} from '@yield/ui';
import { ChartFrame } from '../../shared/charts/ChartFrame.tsx';
import { LazyCompareChart, loadCompareChart } from '../../shared/charts/lazy.ts';
import type { CompareSeries } from '../../shared/charts/CompareChart.tsx';
import { RangeButtons } from '../../shared/RangeButtons.tsx';
import { AlertForm } from '../../shared/saver/AlertForm.tsx';
import { EarningsCalculator } from '../../shared/saver/EarningsCalculator.tsx';
import { ExitFacts } from '../../shared/saver/ExitInfo.tsx';
import { PageFailed, PageLoading } from '../../shared/PageStates.tsx';
import layout from '../../shared/page.module.css';
import {
  compareColumns,
  joinNames,
  MARKET_LABEL,
  resolveSelection,
  type CompareColumn,
  type CompareSelection,
} from './model.ts';
import { SideTable, type SideRow } from './SideTable.tsx';
import { NetYieldSection } from './NetYieldSection.tsx';
import styles from './compare.module.css';

/** The chart's range when the page opens: long enough to show a trend and older incidents. */
const START_RANGE: TimeRange = '90D';
const CHART_HEIGHT = 340;
const BASE_NAME: Record<SourceRow['type'], string> = {
  stablecoin: 'DeFi Base Rate (stablecoin)',
  defi: 'DeFi Base Rate (crypto)',
};

function Loading({ label }: { label: string }) {
  return <span className="spinner" role="status" aria-label={label} />;
}

// ---------------------------------------------------------------------------------------------
// Sections

function FiguresSection({ columns, loading }: { columns: CompareColumn[]; loading: boolean }) {
  const cell = (c: CompareColumn, value: ReactNode) =>
    loading && !c.metrics ? <Loading label={`Loading the figures of ${c.source.name}`} /> : value;
  const rows: SideRow[] = [
    {
      label: 'Risk-adjusted 30d APR',
      testId: 'row-ra',
      cells: columns.map((c) =>
        cell(
          c,
          <span className={styles.big}>
            {formatApr(c.measured ? c.metrics?.riskAdjustedYield30d : null)}
            <NegativeYieldHint value={c.measured ? c.metrics?.riskAdjustedYield30d : null} />
          </span>,
        ),
      ),
    },
    {
      label: '30d APR',
      testId: 'row-apr',
      cells: columns.map((c) => cell(c, formatApr(c.measured ? c.metrics?.yield30d : null))),
    },
    {
      label: 'Risk charges',
      testId: 'row-risk',
      cells: columns.map((c) => cell(c, formatPoints(c.measured ? c.metrics?.risk : null))),
    },
    {
      label: 'DeFi Base Rate (risk-adjusted)',
      testId: 'row-base',
      cells: columns.map((c) =>
        cell(
          c,
          <>
            {formatApr(c.baseRiskAdjusted)}{' '}
            <span className={styles.sub}>{MARKET_LABEL[c.source.type].toLowerCase()}</span>
          </>,
        ),
      ),
    },
    {
      label: 'vs base',
      testId: 'row-vs-base',
      cells: columns.map((c) =>
        cell(
          c,
          <span className={c.vsBase !== null && c.vsBase > 0 ? styles.above : styles.below}>
            {formatSignedPoints(c.vsBase)}
          </span>,
        ),
      ),
    },
    {
      label: 'GREAT',
      testId: 'row-great',
      cells: columns.map((c) =>
        cell(
          c,
          c.great ? (
            <span className={styles.greatTag}>GREAT</span>
          ) : (
            <span className={styles.sub}>Not GREAT</span>
          ),
        ),
      ),
    },
    {
      label: 'TVL',
      testId: 'row-tvl',
      cells: columns.map((c) => cell(c, formatTvl(c.measured ? c.metrics?.tvl : null))),
    },
    {
      label: 'Data',
      testId: 'row-data',
      cells: columns.map((c) =>
        cell(
          c,
          <span className={styles.sub}>
            <ProvenanceLine
              provenance={c.metrics?.provenance ?? c.source.provenance}
              stale={c.metrics?.status === 'stale'}
              staleClassName={layout.staleFlag}
            />
            {c.metrics?.status === 'insufficient_data' && !hasNoLiveData(c.metrics.provenance)
              ? ' Not enough history yet.'
              : null}
          </span>,
        ),
      ),
    },
  ];
  return (
    <section className={layout.section} aria-labelledby="figures-heading" data-section="figures">
      <h2 id="figures-heading">Figures</h2>
      <SideTable
        caption="Figures of each source, 30 days to the newest day of data"
        columns={columns}
        rows={rows}
        testId="figures-table"
      />
      <p className="muted">
        Ranked by the risk-adjusted 30-day APR against the DeFi Base Rate of each source&apos;s
        market; &ldquo;vs base&rdquo; is the difference in percentage points a year.{' '}
        <Link to="/methodology">How the figures are worked out</Link>
      </p>
    </section>
  );
}

function ChargesSection({ columns }: { columns: CompareColumn[] }) {
  const breakdowns = useQueries({
    queries: columns.map((c) => breakdownQuery(c.source.id)),
  });
  const cell = (
    i: number,
    value: (b: NonNullable<(typeof breakdowns)[number]['data']>) => ReactNode,
  ) => {
    const b = breakdowns[i]!;
    if (b.isPending) return <Loading label={`Loading the charges of ${columns[i]!.source.name}`} />;
    if (b.isError || b.data.status === 'insufficient_data') return 'N/A';
    return value(b.data);
  };
  const rows: SideRow[] = [
    {
      label: '30d APR',
      cells: columns.map((_, i) => cell(i, (b) => formatApr(b.yield30d))),
    },
    ...RA30_CHARGE_LIST.map((charge) => ({
      label: (
        <>
          −&nbsp;{charge.label} <span className={styles.why}>{charge.explanation}</span>
        </>
      ),
      testId: `charge-${charge.key}`,
      cells: columns.map((_, i) => cell(i, (b) => formatPoints(b.charges[charge.key]))),
    })),
  ];
  const foot: SideRow = {
    label: '= Risk-adjusted APR',
    cells: columns.map((_, i) =>
      cell(i, (b) => (
        <>
          {formatApr(b.riskAdjustedYield30d)}
          <NegativeYieldHint value={b.riskAdjustedYield30d} />
          <span className={styles.sub}>
            {' '}
            {formatDay(b.window.from)} to {formatDay(b.window.to)}
          </span>
        </>
      )),
    ),
  };
  return (
    <section className={layout.section} aria-labelledby="charges-heading" data-section="charges">
      <h2 id="charges-heading">Risk charges ({columns[0]?.metrics?.method ?? 'ra30-v1'})</h2>
      <SideTable
        caption="The risk charges of each source, percentage points a year"
        columns={columns}
        rows={rows}
        foot={foot}
        testId="charges-table"
      />
    </section>
  );
}

function PerSource({
  columns,
  children,
}: {
  columns: CompareColumn[];
  children: (source: SourceRow) => ReactNode;
}) {
  return (
    <div className={styles.perSource} style={{ '--columns': columns.length } as CSSProperties}>
      {columns.map((c) => (
        <div key={c.source.id} className={styles.sourceBlock} data-source-id={c.source.id}>
          <h3>
            <span className={styles.swatch} style={{ background: c.color }} aria-hidden="true" />
            {c.source.name}
          </h3>
          {children(c.source)}
        </div>
      ))}
    </div>
  );
}

function ExitSection({ columns }: { columns: CompareColumn[] }) {
  return (
    <section className={layout.section} aria-labelledby="exit-heading" data-section="exit">
      <h2 id="exit-heading">Exit</h2>
      <PerSource columns={columns}>{(source) => <ExitFacts exit={source.exit} />}</PerSource>
    </section>
  );
}

function IncidentItem({ incident }: { incident: Incident }) {
  return (
    <li className={incident.active ? styles.incidentOpen : styles.incidentPast}>
      <strong>
        {incident.active ? 'Open' : 'Past'}: {incident.kind} on{' '}
        <time dateTime={incident.date}>{formatDay(incident.date)}</time>.
      </strong>{' '}
      {incident.summary} <ExternalLink href={incident.link}>Read the incident report</ExternalLink>
    </li>
  );
}

function IncidentsSection({ columns }: { columns: CompareColumn[] }) {
  return (
    <section
      className={layout.section}
      aria-labelledby="incidents-heading"
      data-section="incidents"
    >
      <h2 id="incidents-heading">Incidents</h2>
      <PerSource columns={columns}>
        {(source) =>
          source.incidents.length === 0 ? (
            <p className="muted">No incident recorded.</p>
          ) : (
            <ul className={styles.incidents} aria-label={`Incidents of ${source.name}`}>
              {/* Open incidents first, then the past ones, newest first. */}
              {[...source.incidents]
                .sort((a, b) => Number(b.active) - Number(a.active) || b.date.localeCompare(a.date))
                .map((incident) => (
                  <IncidentItem key={`${incident.date}-${incident.kind}`} incident={incident} />
                ))}
            </ul>
          )
        }
      </PerSource>
      <p className="muted">
        A source with an open incident keeps its place in the rankings and is never marked GREAT
        until it is resolved.
      </p>
    </section>
  );
}

function HistorySection({ columns }: { columns: CompareColumn[] }) {
  const [range, setRange] = useState<TimeRange>(START_RANGE);
  const baseTypes = [...new Set(columns.map((c) => c.source.type))];
  const ids = [...columns.map((c) => c.source.id), ...baseTypes.map((t) => BASE_KEY_OF_TYPE[t])];
  const histories = useQueries({
    queries: ids.map((id) => ({ ...historyQuery(id, range), placeholderData: keepPreviousData })),
  });
  const loading = histories.some((h) => h.isPending);
  const switching = histories.some((h) => h.isPlaceholderData && h.isFetching);
  const failed = histories.some((h) => h.isError);
  const datas = histories.map((h) => h.data);

  const series = useMemo<CompareSeries[]>(
    () =>
      ids.map((id, i) => {
        const column = columns[i];
        const points = (datas[i]?.data ?? []).map((p): [number, number] => [p.timestamp, p.apr]);
        return column
          ? { name: column.source.name, color: column.color, points }
          : {
              name: BASE_NAME[baseTypes[i - columns.length]!],
              color: colors.chartMuted,
              points,
              benchmark: i === columns.length ? 'ShortDot' : 'ShortDash',
            };
      }),
    // `datas` entries are the query cache's answers: a new array only when an answer changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [columns, ...datas],
  );
  const incidents = useMemo<(ChartIncident & { date: string })[]>(
    () =>
      columns.flatMap((c) =>
        c.source.incidents.map((i) => ({ date: i.date, kind: i.kind, source: c.source.name })),
      ),
    [columns],
  );
  const first = series[0]?.points[0]?.[0];
  const last = series[0]?.points.at(-1)?.[0];
  const shown = useMemo(() => incidentsWithin(incidents, first, last), [incidents, first, last]);
  const count = series.reduce((n, s) => n + s.points.length, 0);
  const summary = failed
    ? 'not available'
    : `daily APR over ${range} of ${joinNames(series.map((s) => s.name))}${
        shown.length ? `; incidents marked: ${describeIncidents(shown, formatDay)}` : ''
      }`;

  return (
    <section className={layout.section} aria-labelledby="history-heading" data-section="history">
      <div className={layout.sectionHead}>
        <h2 id="history-heading">APR history</h2>
        <RangeButtons label="History range" range={range} onChange={setRange} />
      </div>
      <ChartFrame
        title={`Daily APR, last ${range}`}
        summary={summary}
        height={CHART_HEIGHT}
        pointCount={count}
        unavailable={failed}
        busy={loading || switching}
        testId="compare-chart"
        load={loadCompareChart}
      >
        <LazyCompareChart series={series} incidents={shown} height={CHART_HEIGHT} />
      </ChartFrame>
      <p className="muted" data-testid="incident-legend">
        {shown.length > 0 ? (
          <>
            <span aria-hidden="true">⚠</span> The dashed red line marks{' '}
            {describeIncidents(shown, formatDay)}.
          </>
        ) : incidents.length > 0 ? (
          `No incident of these sources falls within the last ${range}; all are listed under Incidents.`
        ) : (
          'No incident is recorded for these sources.'
        )}{' '}
        Grey, dotted or dashed: the DeFi Base Rate each source is ranked against.
      </p>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// Page

function SourceHeads({ columns }: { columns: CompareColumn[] }) {
  return (
    <ul className={styles.heads} aria-label="Compared sources">
      {columns.map((c) => (
        <li key={c.source.id} className={styles.head} style={{ borderTopColor: c.color }}>
          <Link to={sourcePagePath(c.source)} className={styles.headName}>
            {c.source.name}
          </Link>
          <span className={styles.sub}>
            {MARKET_LABEL[c.source.type]} · {c.source.token} · amounts in {c.source.unit}
          </span>
          {c.source.depositUrl ? (
            <ExternalLink href={c.source.depositUrl} arrow>
              Deposit on the provider&apos;s site
            </ExternalLink>
          ) : c.source.depositsPaused ? (
            <DepositsPausedNote paused={c.source.depositsPaused} className={styles.sub} />
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function Comparison({ sources }: { sources: SourceRow[] }) {
  const metrics = useQuery(strategiesQuery);
  const rates = useQuery(baseRatesQuery);
  const columns = useMemo(
    () => compareColumns(sources, metrics.data, rates.data),
    [sources, metrics.data, rates.data],
  );
  const names = sources.map((s) => s.name);
  return (
    <main className={`page ${layout.page}`} data-testid="compare-page">
      <PageMeta
        title={`Compare ${names.join(' vs ')}`}
        description={`${joinNames(names)} side by side: risk-adjusted APR, risk charges, exit, incidents, APR history and earnings.`}
      />
      <header className={layout.hero}>
        <Link to="/options" className={layout.back}>
          <span aria-hidden="true">←</span> All yield options
        </Link>
        <h1 className={styles.title}>Compare {joinNames(names)}</h1>
        <p className={layout.lead}>
          Side by side: figures, risk charges, exit, incidents, APR history and earnings. This
          page&apos;s address shows the same comparison to anyone you share it with.
        </p>
        <SourceHeads columns={columns} />
      </header>
      {metrics.isError || rates.isError ? (
        <div className={layout.notice} role="alert">
          <p>Some figures could not be loaded just now; they read N/A.</p>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void Promise.all([metrics.refetch(), rates.refetch()])}
          >
            Try again
          </button>
        </div>
      ) : null}
      <FiguresSection columns={columns} loading={metrics.isPending || rates.isPending} />
      <ChargesSection columns={columns} />
      <ExitSection columns={columns} />
      <IncidentsSection columns={columns} />
      <HistorySection columns={columns} />
      <NetYieldSection columns={columns} />
      <EarningsCalculator ids={sources.map((s) => s.id)} net={false} />
      <AlertForm sourceId={sources[0]!.id} choices={sources.map((s) => s.id)} />
    </main>
  );
}

/** What the link asked for and why it cannot be shown, with the ways on. */
function problemText(selection: Exclude<CompareSelection, { ok: true }>, count: number): string {
  switch (selection.problem) {
    case 'missing':
      return 'This link names no sources to compare.';
    case 'malformed':
      return `This link names something that is not a source id: ${selection.malformed.map((m) => `“${m}”`).join(', ')}.`;
    case 'duplicate':
      return 'This link names the same source more than once.';
    case 'too-few':
      return 'A comparison needs two or three sources; this link names only one.';
    case 'too-many':
      return `A comparison shows at most ${COMPARE_MAX_SOURCES} sources side by side; this link names ${count}.`;
    case 'unknown':
      return `No yield source has the id ${joinNames(selection.unknown.map(String))}.`;
  }
}

function CannotCompare({
  selection,
  count,
}: {
  selection: Exclude<CompareSelection, { ok: true }>;
  count: number;
}) {
  const offer = selection.known.slice(0, COMPARE_MAX_SOURCES);
  return (
    <main className={`page ${layout.page}`} data-testid="compare-page">
      <PageMeta
        title="Compare yield sources"
        description="Compare two or three yield sources side by side."
      />
      <header className={layout.hero}>
        <Link to="/options" className={layout.back}>
          <span aria-hidden="true">←</span> All yield options
        </Link>
        <h1 className={styles.title}>Compare yield sources</h1>
      </header>
      <div
        className={`${layout.notice} ${styles.problem}`}
        role="alert"
        data-testid="compare-problem"
      >
        <p>{problemText(selection, count)}</p>
        <p>
          Pick two or three sources on the comparison with their &ldquo;Compare&rdquo; boxes, then
          choose &ldquo;Compare&rdquo;.
        </p>
        <p className={styles.ways}>
          <Link to="/options" className="btn btn-primary">
            Pick sources to compare
          </Link>
          {offer.length >= 2 ? (
            <Link to={comparePath(offer.map((s) => s.id))} className="btn btn-secondary">
              Compare {joinNames(offer.map((s) => s.name))}
            </Link>
          ) : null}
        </p>
      </div>
    </main>
  );
}

/** /compare?ids=3,2,13: two or three sources side by side (mfe-strategy/README.md). */
export function Compare({ search }: { search: string }) {
  const parsed = useMemo(() => parseCompareIds(search), [search]);
  const sources = useQuery(sourcesQuery);
  const selection = useMemo(
    () => (sources.data ? resolveSelection(parsed, sources.data) : null),
    [parsed, sources.data],
  );

  if (sources.isPending)
    return <PageLoading label="Loading the comparison…" title="Compare yield sources" />;
  if (sources.isError || !selection) {
    return (
      <PageFailed
        title="Compare yield sources"
        description="Compare yield sources side by side."
        what="The sources"
        onRetry={() => void sources.refetch()}
      />
    );
  }
  if (!selection.ok) return <CannotCompare selection={selection} count={parsed.ids.length} />;
  return <Comparison sources={selection.sources} />;
}
