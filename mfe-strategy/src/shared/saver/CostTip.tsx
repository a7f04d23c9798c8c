import { useId, useState, type ReactNode } from 'react';
import styles from './net-yield.module.css';

/**
 * A small "?" button explaining one figure. Hover, focus and tap open it at once; Escape, leaving
 * and moving focus away close it. The text is always the button's description, so a screen reader
 * reads it without opening anything. Plain React, no antd (the strategy pages do not load antd).
 */
export function CostTip({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const tipId = useId();
  return (
    <span
      className={styles.tipAnchor}
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
    >
      <button
        type="button"
        className={styles.tipTrigger}
        aria-describedby={tipId}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        // A tap focuses the button first (which opens the tip): toggling here would close it again.
        onClick={() => setOpen(true)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && open) {
            event.stopPropagation();
            setOpen(false);
          }
        }}
      >
        <span aria-hidden="true">?</span>
        <span className="visually-hidden">About {label}</span>
      </button>
      <span id={tipId} role="tooltip" className={styles.tip} hidden={!open}>
        {children}
      </span>
    </span>
  );
}
