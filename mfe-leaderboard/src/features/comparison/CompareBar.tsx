import { useId } from 'react';
import { Link } from 'react-router-dom';
import { COMPARE_MAX_SOURCES, COMPARE_MIN_SOURCES, comparePath } from '@yield/ui';
import styles from './CompareBar.module.css';

/** The rows ticked for /compare, in the order they were ticked, across both tables. */
export interface CompareSelection {
  ids: readonly number[];
  toggle: (id: number) => void;
}

/** The selection after ticking or unticking `id`: never more than COMPARE_MAX_SOURCES. */
export function toggleSelected(ids: readonly number[], id: number): readonly number[] {
  if (ids.includes(id)) return ids.filter((other) => other !== id);
  return ids.length >= COMPARE_MAX_SOURCES ? ids : [...ids, id];
}

/** What the bar says about the selection so far. */
export function selectionHint(count: number): string {
  if (count === 0)
    return `Tick ${COMPARE_MIN_SOURCES} or ${COMPARE_MAX_SOURCES} sources to compare them side by side.`;
  if (count < COMPARE_MIN_SOURCES) return `1 selected: tick one or two more to compare.`;
  if (count < COMPARE_MAX_SOURCES) return `${count} selected: you can add one more.`;
  return `${count} selected, the most that fit side by side.`;
}

/**
 * "Compare (n)": a link to /compare?ids=… once two or three rows are ticked, else a disabled
 * button whose reason is the text beside it.
 */
export function CompareBar({
  selection,
  names,
  onClear,
}: {
  selection: CompareSelection;
  /** The ticked sources' names, in the selection's order. */
  names: readonly string[];
  onClear: () => void;
}) {
  const hintId = useId();
  const count = selection.ids.length;
  const label = `Compare (${count})`;
  return (
    <div className={styles.compareBar} data-testid="compare-bar" data-count={count}>
      <p id={hintId} className={styles.compareHint} aria-live="polite">
        {selectionHint(count)}
        {count > 0 ? <span className={styles.compareNames}> {names.join(' · ')}</span> : null}
      </p>
      <div className={styles.compareActions}>
        {count > 0 ? (
          <button type="button" className="btn btn-secondary" onClick={onClear}>
            Clear
          </button>
        ) : null}
        {count >= COMPARE_MIN_SOURCES ? (
          <Link
            className="btn btn-primary"
            to={comparePath(selection.ids)}
            aria-describedby={hintId}
          >
            {label}
          </Link>
        ) : (
          <button type="button" className="btn btn-primary" disabled aria-describedby={hintId}>
            {label}
          </button>
        )}
      </div>
    </div>
  );
}
