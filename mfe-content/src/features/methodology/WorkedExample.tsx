import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { breakdownQuery, sourcesQuery } from '@yield/platform';
import type { RiskBreakdown, RiskCharges } from '@yield/contract';
import { BASE_KEY_OF_TYPE, type SeriesId } from '@yield/contract/constants';
import { formatApr, formatDay, formatPoints, formatTvl, RA30_CHARGES } from '@yield/ui';
import ui from '../../shared/components/components.module.css';
import styles from './methodology.module.css';

interface Choice {
  id: SeriesId;
  label: string;
}

const BASE_CHOICES: Choice[] = [
  { id: BASE_KEY_OF_TYPE.stablecoin, label: 'DeFi Base Rate (stablecoins)' },
  { id: BASE_KEY_OF_TYPE.defi, label: 'DeFi Base Rate (crypto)' },
];

/** What each charge of the source was computed from (its name is the kit's, `RA30_CHARGES`). */
const CHARGE_ROWS: {
  key: keyof RiskCharges;
  explain: (b: RiskBreakdown) => string;
}[] = [
  {
    key: 'volatility',
    explain: (b) => `1 × the daily APR's standard deviation of ${formatPoints(b.inputs.sigma30)}`,
  },
  {
    key: 'incentives',
    explain: (b) => `0.5 × an average incentive part of ${formatApr(b.inputs.reward30)}`,
  },
  { key: 'safety', explain: (b) => `Safety score ${b.inputs.safety} of 5` },
  {
    key: 'liquidity',
    explain: (b) => `Liquidity score ${b.inputs.liquidity} of 5`,
  },
  {
    key: 'size',
    explain: (b) => `Median deposits of ${formatTvl(b.inputs.tvlMedian, 2)}`,
  },
  {
    key: 'outflow',
    explain: (b) => `Largest fall in deposits: ${(b.inputs.tvlDrawdown * 100).toFixed(1)}%`,
  },
];

/** A charge is subtracted: shown with a minus sign unless it rounds to nothing. */
function formatCharge(value: number): string {
  const text = formatPoints(value);
  return text === formatPoints(0) ? text : `−${text}`;
}

/** The charges of one source, fetched from /api/strategies/:id/breakdown (the API's own numbers). */
export function WorkedExample() {
  const selectId = useId();
  const sources = useQuery(sourcesQuery);
  const choices: Choice[] = [
    ...(sources.data ?? [])
      .filter((source) => !source.isBaseRate)
      .map((source) => ({ id: source.id, label: source.name })),
    ...BASE_CHOICES,
  ];
  // The picker's value: the id as text ('2', 'base-defi').
  const [selected, setSelected] = useState<string | null>(null);
  // The base rates are always offered, so there is always a choice.
  const choice = choices.find((c) => String(c.id) === selected) ?? choices[0]!;
  const key = String(choice.id);

  const breakdown = useQuery(breakdownQuery(choice.id));

  if (sources.isError) {
    return (
      <div className={styles.state} role="alert">
        <p>The worked example could not be loaded just now. The method above still applies.</p>
        <button type="button" className="btn btn-secondary" onClick={() => void sources.refetch()}>
          Try again
        </button>
      </div>
    );
  }

  const label = choice.label;
  const b = breakdown.data;

  return (
    <div className={styles.example}>
      <div className={styles.picker}>
        <label htmlFor={selectId}>Yield source</label>
        <select
          id={selectId}
          className={styles.select}
          value={key}
          disabled={!choices.length}
          onChange={(event) => setSelected(event.target.value)}
        >
          {choices.map((option) => (
            <option key={option.id} value={String(option.id)}>
              {option.label}
            </option>
          ))}
        </select>
      </div>

      {breakdown.isError ? (
        <div className={styles.state} role="alert">
          <p>This breakdown could not be loaded just now.</p>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={() => void breakdown.refetch()}
          >
            Try again
          </button>
        </div>
      ) : !b ? (
        <div className={styles.state} aria-busy="true">
          <span className="spinner" role="status" aria-label="Loading the breakdown" />
        </div>
      ) : b.status === 'insufficient_data' ? (
        <p className={styles.state}>
          {label} has fewer than 20 days of data in its window, so it is not ranked yet (N/A).
        </p>
      ) : (
        <div aria-live="polite">
          <div className={ui.tableWrap}>
            <table className={`${ui.table} ${ui.stack}`} data-testid="worked-example">
              <caption>
                {label}, 30 days from {formatDay(b.window.from)} to {formatDay(b.window.to)}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Step</th>
                  <th scope="col">Based on</th>
                  <th scope="col" className={ui.num}>
                    Points a year
                  </th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">30-day APR</th>
                  <td data-label="Based on">Average of {b.window.days} daily APRs</td>
                  <td className={ui.num}>{formatApr(b.yield30d)}</td>
                </tr>
                {CHARGE_ROWS.map((row) => (
                  <tr key={row.key}>
                    <th scope="row">− {RA30_CHARGES[row.key].label} charge</th>
                    <td data-label="Based on">{row.explain(b)}</td>
                    <td className={ui.num}>{formatCharge(b.charges[row.key])}</td>
                  </tr>
                ))}
                <tr className={styles.total}>
                  <th scope="row">= Risk-adjusted 30-day APR</th>
                  <td>Risk (sum of charges): {formatPoints(b.risk)}</td>
                  <td className={ui.num}>{formatApr(b.riskAdjustedYield30d)}</td>
                </tr>
              </tbody>
            </table>
          </div>
          <p>
            {label} paid {formatApr(b.yield30d)} over the window; after {formatPoints(b.risk)} of
            charges its risk-adjusted 30-day APR is{' '}
            <strong>{formatApr(b.riskAdjustedYield30d)}</strong>.{' '}
            {typeof b.id === 'number'
              ? b.great
                ? 'That is more reward per point of risk than its DeFi Base Rate: it is marked GREAT.'
                : 'That is not more reward per point of risk than its DeFi Base Rate, so it is not marked GREAT.'
              : null}
          </p>
        </div>
      )}
    </div>
  );
}
