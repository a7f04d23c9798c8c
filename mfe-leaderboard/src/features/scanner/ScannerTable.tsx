/**
 * The scanner's ranking as a virtualised table (@tanstack/react-virtual, scrolling with the page):
 * the DOM holds only the rows on screen plus a few, however many pools are loaded. It keeps table
 * semantics for screen readers (role table/row/cell, aria-rowcount and aria-rowindex give the
 * position of each rendered row in the whole ranking). Each row's charge breakdown opens on demand
 * with its button (keyboard reachable, aria-expanded).
 */
import { Link } from 'react-router-dom';
import { useLayoutEffect, useRef, useState } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import type { ScannerItem } from '@yield/contract';
import {
  ExternalLink,
  formatApr,
  formatPoints,
  formatSignedPoints,
  formatTvl,
  POOL_CHARGE_LIST,
} from '@yield/ui';
import styles from './scanner.module.css';

/** The risk-adjusted DeFi Base Rate of each kind of pool (GET /api/baserate), when known. */
export interface BaseRateOfKind {
  stablecoin: number | null;
  crypto: number | null;
}

const SAFETY_BASIS = {
  source: 'the score of the source we rate',
  tier: 'our dated project tier',
  unlisted: 'the cautious default for a project we have not reviewed',
} as const;

function baseOf(item: ScannerItem, base: BaseRateOfKind): number | null {
  return item.stablecoin ? base.stablecoin : base.crypto;
}

function ChargeBreakdown({
  item,
  base,
  id,
}: {
  item: ScannerItem;
  base: number | null;
  id: string;
}) {
  const kind = item.stablecoin ? 'stablecoin' : 'crypto';
  return (
    <div id={id} className={styles.breakdown} data-testid="charge-breakdown">
      <dl className={styles.breakdownList}>
        <div>
          <dt>
            APY ({item.apyBasis === 'mean30d' ? '30-day average' : 'current, no 30-day average yet'}
            )
          </dt>
          <dd>{formatApr(item.apy)}</dd>
        </div>
        <div>
          <dt>Expected APR over the next 30 days</dt>
          <dd>{formatApr(item.expected)}</dd>
        </div>
        {POOL_CHARGE_LIST.map(({ key, label, explanation }) => (
          <div key={key}>
            <dt title={explanation}>
              {label} charge
              {key === 'safety'
                ? ` (safety ${item.inputs.safety} of 5, ${SAFETY_BASIS[item.inputs.safetyBasis]})`
                : ''}
            </dt>
            <dd>−{formatPoints(item.charges[key])}</dd>
          </div>
        ))}
        <div className={styles.breakdownTotal}>
          <dt>Risk-adjusted APR</dt>
          <dd>{formatApr(item.riskAdjustedApr)}</dd>
        </div>
        <div>
          <dt>Risk-adjusted {kind} DeFi Base Rate</dt>
          <dd>{base === null ? 'N/A' : formatApr(base)}</dd>
        </div>
      </dl>
      <p className={styles.breakdownLinks}>
        <ExternalLink href={item.url}>{item.symbol} on DeFiLlama</ExternalLink>
        <a href="/methodology#pools-title">How the charges are computed</a>
      </p>
    </div>
  );
}

