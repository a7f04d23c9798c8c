/**
 * Warnings detected from data (GET /api/sources `warnings`, docs/methodology.md, "Detected
 * warnings"), the same on every page: always labelled "Detected from data", apart from the
 * operators' incidents, and a warning an operator dismissed keeps their dated note. Each remote
 * places and styles them (`classNames`); the words are these.
 */
import type { DetectedWarning } from '@yield/contract';
import { BLOCKING_WARNING_KINDS, WARNING_TITLES } from '@yield/contract/constants';
import { formatDay } from '../format.ts';

export const DETECTED_LABEL = 'Detected from data';

/** Whether the warning keeps the source from being GREAT (open, undismissed, a blocking kind). */
export const warningBlocksGreat = (w: DetectedWarning): boolean =>
  !w.dismissed && BLOCKING_WARNING_KINDS.includes(w.kind);

/** The warning in one sentence (a badge's tooltip). */
export const warningSentence = (w: DetectedWarning): string =>
  `${WARNING_TITLES[w.kind]}, detected from data since ${formatDay(w.openedOn)}: ${w.text}`;

/** The dismissal note of a warning an operator dismissed, or null. */
export const dismissalNote = (w: DetectedWarning): string | null =>
  w.dismissed ? `Dismissed by our team on ${formatDay(w.dismissed.on)}: ${w.dismissed.note}` : null;

/** Beside a name: one badge for the open warnings (their sentences in its tooltip). */
export function WarningBadge({
  warnings,
  className,
}: {
  warnings: readonly DetectedWarning[];
  className?: string;
}) {
  if (warnings.length === 0) return null;
  return (
    <span
      className={className}
      title={warnings.map(warningSentence).join('\n')}
      data-testid="warning-badge"
    >
      <span aria-hidden="true">◆</span>{' '}
      {warnings.length > 1 ? `${warnings.length} warnings` : 'Warning'}
      <span className="visually-hidden">, {DETECTED_LABEL.toLowerCase()}</span>
    </span>
  );
}

/** One line per warning, in a breakdown under its incidents. */
export function WarningLines({
  warnings,
  className,
}: {
  warnings: readonly DetectedWarning[];
  className?: string;
}) {
  return warnings.map((w) => (
    <p key={`${w.kind}-${w.openedOn}`} className={className}>
      <strong>
        {WARNING_TITLES[w.kind]} ({DETECTED_LABEL.toLowerCase()}) since {formatDay(w.openedOn)}:
      </strong>{' '}
      {w.text}
    </p>
  ));
}

export interface DetectedWarningsClassNames {
  list?: string;
  notice?: string;
  label?: string;
}

/** The open warnings of one source, each as a notice like an incident's, labelled as detected. */
export function DetectedWarnings({
  warnings,
  classNames = {},
}: {
  warnings: readonly DetectedWarning[];
  classNames?: DetectedWarningsClassNames;
}) {
  const open = warnings.filter((w) => w.closedOn === null);
  if (open.length === 0) return null;
  return (
    <div className={classNames.list} data-testid="detected-warnings">
      {open.map((w) => (
        <div
          key={`${w.kind}-${w.openedOn}`}
          className={classNames.notice}
          role="note"
          data-warning={w.kind}
        >
          <p>
            <strong>{WARNING_TITLES[w.kind]}</strong>{' '}
            <span className={classNames.label}>{DETECTED_LABEL}</span> since {formatDay(w.openedOn)}
          </p>
          <p>{w.text}</p>
          {w.dismissed ? <p className="muted">{dismissalNote(w)}</p> : null}
        </div>
      ))}
    </div>
  );
}
