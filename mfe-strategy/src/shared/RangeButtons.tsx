import { TIME_RANGES, type TimeRange } from '@yield/contract/constants';
import styles from './RangeButtons.module.css';

/** The 7D / 30D / 90D / 180D switch of the strategy pages. */
export function RangeButtons({
  label,
  range,
  onChange,
}: {
  label: string;
  range: TimeRange;
  onChange: (range: TimeRange) => void;
}) {
  return (
    <div className={styles.rangeGroup} role="group" aria-label={label}>
      {TIME_RANGES.map((r) => (
        <button
          key={r}
          type="button"
          className={styles.rangeButton}
          aria-pressed={r === range}
          onClick={() => onChange(r)}
        >
          {r}
        </button>
      ))}
    </div>
  );
}
