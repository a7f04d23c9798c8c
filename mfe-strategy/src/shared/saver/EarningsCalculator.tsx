import { useId, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { earningsQuery, sourcesQuery } from '@yield/platform';
import type { AmountUnit, TimeRange } from '@yield/contract/constants';
import { DEFAULT_TIME_RANGE, EARNINGS_MAX_AMOUNT } from '@yield/contract/constants';
import { formatAmount, formatCount, formatDay, hasNoLiveData, NO_LIVE_DATA } from '@yield/ui';
import { findSource } from '../sources.ts';
import { RangeButtons } from '../RangeButtons.tsx';
import { NetYieldPart, useSettled } from './NetYield.tsx';
import layout from '../page.module.css';
import styles from './saver.module.css';

/** The amount a calculator starts from, in each unit. */
const START_AMOUNT: Record<AmountUnit, number> = { USD: 10_000, ETH: 10 };

/** The typed amount as a number the API takes, or null (empty, not a number, ≤ 0, too large). */
export function parseAmount(text: string): number | null {
  const trimmed = text.trim().replace(/,/g, '');
  if (!/^\d{1,13}(?:\.\d{1,18})?$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value > 0 && value <= EARNINGS_MAX_AMOUNT ? value : null;
}

/** What one source earned on the amount, and what its base rate earned. */
function EarningsFigures({ id, amount, range }: { id: number; amount: number; range: TimeRange }) {
  const answer = useQuery({
    ...earningsQuery(id, amount, range),
    placeholderData: keepPreviousData,
  });
  const sources = useQuery(sourcesQuery);
  const source = findSource(sources.data, id);
  const name = source?.name ?? `Source ${id}`;
  // No live data: no history to compound, so no amount is shown (not a made-up $0).
  if (hasNoLiveData(source?.provenance)) {
    return (
      <p className={styles.result} role="status" data-testid={`earnings-${id}`}>
        {name}: {NO_LIVE_DATA}, so there is no history to compute earnings from yet.
      </p>
    );
  }
  if (answer.isPending) {
    return (
      <div className={styles.result} aria-busy="true">
        <span className="spinner" role="status" aria-label={`Loading the earnings of ${name}`} />
      </div>
    );
  }
  if (answer.isError) {
    return (
      <p className={styles.result} role="status" data-testid={`earnings-${id}`}>
        The earnings of {name} are unavailable right now.
      </p>
    );
  }
  const e = answer.data;
  return (
    <div className={styles.result} data-testid={`earnings-${id}`} aria-live="polite">
      <dl className={styles.figures}>
        <div className={styles.figure}>
          <dt>{name}</dt>
          <dd data-testid="earned">{formatAmount(e.earned, e.unit)}</dd>
        </div>
        <div className={styles.figure}>
          <dt>DeFi Base Rate</dt>
          <dd data-testid="earned-base">{formatAmount(e.base.earned, e.unit)}</dd>
        </div>
        <div className={styles.figure}>
          <dt>Difference</dt>
          <dd
            data-testid="earned-difference"
            className={e.difference < 0 ? styles.loss : styles.gain}
          >
            {formatAmount(e.difference, e.unit, true)}
          </dd>
        </div>
      </dl>
      <p className={styles.note}>
        {e.days > 0 && e.from && e.to
          ? `${e.days} days, ${formatDay(e.from)} to ${formatDay(e.to)}, in ${e.unit}.`
          : 'No history in this range yet.'}
      </p>
    </div>
  );
}

/**
 * The earnings calculator: an amount (in the sources' own unit) and a range; for each source,
 * what the amount would have earned there, at its DeFi Base Rate, and the difference
 * (GET /api/earnings, compounded daily at each day's APR); then, unless `net` is false, what the
 * same amount keeps after its fees and gas over the days held (GET /api/net-yield).
 */
export function EarningsCalculator({
  ids,
  headingLevel = 2,
  net = true,
}: {
  ids: number[];
  headingLevel?: 2 | 3;
  /** Show the net part (the compare page shows it side by side in a section of its own). */
  net?: boolean;
}) {
  const sources = useQuery(sourcesQuery);
  const units = [...new Set(ids.map((id) => findSource(sources.data, id)?.unit ?? 'USD'))];
  const unit: AmountUnit = units.length === 1 ? units[0]! : 'USD';
  const [text, setText] = useState<string | null>(null);
  const shown = text ?? String(START_AMOUNT[unit]);
  const [range, setRange] = useState<TimeRange>(DEFAULT_TIME_RANGE);
  const parsed = parseAmount(shown);
  const settled = useSettled(parsed);
  const inputId = useId();
  const headingId = useId();
  const errorId = useId();
  const Heading = `h${headingLevel}` as const;
  const unitLabel = units.length === 1 ? unit : 'each source\u2019s unit (USD or ETH)';

  return (
    <section className={layout.section} aria-labelledby={headingId} data-section="earnings">
      <div className={layout.sectionHead}>
        <Heading id={headingId}>What would it have earned?</Heading>
        <RangeButtons label="Earnings range" range={range} onChange={setRange} />
      </div>
      <label htmlFor={inputId} className={styles.label}>
        Amount in {unitLabel}
      </label>
      <input
        id={inputId}
        className={styles.input}
        inputMode="decimal"
        autoComplete="off"
        value={shown}
        onChange={(event) => setText(event.target.value)}
        aria-invalid={parsed === null}
        aria-describedby={parsed === null ? errorId : undefined}
        data-testid="earnings-amount"
      />
      {parsed === null ? (
        <p id={errorId} className={styles.error} role="alert">
          Enter an amount above 0 and at most {formatCount(EARNINGS_MAX_AMOUNT)}.
        </p>
      ) : null}
      {settled !== null && parsed !== null ? (
        <div className={styles.results}>
          {ids.map((id) => (
            <EarningsFigures key={id} id={id} amount={settled} range={range} />
          ))}
        </div>
      ) : null}
      <p className={styles.note}>
        Past yields over the newest days of the range, compounded daily at each day&apos;s APR; the
        base rate is the DeFi Base Rate the source is ranked against. Not a forecast.
      </p>
      {net ? (
        <NetYieldPart
          ids={ids}
          amount={parsed === null ? null : settled}
          headingLevel={headingLevel === 2 ? 3 : 4}
        />
      ) : null}
    </section>
  );
}
