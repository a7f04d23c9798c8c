import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { getJson, type RiskBreakdown, type RiskCharges, type YieldSource } from '@yield/platform';
import { formatApr, formatDay, formatPoints, formatTvl } from '@yield/ui';
import ui from '../components/components.module.css';
import styles from './methodology.module.css';

type BreakdownKey = string;

interface Choice {
  key: BreakdownKey;
  label: string;
}

const BASE_CHOICES: Choice[] = [
  { key: 'base-stablecoin', label: 'DeFi Base Rate (stablecoins)' },
  { key: 'base-defi', label: 'DeFi Base Rate (crypto)' },
];

const CHARGE_ROWS: {
  key: keyof RiskCharges;
  label: string;
  explain: (b: RiskBreakdown) => string;
}[] = [
  {
    key: 'volatility',
    label: 'Volatility',
    explain: (b) => `1 × the daily APR's standard deviation of ${formatPoints(b.inputs.sigma30)}`,
  },
  {
    key: 'incentives',
    label: 'Incentives',
    explain: (b) => `0.5 × an average incentive part of ${formatApr(b.inputs.reward30)}`,
  },
  { key: 'safety', label: 'Safety', explain: (b) => `Safety score ${b.inputs.safety} of 5` },
  {
    key: 'liquidity',
    label: 'Liquidity',
    explain: (b) => `Liquidity score ${b.inputs.liquidity} of 5`,
  },
  {
    key: 'size',
    label: 'Size',
    explain: (b) => `Median deposits of ${formatTvl(b.inputs.tvlMedian, 2)}`,
  },
  {
    key: 'outflow',
    label: 'Outflow',
    explain: (b) => `Largest fall in deposits: ${(b.inputs.tvlDrawdown * 100).toFixed(1)}%`,
  },
];

const sourcesQuery = {
  queryKey: ['sources'] as const,
  queryFn: () => getJson<YieldSource[]>('/api/sources'),
  staleTime: 5 * 60_000,
};

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
      .map((source) => ({ key: String(source.id), label: source.name })),
    ...BASE_CHOICES,
  ];
  const [selected, setSelected] = useState<BreakdownKey | null>(null);
  const key = selected ?? choices[0]?.key ?? null;

  const breakdown = useQuery({
    queryKey: ['breakdown', key],
    queryFn: () =>
      getJson<RiskBreakdown>(`/api/strategies/${encodeURIComponent(key ?? '')}/breakdown`),
    enabled: key !== null,
  });

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

  const label = choices.find((choice) => choice.key === key)?.label ?? '';
  const b = breakdown.data;

  return (
    <div className={styles.example}>
      <div className={styles.picker}>
        <label htmlFor={selectId}>Yield source</label>
        <select
          id={selectId}
          className={styles.select}
          value={key ?? ''}
          disabled={!choices.length}
          onChange={(event) => setSelected(event.target.value)}
        >
          {choices.map((choice) => (
            <option key={choice.key} value={choice.key}>
              {choice.label}
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
                {label}, 30 days from {formatDay(b.window.from, 'long')} to{' '}
                {formatDay(b.window.to, 'long')}
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
                    <th scope="row">− {row.label} charge</th>
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