function ScannerRow({
  item,
  rank,
  base,
  open,
  onToggle,
}: {
  item: ScannerItem;
  rank: number;
  base: number | null;
  open: boolean;
  onToggle: () => void;
}) {
  const panelId = `scanner-breakdown-${item.pool}`;
  const versus = base === null ? null : item.riskAdjustedApr - base;
  return (
    <>
      <span role="cell" className={styles.rank}>
        {rank}
      </span>
      <span role="cell" className={styles.poolCell}>
        <Link
          to={`/scanner/pool/${encodeURIComponent(item.pool)}`}
          className={`${styles.symbol} ${styles.symbolLink}`}
          data-testid="scanner-pool-link"
        >
          {item.symbol}
        </Link>
        <span className={styles.poolMeta}>
          {item.project} · {item.chain}
          {item.poolMeta ? ` · ${item.poolMeta}` : ''}
        </span>
      </span>
      <span role="cell" className={`${styles.num} ${styles.apyCell}`} data-label="APY">
        {formatApr(item.apy)}
      </span>
      <span role="cell" className={`${styles.num} ${styles.raCell}`} data-label="Risk-adj.">
        {formatApr(item.riskAdjustedApr)}
      </span>
      <span
        role="cell"
        className={`${styles.num} ${styles.versusCell} ${
          versus !== null && versus > 0 ? styles.above : styles.below
        }`}
        data-label="vs base"
      >
        {versus === null ? 'N/A' : formatSignedPoints(versus)}
      </span>
      <span role="cell" className={`${styles.num} ${styles.tvlCell}`} data-label="TVL">
        {formatTvl(item.tvlUsd)}
      </span>
      <span role="cell" className={styles.detailsCell}>
        <button
          type="button"
          className={styles.detailsButton}
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          onClick={onToggle}
        >
          Charges <span aria-hidden="true">{open ? '▴' : '▾'}</span>{' '}
          <span className="visually-hidden">
            of {item.symbol} on {item.project}
          </span>
        </button>
      </span>
      {open ? (
        <span role="cell" aria-colspan={7} className={styles.breakdownCell}>
          <ChargeBreakdown item={item} base={base} id={panelId} />
        </span>
      ) : null}
    </>
  );
}

export function ScannerTable({
  items,
  total,
  base,
  caption,
  onNearEnd,
}: {
  items: ScannerItem[];
  total: number;
  base: BaseRateOfKind;
  caption: string;
  /** Called when the last loaded rows come into view (loads the next page). */
  onNearEnd?: () => void;
}) {
  const bodyRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  const [open, setOpen] = useState<Set<string>>(() => new Set());
  // Where the rows start in the page, measured again whenever the page's layout changes (what is
  // above them, notes and filters, may change height).
  useLayoutEffect(() => {
    const measure = () => {
      const el = bodyRef.current;
      if (el) setScrollMargin(Math.round(el.getBoundingClientRect().top + window.scrollY));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => 60,
    overscan: 6,
    scrollMargin,
    getItemKey: (index) => items[index]?.pool ?? index,
  });
  const rows = virtualizer.getVirtualItems();
  const last = rows[rows.length - 1];
  const nearEnd = last !== undefined && last.index >= items.length - 10;
  const onNearEndRef = useRef(onNearEnd);
  onNearEndRef.current = onNearEnd;
  useLayoutEffect(() => {
    if (nearEnd) onNearEndRef.current?.();
  }, [nearEnd, items.length]);

  const toggle = (pool: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(pool)) next.delete(pool);
      else next.add(pool);
      return next;
    });

  return (
    <div
      role="table"
      className={styles.table}
      aria-label={caption}
      aria-rowcount={total + 1}
      data-testid="scanner-table"
    >
      <div role="rowgroup" className={styles.head}>
        <div role="row" aria-rowindex={1} className={styles.row}>
          <span role="columnheader" className={styles.rank}>
            #
          </span>
          <span role="columnheader" className={styles.poolCell}>
            Pool
          </span>
          <span role="columnheader" className={`${styles.num} ${styles.apyCell}`}>
            APY
          </span>
          <span role="columnheader" className={`${styles.num} ${styles.raCell}`}>
            Risk-adjusted APR
          </span>
          <span role="columnheader" className={`${styles.num} ${styles.versusCell}`}>
            vs DeFi Base Rate
          </span>
          <span role="columnheader" className={`${styles.num} ${styles.tvlCell}`}>
            TVL
          </span>
          <span role="columnheader" className={styles.detailsCell}>
            <span className="visually-hidden">Charge breakdown</span>
          </span>
        </div>
      </div>
      <div
        role="rowgroup"
        ref={bodyRef}
        className={styles.body}
        style={{ height: virtualizer.getTotalSize() }}
      >
        {rows.map((row) => {
          const item = items[row.index]!;
          return (
            <div
              key={row.key}
              role="row"
              aria-rowindex={row.index + 2}
              data-index={row.index}
              ref={virtualizer.measureElement}
              className={`${styles.row} ${styles.bodyRow}`}
              style={{ transform: `translateY(${row.start - scrollMargin}px)` }}
              data-testid="scanner-row"
            >
              <ScannerRow
                item={item}
                rank={row.index + 1}
                base={baseOf(item, base)}
                open={open.has(item.pool)}
                onToggle={() => toggle(item.pool)}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}
