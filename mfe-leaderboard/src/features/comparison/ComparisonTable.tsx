import { memo, useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { ProvenanceKind } from '@yield/contract/constants';
import {
  baseComponentsNote,
  DEFAULT_SORT,
  detailPath,
  distinctShortNames,
  exitLabel,
  formatApr,
  formatDay,
  formatStale,
  formatTvl,
  nextSort,
  rowDataTag,
  sortRows,
  staleNote,
  type ComparisonRow,
  type SortKey,
  type SortState,
} from './model.ts';
import { WARNING_TITLES } from '@yield/contract/constants';
import {
  COMPARE_MAX_SOURCES,
  DETECTED_LABEL,
  dismissalNote,
  ExternalLink,
  hasNoLiveData,
  IncidentBadge,
  NegativeYieldHint,
  NO_LIVE_DATA,
  WarningBadge,
  warningBlocksGreat,
} from '@yield/ui';
import type { CompareSelection } from './CompareBar.tsx';
import { RiskBreakdownPopover } from './RiskBreakdownPopover.tsx';
import { RANKED_SORT } from './weights/model.ts';
import { NET_SORT } from './net-yield/model.ts';
import { NetCell } from './net-yield/NetCell.tsx';
import { BarScale, HeadingAt, StarRating } from './small-bits.tsx';
import comparison from './comparison.module.css';
import styles from './ComparisonTable.module.css';
import weightStyles from './weights/weights.module.css';

export interface ComparisonTableProps {
  title: string;
  headingLevel: number;
  rows: ComparisonRow[];
  /** Keys of the GREAT sources (chart rule), tagged in the table too. */
  greatKeys: ReadonlySet<string>;
  showPro: boolean;
  shortNames: boolean;
  /** The kind of data the page's note speaks for: rows of another kind are tagged. */
  noteKind: ProvenanceKind;
  testId: string;
  /** Rows ticked for /compare (a tick box before each source's name); none without it. */
  selection?: CompareSelection;
  /**
   * The saver's weights (weights/): each new value above 0 ranks the table by risk-adjusted APR,
   * best first; `ownRanking` while that figure is the saver's, not the published method's.
   */
  rankRequest?: number;
  ownRanking?: boolean;
  /** The saver's amount and days (net-yield/): a Net APR column; none without. */
  net?: NetColumn | null;
  /** Each new value above 0 ranks the table by net APR, best first. */
  netRankRequest?: number;
}

/** The amount (in each source's unit) and the holding days the Net APR column speaks of. */
export interface NetColumn {
  amount: number;
  days: number;
}

/** One column of the comparison: every column sorts. */
interface Column {
  key: SortKey;
  title: ReactNode;
  align?: 'right';
  render: (row: ComparisonRow) => ReactNode;
}

/** A figure cell of a row without live data: a dash (the name cell says "No live data"). */
function NoFigure() {
  return (
    <span className={styles.noFigure} aria-label={NO_LIVE_DATA} title={NO_LIVE_DATA}>
      —
    </span>
  );
}

/** The two carets after a sortable header; the active direction's caret in the primary colour. */
function SortCarets({ direction }: { direction: SortState['direction'] | null }) {
  return (
    <span className={styles.sortCarets} aria-hidden="true">
      <svg viewBox="0 0 1024 1024" className={direction === 'ascend' ? styles.caretOn : undefined}>
        <path d="M858.9 689L530.5 308.2c-9.4-10.9-27.5-10.9-37 0L165.1 689c-12.2 14.2-1.2 35 18.5 35h656.8c19.7 0 30.7-20.8 18.5-35z" />
      </svg>
      <svg viewBox="0 0 1024 1024" className={direction === 'descend' ? styles.caretOn : undefined}>
        <path d="M840.4 300H183.6c-19.7 0-30.7 20.8-18.5 35l328.4 380.8c9.4 10.9 27.5 10.9 37 0L858.9 335c12.2-14.2 1.2-35-18.5-35z" />
      </svg>
    </span>
  );
}

/** The tick box that adds a source to the comparison; its clicks never open the source's page. */
function CompareBox({ row, selection }: { row: ComparisonRow; selection: CompareSelection }) {
  const checked = selection.ids.includes(row.id);
  const full = !checked && selection.ids.length >= COMPARE_MAX_SOURCES;
  return (
    <label
      className={styles.compareBox}
      title={full ? `At most ${COMPARE_MAX_SOURCES} sources side by side` : 'Compare'}
      onClick={(event) => event.stopPropagation()}
    >
      <input
        type="checkbox"
        checked={checked}
        disabled={full}
        onChange={() => selection.toggle(row.id)}
        data-testid="compare-box"
      />
      <span className="visually-hidden">Compare {row.name}</span>
    </label>
  );
}

function NameCell({
  row,
  label,
  noteKind,
  selection,
}: {
  row: ComparisonRow;
  label: string;
  noteKind: ProvenanceKind;
  selection: CompareSelection | undefined;
}) {
  const incident = row.activeIncidents[0];
  const dataTag = rowDataTag(row, noteKind);
  const cell = (
    <span className={styles.nameCell}>
      {row.isBaseRate ? (
        <span className={styles.baseName} title={row.name}>
          {label}
          <span className={styles.baseTag}>Benchmark</span>
        </span>
      ) : (
        <Link
          to={detailPath(row)}
          className={styles.nameLink}
          title={label === row.name ? undefined : row.name}
          onClick={(event) => event.stopPropagation()}
        >
          {label}
        </Link>
      )}
      <IncidentBadge incident={incident} className={styles.incidentBadge} />
      <WarningBadge warnings={row.openWarnings} className={styles.warningBadge} />
      {row.status === 'stale' ? (
        <span
          className={styles.staleBadge}
          title={formatStale(row.provenance)}
          data-testid="stale-badge"
        >
          Stale
          {row.provenance.asOf ? (
            <span className="visually-hidden">
              , no new data since {formatDay(row.provenance.asOf)}
            </span>
          ) : null}
        </span>
      ) : null}
      {dataTag ? (
        <span className={styles.dataTag} data-testid="row-data-tag">
          {dataTag}
        </span>
      ) : null}
    </span>
  );
  // The tick box stays left of the name and its badges, however they wrap.
  return selection && !row.isBaseRate ? (
    <span className={styles.nameWithBox}>
      <CompareBox row={row} selection={selection} />
      {cell}
    </span>
  ) : (
    cell
  );
}

/** What the columns show besides the row: the table's options and the saver's ranking. */
interface ColumnOptions {
  showPro: boolean;
  shortNames: boolean;
  greatKeys: ReadonlySet<string>;
  /** Short, distinct labels of the names, when names are shortened. */
  labels: Map<string, string> | null;
  noteKind: ProvenanceKind;
  selection: CompareSelection | undefined;
  ownRanking: boolean;
  net: NetColumn | null;
}

/** The risk-adjusted APR's header: the saver's own while their weights rank, shortened on phones. */
function riskAdjustedTitle({ ownRanking, shortNames }: ColumnOptions): ReactNode {
  if (ownRanking) {
    return shortNames ? (
      <abbr title="Your risk-adjusted 30d APR (your weights, not the published method)">
        Your risk-adj. APR
      </abbr>
    ) : (
      <span className={weightStyles.ownHeader} title="Your weights, not the published method">
        Your risk-adjusted 30d APR
      </span>
    );
  }
  return shortNames ? (
    <abbr title="Risk-adjusted 30d APR">Risk-adj. APR</abbr>
  ) : (
    'Risk-adjusted 30d APR'
  );
}

/** A dash for a benchmark's cell of a pool's figure. */
function NotApplicable() {
  return (
    <span aria-label="Not applicable" title="A benchmark, not a pool">
      —
    </span>
  );
}

/** The columns of the name, the tokens and the rating. */
function identityColumns(
  options: ColumnOptions,
): Record<'name' | 'token' | 'yieldToken' | 'rating', Column> {
  const { labels, noteKind, selection, shortNames } = options;
  return {
    name: {
      key: 'name',
      title: 'Name',
      render: (row) => (
        <NameCell
          row={row}
          label={labels?.get(row.name) ?? row.name}
          noteKind={noteKind}
          selection={selection}
        />
      ),
    },
    token: { key: 'token', title: 'Token', render: (row) => row.token },
    yieldToken: {
      key: 'yieldToken',
      title: 'Yield Token',
      render: (row) =>
        row.yieldToken !== row.token ? (
          <span
            className={styles.differentToken}
            title={`You receive ${row.yieldToken}, not ${row.token}`}
          >
            {row.yieldToken}
            <span className="visually-hidden"> (differs from the deposit token {row.token})</span>
          </span>
        ) : (
          row.yieldToken
        ),
    },
    rating: {
      key: 'rating',
      title: shortNames ? <abbr title="Overall Rating">Rating</abbr> : 'Overall Rating',
      render: (row) => <StarRating value={row.rating} compact={shortNames} />,
    },
  };
}

/** The columns of the figures: APRs, TVL, safety, liquidity and exit. */
function figureColumns(
  options: ColumnOptions,
): Record<'apr' | 'riskAdjusted' | 'tvl' | 'safety' | 'liquidity' | 'exit', Column> {
  const { greatKeys, shortNames } = options;
  return {
    apr: {
      key: 'yield30d',
      title: '30d APR',
      align: 'right',
      render: (row) => (hasNoLiveData(row.provenance) ? <NoFigure /> : formatApr(row.yield30d)),
    },
    riskAdjusted: {
      key: 'riskAdjustedYield30d',
      title: riskAdjustedTitle(options),
      align: 'right',
      render: (row) =>
        hasNoLiveData(row.provenance) ? (
          <NoFigure />
        ) : (
          <span className={styles.raCell}>
            {greatKeys.has(row.key) ? <span className={styles.greatTag}>GREAT</span> : null}
            <RiskBreakdownPopover row={row} compact={shortNames}>
              {formatApr(row.riskAdjustedYield30d)}
            </RiskBreakdownPopover>
            <NegativeYieldHint value={row.riskAdjustedYield30d} />
          </span>
        ),
    },
    tvl: {
      key: 'tvl',
      title: 'TVL',
      align: 'right',
      render: (row) =>
        row.isBaseRate ? (
          <NotApplicable />
        ) : hasNoLiveData(row.provenance) ? (
          <NoFigure />
        ) : (
          formatTvl(row.tvl)
        ),
    },
    safety: {
      key: 'safety',
      title: 'Safety',
      render: (row) => <BarScale value={row.safety} label="Safety" />,
    },
    liquidity: {
      key: 'liquidity',
      title: 'Liquidity',
      render: (row) => <BarScale value={row.liquidity} label="Liquidity" />,
    },
    exit: {
      key: 'exitDays',
      title: 'Exit',
      render: (row) =>
        row.exit ? (
          <span className={styles.exitCell} title={row.exit.note} data-exit={row.exit.kind}>
            {exitLabel(row.exit)}
          </span>
        ) : (
          <NotApplicable />
        ),
    },
  };
}

/** The Net APR column for the saver's amount (a benchmark has no costs: not applicable). */
function netColumn({ amount, days }: NetColumn, shortNames: boolean): Column {
  const what = `Net APR: what ${amount.toLocaleString('en-US')} in the source's unit keeps over ${days} days after its fees and gas`;
  return {
    key: 'netApr',
    title: shortNames ? <abbr title={what}>Net APR</abbr> : <span title={what}>Net APR</span>,
    align: 'right',
    render: (row) =>
      row.isBaseRate ? <NotApplicable /> : <NetCell row={row} amount={amount} days={days} />,
  };
}

/**
 * The columns shown: all ten in Pro, else name, rating, risk-adjusted APR and TVL; Net APR after
 * the risk-adjusted APR while the saver has given an amount (on a phone in TVL's place, so the
 * figure asked for is on screen).
 */
function tableColumns(options: ColumnOptions): Column[] {
  const { name, token, yieldToken, rating } = identityColumns(options);
  const { apr, riskAdjusted, tvl, safety, liquidity, exit } = figureColumns(options);
  if (options.showPro) {
    const net = options.net ? [netColumn(options.net, options.shortNames)] : [];
    return [
      name,
      token,
      yieldToken,
      rating,
      apr,
      riskAdjusted,
      ...net,
      tvl,
      safety,
      liquidity,
      exit,
    ];
  }
  if (!options.net) return [name, rating, riskAdjusted, tvl];
  const net = netColumn(options.net, options.shortNames);
  return options.shortNames
    ? [name, rating, riskAdjusted, net]
    : [name, rating, riskAdjusted, net, tvl];
}

/**
 * The table's sort: by the default column until the saver's weights ask for a ranking (each new
 * `rankRequest` above 0 sorts by risk-adjusted APR, best first) or a new amount does (each new
 * `netRankRequest` above 0 sorts by net APR, best first).
 */
function useRankedSort(rankRequest: number, netRankRequest: number) {
  const [sort, setSort] = useState<SortState>(
    netRankRequest > 0 ? NET_SORT : rankRequest > 0 ? RANKED_SORT : DEFAULT_SORT,
  );
  const [rankSeen, setRankSeen] = useState(rankRequest);
  const [netSeen, setNetSeen] = useState(netRankRequest);
  if (rankRequest !== rankSeen) {
    setRankSeen(rankRequest);
    if (rankRequest > 0) setSort(RANKED_SORT);
  }
  if (netRankRequest !== netSeen) {
    setNetSeen(netRankRequest);
    if (netRankRequest > 0) setSort(NET_SORT);
  }
  return [sort, setSort] as const;
}

/** The class of a column's cells: aligned, and marked while the table sorts by it. */
const cellClassOf = (column: Column, sort: SortState) =>
  [
    column.align === 'right' ? styles.alignRight : '',
    column.key === sort.key ? styles.sortedCell : '',
  ].join(' ');

/** The header row: a click on a column sorts by it. */
function SortableHead({
  columns,
  sort,
  onSort,
}: {
  columns: Column[];
  sort: SortState;
  onSort: (key: SortKey) => void;
}) {
  return (
    <thead>
      <tr>
        {columns.map((column) => {
          const active = column.key === sort.key;
          return (
            // The whole header cell sorts on a click; its button carries the keyboard.
            <th
              key={column.key}
              scope="col"
              className={cellClassOf(column, sort)}
              aria-sort={
                active ? (sort.direction === 'ascend' ? 'ascending' : 'descending') : undefined
              }
              onClick={() => onSort(column.key)}
            >
              <button type="button" className={styles.sortButton}>
                <span className={styles.columnTitle}>{column.title}</span>
                <SortCarets direction={active ? sort.direction : null} />
              </button>
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

/** The rows, each opening its source's page on a click (a benchmark's opens nothing). */
function TableBody({
  rows,
  columns,
  sort,
}: {
  rows: ComparisonRow[];
  columns: Column[];
  sort: SortState;
}) {
  const navigate = useNavigate();
  return (
    <tbody>
      {rows.length === 0 ? (
        <tr>
          <td colSpan={columns.length} className={styles.emptyCell}>
            No yield sources to show right now.
          </td>
        </tr>
      ) : (
        rows.map((row) => (
          <tr
            key={row.key}
            data-row-key={row.key}
            className={row.isBaseRate ? styles.baseRow : styles.sourceRow}
            onClick={row.isBaseRate ? undefined : () => navigate(detailPath(row))}
          >
            {columns.map((column) => (
              <td key={column.key} className={cellClassOf(column, sort)}>
                {column.render(row)}
              </td>
            ))}
          </tr>
        ))
      )}
    </tbody>
  );
}

/** Under the table: one note per open incident. */
function IncidentNotes({ rows, title }: { rows: readonly ComparisonRow[]; title: string }) {
  const incidents = rows.flatMap((row) =>
    row.activeIncidents.map((incident) => ({ row, incident })),
  );
  if (incidents.length === 0) return null;
  return (
    <ul className={styles.incidentNotes} aria-label={`Incidents in ${title}`}>
      {incidents.map(({ row, incident }) => (
        <li key={`${row.key}-${incident.date}`} className={styles.incidentNote}>
          <span aria-hidden="true">⚠</span>{' '}
          <strong>
            {row.name}: {incident.kind} on {formatDay(incident.date)}.
          </strong>{' '}
          {incident.summary} It keeps its place in the list so you can see what happened, and it is
          never marked GREAT while the incident is open.{' '}
          {incident.link ? (
            <ExternalLink href={incident.link}>Read the incident report</ExternalLink>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** Under the table: one note per stale row, then the base rates' components. */
function RowNotes({ rows, title }: { rows: readonly ComparisonRow[]; title: string }) {
  const staleRows = rows.filter((row) => row.status === 'stale');
  const componentNotes = rows.flatMap((row) => {
    const note = baseComponentsNote(row);
    return note ? [{ key: row.key, note }] : [];
  });
  return (
    <>
      {staleRows.length > 0 ? (
        <ul className={styles.staleNotes} aria-label={`Stale data in ${title}`}>
          {staleRows.map((row) => (
            <li key={row.key} className={styles.staleNote} data-testid="stale-note">
              <strong>Stale.</strong> {staleNote(row)}
            </li>
          ))}
        </ul>
      ) : null}
      {componentNotes.length > 0 ? (
        <ul className={styles.staleNotes} aria-label={`Base rate components in ${title}`}>
          {componentNotes.map(({ key, note }) => (
            <li key={key} className={styles.componentsNote} data-testid="base-components-note">
              {note}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

export const ComparisonTable = memo(function ComparisonTable({
  title,
  headingLevel,
  rows,
  greatKeys,
  showPro,
  shortNames,
  noteKind,
  testId,
  selection,
  rankRequest = 0,
  ownRanking = false,
  net = null,
  netRankRequest = 0,
}: ComparisonTableProps) {
  const [chosenSort, setSort] = useRankedSort(rankRequest, netRankRequest);
  // Without the Net APR column (the amount cleared), a sort by it falls back to the default.
  const sort = chosenSort.key === 'netApr' && !net ? DEFAULT_SORT : chosenSort;
  const sortedRows = useMemo(() => sortRows(rows, sort), [rows, sort]);
  const labels = useMemo(
    () => (shortNames ? distinctShortNames(rows.map((row) => row.name)) : null),
    [rows, shortNames],
  );
  const headingId = `${testId}-heading`;
  const columns = useMemo(
    () =>
      tableColumns({
        showPro,
        shortNames,
        greatKeys,
        labels,
        noteKind,
        selection,
        ownRanking,
        net,
      }),
    [showPro, shortNames, greatKeys, labels, noteKind, selection, ownRanking, net],
  );

  return (
    <section
      className={`${styles.tableBlock} ${shortNames ? styles.compactTable : ''}`}
      aria-labelledby={headingId}
      data-testid={testId}
    >
      <HeadingAt level={headingLevel} id={headingId} className={comparison.blockTitle}>
        {title}
      </HeadingAt>
      <div className={styles.tableScroll}>
        <table
          className={[
            styles.table,
            shortNames ? styles.tableSmall : '',
            showPro ? styles.proTable : '',
          ].join(' ')}
        >
          <SortableHead
            columns={columns}
            sort={sort}
            onSort={(key) => setSort((current) => nextSort(current, key))}
          />
          <TableBody rows={sortedRows} columns={columns} sort={sort} />
        </table>
      </div>
      <IncidentNotes rows={rows} title={title} />
      <WarningNotes rows={rows} title={title} />
      <RowNotes rows={rows} title={title} />
    </section>
  );
});

/**
 * Under the table: one note per open warning detected from data (docs/methodology.md, "Detected
 * warnings"), like the incidents' notes, in amber and labelled as detected.
 */
function WarningNotes({ rows, title }: { rows: readonly ComparisonRow[]; title: string }) {
  const notes = rows.flatMap((row) => row.openWarnings.map((warning) => ({ row, warning })));
  if (notes.length === 0) return null;
  return (
    <ul className={styles.warningNotes} aria-label={`Warnings detected from data in ${title}`}>
      {notes.map(({ row, warning: w }) => (
        <li
          key={`${row.key}-${w.kind}-${w.openedOn}`}
          className={styles.warningNote}
          data-testid="warning-note"
          data-warning={w.kind}
        >
          <span aria-hidden="true">◆</span>{' '}
          <strong>
            {row.name}: {WARNING_TITLES[w.kind]} since {formatDay(w.openedOn)}.
          </strong>{' '}
          <span className={styles.detectedLabel}>{DETECTED_LABEL}</span> {w.text}{' '}
          {warningBlocksGreat(w) ? 'It is never marked GREAT while this warning is open. ' : null}
          {w.dismissed ? (
            <span className={styles.warningDismissed}>{dismissalNote(w)} </span>
          ) : null}
          {row.isBaseRate ? null : (
            <Link to={detailPath(row)}>
              See the figures<span className="visually-hidden"> of {row.name}</span>
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}
