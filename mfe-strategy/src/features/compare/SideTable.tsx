import type { CSSProperties, ReactNode } from 'react';
import type { CompareColumn } from './model.ts';
import styles from './compare.module.css';

/**
 * The compare page's side-by-side table: a label column (sticky while the table scrolls sideways)
 * and one column per source.
 */

/** One row: its label and one cell per column. */
export interface SideRow {
  label: ReactNode;
  cells: ReactNode[];
  testId?: string;
}

/** The table, with its swipe hint and its scrolling frame. */
export function SideTable({
  caption,
  columns,
  rows,
  foot,
  testId,
  wide = false,
}: {
  caption: string;
  columns: readonly CompareColumn[];
  rows: readonly SideRow[];
  foot?: SideRow;
  testId: string;
  /** Cells that need more room (amounts with reasons): on a phone the table scrolls sooner. */
  wide?: boolean;
}) {
  const line = (row: SideRow, key: string | number) => (
    <tr key={key} data-testid={row.testId}>
      <th scope="row">{row.label}</th>
      {row.cells.map((cell, i) => (
        <td key={columns[i]!.source.id}>{cell}</td>
      ))}
    </tr>
  );
  return (
    <>
      <p
        className={styles.swipeHint}
        data-columns={columns.length}
        data-wide={wide}
        aria-hidden="true"
      >
        Swipe the table sideways for every source; the labels stay in place.
      </p>
      <div className={styles.tableScroll} tabIndex={0} role="region" aria-label={caption}>
        <table
          className={wide ? `${styles.sideTable} ${styles.wideTable}` : styles.sideTable}
          data-testid={testId}
          style={{ '--columns': columns.length } as CSSProperties}
        >
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <td />
              {columns.map((c) => (
                <th key={c.source.id} scope="col">
                  <span
                    className={styles.swatch}
                    style={{ background: c.color }}
                    aria-hidden="true"
                  />
                  {c.source.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{rows.map(line)}</tbody>
          {foot ? <tfoot>{line(foot, 'foot')}</tfoot> : null}
        </table>
      </div>
    </>
  );
}
