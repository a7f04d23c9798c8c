/**
 * The track record (/track-record, GET /api/track-record): on the first day of each month, the
 * comparison's top risk-adjusted pick and top 30-day APR pick of each type as published that
 * day, what each paid over the month (depegs included), against the DeFi Base Rate of the type,
 * and what 10,000 following each became. The API computes every figure; this page shows them.
 */
import { lazy, Suspense, useRef } from 'react';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { scannerTrackRecordQuery, trackRecordCsvPath, trackRecordQuery } from '@yield/platform';
import type { TrackRecord as TrackRecordAnswer, TrackRecordMonth } from '@yield/contract';
import { METHOD_VERSION } from '@yield/contract/constants';
import { useDrawWhenNear } from '@yield/charts';
import { formatAmount, formatApr, formatDay } from '@yield/ui';
import styles from './track-record.module.css';
import { ScannerTrack } from './ScannerTrack.tsx';

const TrackRecordChart = lazy(() => import('./TrackRecordChart.tsx'));

type TypeRecord = TrackRecordAnswer['types'][number];
type Pick = TrackRecordMonth['riskAdjusted'];

export const TYPE_TITLES: Record<TypeRecord['type'], string> = {
  stablecoin: 'Stablecoins',
  defi: 'Crypto (DeFi)',
};

/** Money in the stablecoin table; a plain number where picks are counted in ETH or dollars. */
function formatValue(value: number, type: TypeRecord['type']): string {
  const dollars = formatAmount(value, 'USD');
  return type === 'stablecoin' ? dollars : dollars.replace('$', '');
}

/** "Nov 2025": the month a row holds. */
function monthOf(day: string): string {
  const [, month = '', year = ''] = formatDay(day).match(/^(\w+) \d+, (\d+)$/) ?? [];
  return `${month} ${year}`;
}

function PickCell({ pick }: { pick: Pick }) {
  return (
    <>
      <span className={styles.pickName}>{pick.name}</span>
      <span className={pick.returnPct < 0 ? styles.loss : styles.gain}>
        {formatApr(pick.returnPct)}
      </span>
      {pick.priceChangePct !== null && Math.abs(pick.priceChangePct) >= 0.005 ? (
        <span className={styles.note}>token {formatApr(pick.priceChangePct)}</span>
      ) : null}
      {pick.events.map((e) => (
        <span
          key={`${e.kind}-${e.date}`}
          className={styles.event}
          title={e.summary}
          data-testid="track-event"
        >
          {e.kind === 'incident' ? 'Incident' : 'Depeg'} {formatDay(e.date)}
        </span>
      ))}
      {!pick.lossMeasured ? (
        <span className={styles.unmeasured}>loss not measured: no prices that month</span>
      ) : null}
    </>
  );
}

function ChartPlaceholder() {
  return (
    <div className={styles.chartPlaceholder} aria-busy="true">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">Loading the chart…</span>
    </div>
  );
}

