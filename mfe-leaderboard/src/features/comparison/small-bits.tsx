import styles from './small-bits.module.css';

/** The 5-star overall rating; the label carries the number, stars are decoration. */
export function StarRating({ value, compact = false }: { value: number; compact?: boolean }) {
  const rounded = Math.round(value);
  if (compact) {
    // Narrow screens: one star and the number keep the figure columns on screen.
    return (
      <span className={styles.stars} role="img" aria-label={`${rounded} out of 5 stars`}>
        <span aria-hidden="true" className={styles.starOn}>
          ★
        </span>
        <span aria-hidden="true"> {rounded}</span>
      </span>
    );
  }
  return (
    <span className={styles.stars} role="img" aria-label={`${rounded} out of 5 stars`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <span key={n} aria-hidden="true" className={n <= rounded ? styles.starOn : styles.starOff}>
          ★
        </span>
      ))}
    </span>
  );
}

/** A 5-bar scale (safety, liquidity): filled bars plus the number in words for screen readers. */
export function BarScale({ value, label }: { value: number; label: string }) {
  const rounded = Math.round(value);
  return (
    <span className={styles.bars} role="img" aria-label={`${label} ${rounded} out of 5`}>
      {[1, 2, 3, 4, 5].map((n) => (
        <span
          key={n}
          aria-hidden="true"
          className={n <= rounded ? styles.barOn : styles.barOff}
          style={{ height: `${6 + n * 2}px` }}
        />
      ))}
    </span>
  );
}

/** The "explain" mark next to a figure (an SVG: not every system font has ⓘ). */
export function InfoIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <rect x="7.25" y="7" width="1.5" height="5" rx="0.75" fill="currentColor" />
      <circle cx="8" cy="4.75" r="1" fill="currentColor" />
    </svg>
  );
}

export function HeadingAt({
  level,
  className,
  id,
  children,
}: {
  level: number;
  className?: string;
  id?: string;
  children: React.ReactNode;
}) {
  const Tag = `h${Math.min(Math.max(level, 1), 6)}` as 'h2';
  return (
    <Tag className={className} id={id}>
      {children}
    </Tag>
  );
}
