import styles from './PremiumBenefits.module.css';

/** The six premium benefits of the premium strategy page, in their order. */
export const PREMIUM_BENEFITS = [
  'Risk assessment',
  'Historical performance',
  'Yield recommendations',
  'Allocation strategies',
  'Real-time insights',
  'Expert consultation',
] as const;

export function PremiumBenefits({
  headingId,
  compact = false,
}: {
  headingId?: string;
  compact?: boolean;
}) {
  return (
    <ul
      className={compact ? `${styles.list} ${styles.compact}` : styles.list}
      aria-labelledby={headingId}
    >
      {PREMIUM_BENEFITS.map((benefit) => (
        <li key={benefit} className={styles.item}>
          <svg className={styles.icon} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
            <path d="M7.8 13.6 4.4 10.2l-1.2 1.2 4.6 4.6 9.4-9.4-1.2-1.2z" fill="currentColor" />
          </svg>
          {benefit}
        </li>
      ))}
    </ul>
  );
}