function TypeSection({ record, startValue }: { record: TypeRecord; startValue: number }) {
  const frameRef = useRef<HTMLDivElement>(null);
  const ready = useDrawWhenNear(frameRef, { rootMargin: '300px 0px', afterIdle: true });
  const title = TYPE_TITLES[record.type];
  const headingId = `track-${record.type}-title`;
  const first = record.months[0];
  const last = record.months[record.months.length - 1];
  return (
    <section
      className={styles.typeSection}
      aria-labelledby={headingId}
      data-testid={`track-${record.type}`}
    >
      <h2 id={headingId} className={styles.typeTitle}>
        {title}
      </h2>
      {first && last ? (
        <>
          <p className={styles.summary}>
            {formatValue(startValue, record.type)} put in on {formatDay(first.decidedOn)} and moved
            to each month&apos;s pick became, on {formatDay(last.until)}:
          </p>
          <dl className={styles.finals}>
            <div className={styles.finalRa}>
              <dt>Top risk-adjusted pick</dt>
              <dd>{formatValue(record.final.riskAdjusted, record.type)}</dd>
            </div>
            <div className={styles.finalRaw}>
              <dt>Top APR pick</dt>
              <dd>{formatValue(record.final.rawApy, record.type)}</dd>
            </div>
            <div className={styles.finalBase}>
              <dt>DeFi Base Rate</dt>
              <dd>{formatValue(record.final.base, record.type)}</dd>
            </div>
          </dl>
          <div
            className={styles.chartFrame}
            ref={frameRef}
            aria-hidden="true"
            data-testid={`track-chart-${record.type}`}
          >
            {ready ? (
              <Suspense fallback={<ChartPlaceholder />}>
                <TrackRecordChart
                  months={record.months}
                  startValue={startValue}
                  money={record.type === 'stablecoin' ? '$' : ''}
                />
              </Suspense>
            ) : (
              <ChartPlaceholder />
            )}
          </div>
          <div className={styles.tableWrap}>
            <table className={styles.table} data-testid={`track-table-${record.type}`}>
              <caption className="visually-hidden">
                {title}: each month&apos;s picks, what they paid and the value of{' '}
                {formatValue(startValue, record.type)} following each
              </caption>
              <thead>
                <tr>
                  <th scope="col">Month</th>
                  <th scope="col">Top risk-adjusted pick</th>
                  <th scope="col">Top APR pick</th>
                  <th scope="col">Base rate</th>
                  <th scope="col">Value: risk-adjusted / APR / base</th>
                </tr>
              </thead>
              <tbody>
                {record.months.map((m) => (
                  <tr key={m.decidedOn} data-testid="track-row">
                    <th scope="row">
                      {monthOf(m.decidedOn)}
                      <span className={styles.note}>picked {formatDay(m.decidedOn)}</span>
                    </th>
                    <td data-label="Top risk-adjusted pick">
                      <PickCell pick={m.riskAdjusted} />
                    </td>
                    <td data-label="Top APR pick">
                      <PickCell pick={m.rawApy} />
                    </td>
                    <td data-label="Base rate">
                      <span className={m.base.returnPct < 0 ? styles.loss : styles.gain}>
                        {formatApr(m.base.returnPct)}
                      </span>
                    </td>
                    <td data-label="Value" className={styles.values}>
                      <span className={styles.valueRa}>
                        {formatValue(m.value.riskAdjusted, record.type)}
                      </span>
                      <span className={styles.valueRaw}>
                        {formatValue(m.value.rawApy, record.type)}
                      </span>
                      <span className={styles.valueBase}>
                        {formatValue(m.value.base, record.type)}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {record.type === 'defi' ? (
            <p className={styles.note}>
              Crypto sources are counted in their own unit: ETH for the ETH sources (their growth in
              ETH, never converted to dollars), dollars for the dollar ones; the base rate is ETH
              staking, in ETH.
            </p>
          ) : null}
        </>
      ) : (
        <p className={styles.summary}>
          No month yet: the history does not cover a whole month with figures for this type.
        </p>
      )}
    </section>
  );
}

export function TrackRecord() {
  const record = useQuery(trackRecordQuery);
  // Fetched alongside; its section shows once the comparison's track record has settled.
  useQuery(scannerTrackRecordQuery);
  const data = record.data;
  return (
    <div className={styles.trackRecord}>
      <header className={styles.intro}>
        <h1 className={styles.title}>Track record</h1>
        <p className={styles.lead}>
          What following our ranking would have paid. On the first day of each month we take the
          source ranked first by risk-adjusted APR and the source with the highest 30-day APR, for
          stablecoins and for crypto, exactly as the comparison published them that day, and hold
          each for the month, against the DeFi Base Rate.
        </p>
        <details className={styles.how}>
          <summary>How it is computed</summary>
          <ul>
            <li>
              The picks are those the site published on the first of the month: the rankings from
              the daily history up to that day, with the safety and liquidity scores, incidents and
              warnings known by then (method <code>{METHOD_VERSION}</code>); nothing learnt later
              changes them.
            </li>
            <li>
              Each pick is held from the next day to the first of the next month. What it paid is
              its daily APRs compounded, times the change in value of its token against its unit
              (the dollar, or ETH), so a depeg counts as the loss it was. When an incident or a
              depeg fell in a month with no token prices to measure it, the month says so: its loss
              is not in the figure.
            </li>
            <li>
              The base rate paid its own daily APRs. Every line starts with 10,000 and moves to each
              month&apos;s pick; fees, gas and taxes are left out.
            </li>
            <li>
              It is computed from the published data only, the same files the comparison shows. See{' '}
              <Link to="/methodology#track-record-title">the methodology</Link>.
            </li>
          </ul>
        </details>
      </header>

      <div className={styles.toolbar}>
        {data ? (
          <p className={styles.sampleNote} data-testid="track-data-note">
            {data.sample ? 'Sample data' : 'Data'}
            {data.asOf ? (
              <>
                {' as of '}
                <time dateTime={data.asOf}>{formatDay(data.asOf)}</time>
              </>
            ) : null}
            {data.sample
              ? ': computed from the sample data the site runs on, not from market figures.'
              : ': computed from the published data.'}
          </p>
        ) : null}
        <a className={styles.csvLink} href={trackRecordCsvPath} download data-testid="track-csv">
          Download CSV
        </a>
      </div>

      {record.isPending ? (
        <p role="status" className={styles.loading}>
          <span className="spinner" aria-hidden="true" /> Loading the track record…
        </p>
      ) : record.isError ? (
        <div role="alert" className={styles.error}>
          <p>The track record could not be loaded: {record.error.message}</p>
          <button type="button" className={styles.retry} onClick={() => void record.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        data!.types.map((t) => (
          <TypeSection key={t.type} record={t} startValue={data!.startValue} />
        ))
      )}

      {record.isPending ? null : <ScannerTrack />}

      <p className={styles.disclaimer}>
        Past returns are not a promise: rates change every day, and a pick that paid well may not
        again. <Link to="/options">See today&apos;s comparison</Link>.
      </p>
    </div>
  );
}
