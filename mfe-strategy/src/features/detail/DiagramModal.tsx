import { useEffect, useRef, type MouseEvent } from 'react';
import type { StrategyContent } from '@yield/contract';
import styles from './detail.module.css';

type Diagram = StrategyContent['diagram'];

/** The strategy's flow as boxes and arrows; `detailed` adds each step's explanation. */
export function DiagramFlow({ diagram, detailed }: { diagram: Diagram; detailed: boolean }) {
  return (
    <ol className={detailed ? styles.flowDetailed : styles.flow}>
      {diagram.steps.map((step, i) => (
        <li key={i} className={styles.flowStep}>
          <span className={styles.flowIndex} aria-hidden="true">
            {i + 1}
          </span>
          <span className={styles.flowLabel}>{step.label}</span>
          {detailed ? <span className={styles.flowDetail}>{step.detail}</span> : null}
        </li>
      ))}
    </ol>
  );
}

/**
 * Native modal dialog: the browser traps focus, closes it on Escape and returns focus to the
 * opener; a click on the backdrop (outside the panel) closes it too.
 */
export function DiagramModal({
  diagram,
  open,
  onClose,
}: {
  diagram: Diagram;
  open: boolean;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const onBackdropClick = (event: MouseEvent<HTMLDialogElement>) => {
    // The panel fills the dialog box; a click whose target is the dialog itself is the backdrop.
    if (event.target === event.currentTarget) onClose();
  };

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby="diagram-title"
      onClose={onClose}
      onClick={onBackdropClick}
      data-testid="diagram-modal"
    >
      <div className={styles.dialogPanel}>
        <div className={styles.dialogHead}>
          <h2 id="diagram-title">{diagram.title}</h2>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Close
          </button>
        </div>
        <DiagramFlow diagram={diagram} detailed />
      </div>
    </dialog>
  );
}
