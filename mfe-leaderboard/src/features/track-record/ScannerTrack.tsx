/**
 * "Scanner's top 10" on /track-record (GET /api/track-record/scanner): on the first day of each
 * month, the scanner's top 10 pools by risk-adjusted APR and the top 10 by that day's APY, from
 * each pool's own daily history up to that day; what each group paid over the month against the
 * DeFi Base Rates, and what $10,000 following each became. The API computes every figure.
 */
import { lazy, Suspense, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { scannerTrackRecordCsvPath, scannerTrackRecordQuery } from '@yield/platform';
import type { ScannerTrackMonth, ScannerTrackRecord } from '@yield/contract';
import { useDrawWhenNear } from '@yield/charts';
import { formatAmount, formatApr, formatDay } from '@yield/ui';
import styles from './track-record.module.css';

const TrackRecordChart = lazy(() => import('./TrackRecordChart.tsx'));

type Group = ScannerTrackMonth['riskAdjusted'];

const NAMES = {
  riskAdjusted: 'Top 10 by risk-adjusted APR',
  rawApy: 'Top 10 by APY',
  base: 'DeFi Base Rates',
};

const dollars = (v: number) => formatAmount(v, 'USD');

function monthOf(day: string): string {
  const [, month = '', year = ''] = formatDay(day).match(/^(\w+) \d+, (\d+)$/) ?? [];
  return `${month} ${year}`;
}

function GroupCell({ group, days }: { group: Group; days: number }) {
  return (
    <>
      <span className={group.realizedApy < 0 ? styles.loss : styles.gain}>
        {formatApr(group.realizedApy)}
      </span>
      <details className={styles.note}>
        <summary>{group.picks.length === 1 ? '1 pool' : `${group.picks.length} pools`}</summary>
        <ol data-testid="scanner-track-picks">
          {group.picks.map((p) => (
            <li key={p.pool}>
              {p.symbol} ({p.project}, {p.chain}): {formatApr(p.apy)} that day, paid{' '}
              {formatApr(p.realizedApy)}
              {p.daysWithData < days ? ` (data on ${p.daysWithData} of ${days} days)` : ''}
            </li>
          ))}
        </ol>
      </details>
    </>
  );
}

/** Why there is no month, in plain words. */
function NoMonth({ record }: { record: ScannerTrackRecord }) {
  if (record.firstDay === null)
    return (
      <p className={styles.summary} data-testid="scanner-track-empty">
        No month yet: no pool has a daily history here yet
        {record.sample ? ' (the sample data has none)' : ''}. The scanner keeps each pool&apos;s
        history from every daily import of DeFiLlama&apos;s pools; a month shows once pools have{' '}
        {record.minDays} days of it on the first day of that month and the month has passed. No
        figures are made up in the meantime.
      </p>
    );
  return (
    <p className={styles.summary} data-testid="scanner-track-empty">
      No month yet: the pools&apos; histories run from {formatDay(record.firstDay)}
      {record.asOf ? ` to ${formatDay(record.asOf)}` : ''}, too short for a whole month picked from{' '}
      {record.minDays} days of history. No figures are made up in the meantime.
    </p>
  );
}

function ScannerTrackBody({ record }: { record: ScannerTrackRecord }) {
  const frameRef = useRef<HTMLDivElement>(null);
  const ready = useDrawWhenNear(frameRef, { rootMargin: '300px 0px', afterIdle: true });
  const first = record.months[0];
  const last = record.months[record.months.length - 1];
  if (!first || !last) return <NoMonth record={record} />;
  const tooShort = record.skipped.filter((s) => s.reason === 'history_too_short');
  return (
    <>
      <p className={styles.summary}>
        {dollars(record.startValue)} put in on {formatDay(first.decidedOn)} and moved each month to
        the group became, on {formatDay(last.until)}:
      </p>
      <dl className={styles.finals}>
        <div className={styles.finalRa}>
          <dt>{NAMES.riskAdjusted}</dt>
          <dd>{dollars(record.final.riskAdjusted)}</dd>
        </div>
        <div className={styles.finalRaw}>
          <dt>{NAMES.rawApy}</dt>
          <dd>{dollars(record.final.rawApy)}</dd>
        </div>
        <div className={styles.finalBase}>
          <dt>{NAMES.base}</dt>
          <dd>{dollars(record.final.base)}</dd>
        </div>
      </dl>
      <div
        className={styles.chartFrame}
        ref={frameRef}
        aria-hidden="true"
        data-testid="scanner-track-chart"
      >
        {ready ? (
          <Suspense fallback={<span className="spinner" aria-hidden="true" />}>
            <TrackRecordChart
              months={record.months}
              startValue={record.startValue}
              money="$"
              names={NAMES}
            />
          </Suspense>
        ) : (
          <span className="spinner" aria-hidden="true" />
        )}
      </div>
      <div className={styles.tableWrap}>
        <table className={styles.table} data-testid="scanner-track-table">
          <caption className="visually-hidden">
            The scanner&apos;s top 10 of each month, what each group paid and the value of{' '}
            {dollars(record.startValue)} following each
          </caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">{NAMES.riskAdjusted}</th>
              <th scope="col">{NAMES.rawApy}</th>
              <th scope="col">Base rates</th>
              <th scope="col">Value: risk-adjusted / APY / base</th>
            </tr>
          </thead>
          <tbody>
            {record.months.map((m) => (
              <tr key={m.decidedOn} data-testid="scanner-track-row">
                <th scope="row">
                  {monthOf(m.decidedOn)}
                  <span className={styles.note}>
                    picked {formatDay(m.decidedOn)} among {m.candidates} pools
                  </span>
                </th>
                <td data-label={NAMES.riskAdjusted}>
                  <GroupCell group={m.riskAdjusted} days={m.days} />
                </td>
                <td data-label={NAMES.rawApy}>
                  <GroupCell group={m.rawApy} days={m.days} />
                </td>
                <td data-label="Base rates">
                  <span className={m.riskAdjusted.baseApy < 0 ? styles.loss : styles.gain}>
                    {formatApr(m.riskAdjusted.baseApy)}
                  </span>
                </td>
                <td data-label="Value" className={styles.values}>
                  <span className={styles.valueRa}>{dollars(m.value.riskAdjusted)}</span>
                  <span className={styles.valueRaw}>{dollars(m.value.rawApy)}</span>
                  <span className={styles.valueBase}>{dollars(m.value.base)}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {tooShort.length > 0 ? (
        <p className={styles.note} data-testid="scanner-track-skipped">
          Left out, no pool had {record.minDays} days of history yet:{' '}
          {tooShort.map((s) => monthOf(s.decidedOn)).join(', ')}.
        </p>
      ) : null}
    </>
  );
}

export function ScannerTrack() {
  const record = useQuery(scannerTrackRecordQuery);
  return (
    <section
      className={styles.typeSection}
      aria-labelledby="track-scanner-title"
      data-testid="track-scanner"
    >
      <h2 id="track-scanner-title" className={styles.typeTitle}>
        Scanner&apos;s top 10
      </h2>
      <p className={styles.summary}>
        On the first day of each month, the 10 pools the scanner ranks first by risk-adjusted APR
        and the 10 with the highest APY that day, each from the pool&apos;s own daily history up to
        that day (pools with {record.data?.minDays ?? 30} days of it, outliers left out), held for
        the month in equal parts. What a group paid is the mean of its pools&apos; daily APYs over
        the month (a day a pool has no data for counts as 0), against the DeFi Base Rate of each
        pool&apos;s kind: stablecoin pools against the stablecoin rate, the others against the
        crypto rate, as the scanner&apos;s &ldquo;vs base&rdquo; column.{' '}
        <a href={scannerTrackRecordCsvPath} download data-testid="scanner-track-csv">
          Download the scanner&apos;s CSV
        </a>
      </p>
      {record.isPending ? (
        <p role="status" className={styles.loading}>
          <span className="spinner" aria-hidden="true" /> Loading the scanner&apos;s track record…
        </p>
      ) : record.isError ? (
        <div role="alert" className={styles.error}>
          <p>The scanner&apos;s track record could not be loaded: {record.error.message}</p>
          <button type="button" className={styles.retry} onClick={() => void record.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <ScannerTrackBody record={record.data} />
      )}
    </section>
  );
}
