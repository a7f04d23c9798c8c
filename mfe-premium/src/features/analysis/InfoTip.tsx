import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { TOOLTIP_OPEN_DELAY_S, TOOLTIP_SKIP_DELAY_S } from '@yield/platform';
import styles from './InfoTip.module.css';

export const OPEN_DELAY_MS = TOOLTIP_OPEN_DELAY_S * 1000;
export const SKIP_DELAY_MS = TOOLTIP_SKIP_DELAY_S * 1000;

// Shared by every tip on the page: moving from one tip to the next within the skip delay opens
// the next one at once instead of making the reader wait 700 ms again.
let lastClosedAt = Number.NEGATIVE_INFINITY;

export interface InfoTipProps {
  /** What the tip explains; the trigger's accessible name is "About {label}". */
  label: string;
  children: ReactNode;
}

/**
 * A small "?" button with an explanation. Hover opens it after 700 ms (300 ms skip delay); focus
 * and tap open it at once, Escape and leaving close it. The text is always the button's
 * description, so screen readers get it without opening anything.
 */
export function InfoTip({ label, children }: InfoTipProps) {
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const tipId = useId();

  useEffect(() => () => clearTimeout(timer.current), []);

  const show = (immediately: boolean) => {
    clearTimeout(timer.current);
    if (immediately || Date.now() - lastClosedAt < SKIP_DELAY_MS) {
      setOpen(true);
      return;
    }
    timer.current = setTimeout(() => setOpen(true), OPEN_DELAY_MS);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setOpen((wasOpen) => {
      if (wasOpen) lastClosedAt = Date.now();
      return false;
    });
  };

  return (
    <span className={styles.anchor} onMouseEnter={() => show(false)} onMouseLeave={hide}>
      <button
        type="button"
        className={styles.trigger}
        aria-describedby={tipId}
        onFocus={() => show(true)}
        onBlur={hide}
        // A tap focuses the button first (which opens the tip): toggling here would close it again.
        onClick={() => show(true)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && open) {
            event.stopPropagation();
            hide();
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
