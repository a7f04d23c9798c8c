import { useId, useRef } from 'react';
import type { ScannerFilters } from '@yield/platform';
import { filtersFromForm } from './scanner-params.ts';
import styles from './scanner.module.css';

const SORT_LABELS = {
  riskAdjusted: 'Risk-adjusted APR',
  apy: 'APY',
  tvl: 'TVL',
} as const;

/** The text filters; their limits are the API's (packages/contract/src/schemas.ts). */
const TEXT_FIELDS = [
  { name: 'asset', label: 'Asset', placeholder: 'USDC, ETH…', maxLength: 64 },
  { name: 'chain', label: 'Chain', placeholder: 'Ethereum…', maxLength: 64 },
  { name: 'project', label: 'Project', placeholder: 'aave-v3…', maxLength: 100 },
] as const;

const TVL_PRESETS = [
  { value: '', label: 'Any' },
  { value: '1000000', label: '$1M' },
  { value: '10000000', label: '$10M' },
  { value: '100000000', label: '$100M' },
  { value: '1000000000', label: '$1B' },
];

/**
 * The scanner's filters as one form. Its controls are uncontrolled and keyed on the URL by the
 * page, so back/forward and a shared link show the filters of the URL. A select or the checkbox
 * applies at once; the text fields apply on Enter or with the Apply button.
 */
export function ScannerFiltersForm({
  filters,
  onApply,
}: {
  filters: ScannerFilters;
  onApply: (filters: ScannerFilters) => void;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  const apply = () => {
    if (formRef.current) onApply(filtersFromForm(new FormData(formRef.current)));
  };
  const minTvl = filters.minTvl === undefined ? '' : String(filters.minTvl);
  const tvlOptions = TVL_PRESETS.some((p) => p.value === minTvl)
    ? TVL_PRESETS
    : [...TVL_PRESETS, { value: minTvl, label: `$${minTvl}` }];

  return (
    <form
      ref={formRef}
      className={styles.filters}
      role="search"
      aria-label="Filter pools"
      onSubmit={(event) => {
        event.preventDefault();
        apply();
      }}
    >
      {TEXT_FIELDS.map((field) => (
        <div key={field.name} className={styles.field}>
          <label htmlFor={`${id}-${field.name}`}>{field.label}</label>
          <input
            id={`${id}-${field.name}`}
            name={field.name}
            type="text"
            defaultValue={filters[field.name] ?? ''}
            placeholder={field.placeholder}
            autoComplete="off"
            spellCheck={false}
            maxLength={field.maxLength}
          />
        </div>
      ))}
      <div className={styles.field}>
        <label htmlFor={`${id}-stablecoin`}>Kind</label>
        <select
          id={`${id}-stablecoin`}
          name="stablecoin"
          defaultValue={filters.stablecoin === undefined ? '' : String(filters.stablecoin)}
          onChange={apply}
        >
          <option value="">All pools</option>
          <option value="true">Stablecoins</option>
          <option value="false">Crypto</option>
        </select>
      </div>
      <div className={`${styles.field} ${styles.wideOnPhone}`}>
        <label htmlFor={`${id}-minTvl`}>Minimum TVL</label>
        <select id={`${id}-minTvl`} name="minTvl" defaultValue={minTvl} onChange={apply}>
          {tvlOptions.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className={`${styles.field} ${styles.wideOnPhone}`}>
        <label htmlFor={`${id}-sort`}>Sort by</label>
        <select id={`${id}-sort`} name="sort" defaultValue={filters.sort} onChange={apply}>
          {Object.entries(SORT_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.checkField}>
        <input
          id={`${id}-outliers`}
          name="includeOutliers"
          type="checkbox"
          defaultChecked={filters.includeOutliers}
          onChange={apply}
        />
        <label htmlFor={`${id}-outliers`}>Include outliers</label>
      </div>
      <button type="submit" className={styles.applyButton}>
        Apply
      </button>
    </form>
  );
}
