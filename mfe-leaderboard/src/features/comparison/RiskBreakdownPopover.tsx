import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { breakdownQuery } from '@yield/platform';
import { loadOnce, RA30_CHARGE_LIST, WarningLines } from '@yield/ui';
import {
  formatApr,
  formatDay,
  formatPoints,
  formatProvenance,
  formatStale,
  formatTvl,
  type ComparisonRow,
} from './model.ts';
import { InfoIcon } from './small-bits.tsx';
import styles from './RiskBreakdownPopover.module.css';

/** antd's Popover, loaded once (a failed load is tried again on the next reach). */
const loadPopover = loadOnce(() => import('./AntdBreakdownPopover.tsx'));

/** Starts loading the popover when a saver points at, touches or tabs to a figure. */
function warmUpPopover(): void {
  loadPopover().catch(() => undefined);
}

const AntdBreakdownPopover = lazy(loadPopover);

/** Where the row's figures come from; a base rate counts its imported components. */
function dataSource(row: ComparisonRow): string {
  const { provenance } = row;
  const parts = [formatProvenance(provenance)];
  const components = provenance.components ?? [];
  const imported = components.filter((c) => c.kind === 'defillama' || c.kind === 'onchain').length;
  if (imported > 0 && imported < components.length) {
    const from = components.some((c) => c.kind === 'onchain')
      ? 'DeFiLlama or the chain'
      : 'DeFiLlama';
    parts.push(`${imported} of its ${components.length} series imported from ${from}`);
  }
  const left = components.filter((c) => c.kind === 'none').map((c) => c.series);
  if (left.length > 0) parts.push(`left out of the mean, without live data: ${left.join(', ')}`);
  if (row.status === 'stale') parts.push(formatStale(provenance));
  return `${parts.join('; ')}.`;
}

function BreakdownDetails({ row }: { row: ComparisonRow }) {
  const { data, isPending, isError } = useQuery(breakdownQuery(row.breakdownId));
  let body: ReactNode;
  if (isPending) {
    body = (
      <p className={styles.breakdownStatus} aria-busy="true">
        Loading the breakdown…
      </p>
    );
  } else if (isError || !data) {
    body = <p className={styles.breakdownStatus}>The breakdown is unavailable right now.</p>;
  } else if (data.status === 'insufficient_data') {
    body = (
      <p className={styles.breakdownStatus}>
        Fewer than 20 days of data: there is not enough history to rate this source yet.
      </p>
    );
  } else {
    body = (
      <>
        <table className={styles.breakdownTable}>
          <caption className="visually-hidden">How the risk-adjusted 30-day APR is built</caption>
          <tbody>
            <tr>
              <th scope="row">30-day APR</th>
              <td>{formatApr(data.yield30d)}</td>
            </tr>
            {RA30_CHARGE_LIST.map((charge) => (
              <tr key={charge.key}>
                <th scope="row">
                  − {charge.label}
                  <span className={styles.chargeWhy}>{charge.explanation}</span>
                </th>
                <td>{formatPoints(data.charges[charge.key])}</td>
              </tr>
            ))}
            <tr className={styles.breakdownTotal}>
              <th scope="row">= Risk-adjusted 30-day APR</th>
              <td>{formatApr(data.riskAdjustedYield30d)}</td>
            </tr>
          </tbody>
        </table>
        <p className={styles.breakdownNote}>
          pp = percentage points a year. Window {formatDay(data.window.from)} to{' '}
          {formatDay(data.window.to)} ({data.window.days} days). Safety {data.inputs.safety}/5,
          liquidity {data.inputs.liquidity}
          /5{row.isBaseRate ? '' : `, TVL ${formatTvl(data.inputs.tvl)}`}.
        </p>
      </>
    );
  }
  return (
    <div className={styles.breakdown}>
      {row.activeIncidents.map((incident) => (
        <p key={incident.date + incident.kind} className={styles.breakdownIncident}>
          <strong>Incident on {formatDay(incident.date)}:</strong> {incident.summary}
        </p>
      ))}
      <WarningLines warnings={row.openWarnings} className={styles.breakdownWarning} />
      {body}
      <p className={styles.breakdownNote} data-testid="breakdown-data-source">
        {dataSource(row)}
      </p>
      <Link to="/methodology" className={styles.breakdownLink}>
        How we calculate this
      </Link>
    </div>
  );
}

/**
 * The risk-adjusted APR of a row as a button that opens the breakdown of its charges. Clicks
 * inside never reach the row (React bubbles portal events through the tree), so opening or
 * reading the breakdown does not navigate. The button is plain until its first click: antd's
 * Popover (its own chunk) is fetched when a saver points at, touches or focuses a figure, and
 * takes the button over from the first click on.
 */
export function RiskBreakdownPopover({
  row,
  compact = false,
  children,
}: {
  row: ComparisonRow;
  /** The phone's compact table: a narrower button, no icon on the smallest screens. */
  compact?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [armed, setArmed] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement | null>(null);
  const stop = (event: MouseEvent) => event.stopPropagation();
  // The panel is rendered at the end of the page: focus moves into it when it opens, so the
  // keyboard reaches its link next, and Escape brings focus back to the figure.
  useEffect(() => {
    if (!open) return;
    const frame = requestAnimationFrame(() => panel.current?.focus({ preventScroll: true }));
    return () => cancelAnimationFrame(frame);
  }, [open]);
  // The first opening mounts the panel after the popover's chunk has arrived: focus it then.
  const panelRef = useCallback((element: HTMLDivElement | null) => {
    panel.current = element;
    if (element) requestAnimationFrame(() => element.focus({ preventScroll: true }));
  }, []);
  const onPanelKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    setOpen(false);
    trigger.current?.focus();
  };
  const label = `${formatApr(row.riskAdjustedYield30d)}: explain this number for ${row.name}`;
  const button = (
    <button
      ref={trigger}
      type="button"
      aria-haspopup="dialog"
      className={compact ? `${styles.explainButton} ${styles.compact}` : styles.explainButton}
      onClick={(event) => {
        stop(event);
        if (armed) return;
        setArmed(true);
        setOpen(true);
      }}
      onPointerEnter={warmUpPopover}
      onTouchStart={warmUpPopover}
      onFocus={warmUpPopover}
      aria-label={label}
      aria-expanded={open}
    >
      {children}
      <span className={styles.explainIcon}>
        <InfoIcon />
      </span>
    </button>
  );
  if (!armed) return button;
  return (
    <Suspense fallback={button}>
      <AntdBreakdownPopover
        open={open}
        onOpenChange={setOpen}
        title={`Why ${formatApr(row.riskAdjustedYield30d)}? · ${row.name}`}
        content={
          <div
            ref={panelRef}
            tabIndex={-1}
            role="dialog"
            aria-label={`How the risk-adjusted 30-day APR of ${row.name} is built`}
            className={styles.breakdownPanel}
            onClick={stop}
            onKeyDown={onPanelKey}
          >
            {open ? <BreakdownDetails row={row} /> : null}
          </div>
        }
      >
        {button}
      </AntdBreakdownPopover>
    </Suspense>
  );
}
