import { memo, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Table, type TableColumnsType, type TableProps } from 'antd';
import type { ProvenanceKind } from '@yield/contract/constants';
import {
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
import { COMPARE_MAX_SOURCES, NegativeYieldHint } from '@yield/ui';
import type { CompareSelection } from './CompareBar.tsx';
import { RiskBreakdownPopover } from './RiskBreakdownPopover.tsx';
import { WarningBadge, WarningNotes } from './DetectedWarnings.tsx';
import { RANKED_SORT } from './weights/model.ts';
import { BarScale, HeadingAt, StarRating } from './small-bits.tsx';
import styles from './comparison.module.css';
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
}

/**
 * antd cycles a header through ascend → descend → none; this cycle never reaches "none", and the
 * controlled sort order below turns its click into the comparison's rule (flip the active header, start
 * another one ascending).
 */
const SORT_CYCLE: TableProps<ComparisonRow>['sortDirections'] = ['ascend', 'descend', 'ascend'];

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
      {incident ? (
        <span
          className={styles.incidentBadge}
          title={`Incident on ${formatDay(incident.date)}: ${incident.summary}`}
        >
          <span aria-hidden="true">⚠</span> Incident
        </span>
      ) : null}
      <WarningBadge warnings={row.openWarnings} />
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
}: ComparisonTableProps) {
  const navigate = useNavigate();
  const [sort, setSort] = useState<SortState>(rankRequest > 0 ? RANKED_SORT : DEFAULT_SORT);
  const [rankSeen, setRankSeen] = useState(rankRequest);
  if (rankRequest !== rankSeen) {
    setRankSeen(rankRequest);
    if (rankRequest > 0) setSort(RANKED_SORT);
  }
  const sortedRows = useMemo(() => sortRows(rows, sort), [rows, sort]);
  const labels = useMemo(
    () => (shortNames ? distinctShortNames(rows.map((row) => row.name)) : null),
    [rows, shortNames],
  );
  const headingId = `${testId}-heading`;
  const incidents = rows.flatMap((row) =>
    row.activeIncidents.map((incident) => ({ row, incident })),
  );
  const staleRows = rows.filter((row) => row.status === 'stale');

  const columns = useMemo(() => {
    const sortable = (key: SortKey) => ({
      key,
      sorter: true,
      sortDirections: SORT_CYCLE,
      sortOrder: sort.key === key ? sort.direction : null,
      showSorterTooltip: false,
    });
    const name: TableColumnsType<ComparisonRow>[number] = {
      title: 'Name',
      dataIndex: 'name',
      ...sortable('name'),
      render: (_: unknown, row: ComparisonRow) => (
        <NameCell
          row={row}
          label={labels?.get(row.name) ?? row.name}
          noteKind={noteKind}
          selection={selection}
        />
      ),
    };
    const token = {
      title: 'Token',
      dataIndex: 'token',
      ...sortable('token'),
    };
    const yieldToken = {
      title: 'Yield Token',
      dataIndex: 'yieldToken',
      ...sortable('yieldToken'),
      render: (_: unknown, row: ComparisonRow) =>
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
    };
    const rating = {
      title: shortNames ? <abbr title="Overall Rating">Rating</abbr> : 'Overall Rating',
      dataIndex: 'rating',
      ...sortable('rating'),
      render: (_: unknown, row: ComparisonRow) => (
        <StarRating value={row.rating} compact={shortNames} />
      ),
    };
    const apr = {
      title: '30d APR',
      dataIndex: 'yield30d',
      align: 'right' as const,
      ...sortable('yield30d'),
      render: (_: unknown, row: ComparisonRow) => formatApr(row.yield30d),
    };
    const riskAdjusted = {
      title: ownRanking ? (
        shortNames ? (
          <abbr title="Your risk-adjusted 30d APR (your weights, not the published method)">
            Your risk-adj. APR
          </abbr>
        ) : (
          <span className={weightStyles.ownHeader} title="Your weights, not the published method">
            Your risk-adjusted 30d APR
          </span>
        )
      ) : shortNames ? (
        <abbr title="Risk-adjusted 30d APR">Risk-adj. APR</abbr>
      ) : (
        'Risk-adjusted 30d APR'
      ),
      dataIndex: 'riskAdjustedYield30d',
      align: 'right' as const,
      ...sortable('riskAdjustedYield30d'),
      render: (_: unknown, row: ComparisonRow) => (
        <span className={styles.raCell}>
          {greatKeys.has(row.key) ? <span className={styles.greatTag}>GREAT</span> : null}
          <RiskBreakdownPopover row={row}>
            {formatApr(row.riskAdjustedYield30d)}
          </RiskBreakdownPopover>
          <NegativeYieldHint value={row.riskAdjustedYield30d} />
        </span>
      ),
    };
    const tvl = {
      title: 'TVL',
      dataIndex: 'tvl',
      align: 'right' as const,
      ...sortable('tvl'),
      render: (_: unknown, row: ComparisonRow) =>
        row.isBaseRate ? (
          <span aria-label="Not applicable" title="A benchmark, not a pool">
            —
          </span>
        ) : (
          formatTvl(row.tvl)
        ),
    };
    const safety = {
      title: 'Safety',
      dataIndex: 'safety',
      ...sortable('safety'),
      render: (_: unknown, row: ComparisonRow) => <BarScale value={row.safety} label="Safety" />,
    };
    const liquidity = {
      title: 'Liquidity',
      dataIndex: 'liquidity',
      ...sortable('liquidity'),
      render: (_: unknown, row: ComparisonRow) => (
        <BarScale value={row.liquidity} label="Liquidity" />
      ),
    };
    const exit = {
      title: 'Exit',
      dataIndex: 'exitDays',
      ...sortable('exitDays'),
      render: (_: unknown, row: ComparisonRow) =>
        row.exit ? (
          <span className={styles.exitCell} title={row.exit.note} data-exit={row.exit.kind}>
            {exitLabel(row.exit)}
          </span>
        ) : (
          <span aria-label="Not applicable" title="A benchmark, not a pool">
            —
          </span>
        ),
    };
    return (
      showPro
        ? [name, token, yieldToken, rating, apr, riskAdjusted, tvl, safety, liquidity, exit]
        : [name, rating, riskAdjusted, tvl]
    ) as TableColumnsType<ComparisonRow>;
  }, [sort, showPro, shortNames, greatKeys, labels, noteKind, selection, ownRanking]);

  const onChange: TableProps<ComparisonRow>['onChange'] = (
    _pagination,
    _filters,
    sorter,
    extra,
  ) => {
    if (extra.action !== 'sort' || Array.isArray(sorter)) return;
    const clicked = (sorter.columnKey ?? sort.key) as SortKey;
    setSort((current) => nextSort(current, clicked));
  };

  return (
    <section
      className={`${styles.tableBlock} ${shortNames ? styles.compactTable : ''}`}
      aria-labelledby={headingId}
      data-testid={testId}
    >
      <HeadingAt level={headingLevel} id={headingId} className={styles.blockTitle}>
        {title}
      </HeadingAt>
      <Table<ComparisonRow>
        className={styles.table}
        columns={columns}
        dataSource={sortedRows}
        rowKey="key"
        pagination={false}
        size={shortNames ? 'small' : 'middle'}
        tableLayout="auto"
        onChange={onChange}
        locale={{ emptyText: 'No yield sources to show right now.' }}
        rowClassName={(row) => (row.isBaseRate ? styles.baseRow! : styles.sourceRow!)}
        onRow={(row) =>
          row.isBaseRate
            ? {}
            : {
                onClick: () => navigate(detailPath(row)),
              }
        }
      />
      {incidents.length > 0 ? (
        <ul className={styles.incidentNotes} aria-label={`Incidents in ${title}`}>
          {incidents.map(({ row, incident }) => (
            <li key={`${row.key}-${incident.date}`} className={styles.incidentNote}>
              <span aria-hidden="true">⚠</span>{' '}
              <strong>
                {row.name}: {incident.kind} on {formatDay(incident.date)}.
              </strong>{' '}
              {incident.summary} It keeps its place in the list so you can see what happened, and it
              is never marked GREAT while the incident is open.{' '}
              {incident.link ? (
                <a href={incident.link} target="_blank" rel="noopener noreferrer">
                  Read the incident report
                  <span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <WarningNotes rows={rows} title={title} />
      {staleRows.length > 0 ? (
        <ul className={styles.staleNotes} aria-label={`Stale data in ${title}`}>
          {staleRows.map((row) => (
            <li key={row.key} className={styles.staleNote} data-testid="stale-note">
              <strong>Stale.</strong> {staleNote(row)}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
});
