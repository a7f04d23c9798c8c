/**
 * Warnings detected from data (GET /api/sources `warnings`, docs/methodology.md, "Detected
 * warnings") in the comparison, shown where its incidents are: a badge beside the source's name,
 * a note under the table, a line in the risk breakdown. Always labelled "Detected from data" and
 * drawn in amber, apart from the operators' incidents (red); a warning an operator dismissed keeps
 * their dated note.
 */
import { Link } from 'react-router-dom';
import type { DetectedWarning } from '@yield/contract';
import { BLOCKING_WARNING_KINDS, WARNING_TITLES } from '@yield/contract/constants';
import { formatDay } from '@yield/ui';
import { detailPath, type ComparisonRow } from './model.ts';
import styles from './comparison.module.css';

const DETECTED = 'Detected from data';

/** Whether the warning keeps the source from being GREAT (open, undismissed outflow, depeg or feeds-disagree). */
const blocksGreat = (w: DetectedWarning) => !w.dismissed && BLOCKING_WARNING_KINDS.includes(w.kind);

const oneLine = (w: DetectedWarning) =>
  `${WARNING_TITLES[w.kind]}, detected from data since ${formatDay(w.openedOn)}: ${w.text}`;

/** Beside the name: one badge for the row's open warnings (their sentences in its tooltip). */
export function WarningBadge({ warnings }: { warnings: readonly DetectedWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <span
      className={styles.warningBadge}
      title={warnings.map(oneLine).join('\n')}
      data-testid="warning-badge"
    >
      <span aria-hidden="true">◆</span>{' '}
      {warnings.length > 1 ? `${warnings.length} warnings` : 'Warning'}
      <span className="visually-hidden">, {DETECTED.toLowerCase()}</span>
    </span>
  );
}

/** Under the table: one note per open warning, like the incidents' notes. */
export function WarningNotes({ rows, title }: { rows: readonly ComparisonRow[]; title: string }) {
  const notes = rows.flatMap((row) => row.openWarnings.map((warning) => ({ row, warning })));
  if (notes.length === 0) return null;
  return (
    <ul className={styles.warningNotes} aria-label={`Warnings detected from data in ${title}`}>
      {notes.map(({ row, warning: w }) => (
        <li
          key={`${row.key}-${w.kind}-${w.openedOn}`}
          className={styles.warningNote}
          data-testid="warning-note"
          data-warning={w.kind}
        >
          <span aria-hidden="true">◆</span>{' '}
          <strong>
            {row.name}: {WARNING_TITLES[w.kind]} since {formatDay(w.openedOn)}.
          </strong>{' '}
          <span className={styles.detectedLabel}>{DETECTED}</span> {w.text}{' '}
          {blocksGreat(w) ? 'It is never marked GREAT while this warning is open. ' : null}
          {w.dismissed ? (
            <span className={styles.warningDismissed}>
              Dismissed by our team on {formatDay(w.dismissed.on)}: {w.dismissed.note}{' '}
            </span>
          ) : null}
          {row.isBaseRate ? null : (
            <Link to={detailPath(row)}>
              See the figures<span className="visually-hidden"> of {row.name}</span>
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}

/** In the risk breakdown, under its incidents. */
export function WarningLines({ warnings }: { warnings: readonly DetectedWarning[] }) {
  return warnings.map((w) => (
    <p key={`${w.kind}-${w.openedOn}`} className={styles.breakdownWarning}>
      <strong>
        {WARNING_TITLES[w.kind]} ({DETECTED.toLowerCase()}) since {formatDay(w.openedOn)}:
      </strong>{' '}
      {w.text}
    </p>
  ));
}
