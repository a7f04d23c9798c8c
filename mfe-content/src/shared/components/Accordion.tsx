import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import styles from './Accordion.module.css';

export interface AccordionItem {
  id: string;
  question: string;
  answer: ReactNode;
}

/**
 * Single-open disclosure list (at most one FAQ item open). Headers are real buttons inside
 * headings; arrow keys, Home and End move between them as in the WAI-ARIA accordion pattern.
 */
export function Accordion({
  items,
  headingLevel = 3,
}: {
  items: AccordionItem[];
  headingLevel?: 3 | 4;
}) {
  const [openId, setOpenId] = useState<string | null>(null);
  const baseId = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const Heading = headingLevel === 3 ? 'h3' : 'h4';

  const moveFocus = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = items.length - 1;
    const target =
      event.key === 'ArrowDown'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowUp'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (target === null) return;
    event.preventDefault();
    buttons.current[target]?.focus();
  };

  return (
    <div className={styles.accordion}>
      {items.map((item, index) => {
        const open = openId === item.id;
        const buttonId = `${baseId}-q-${item.id}`;
        const panelId = `${baseId}-a-${item.id}`;
        return (
          <div key={item.id} className={open ? `${styles.item} ${styles.open}` : styles.item}>
            <Heading className={styles.heading}>
              <button
                ref={(el) => {
                  buttons.current[index] = el;
                }}
                id={buttonId}
                type="button"
                className={styles.trigger}
                aria-expanded={open}
                aria-controls={panelId}
                onClick={() => setOpenId(open ? null : item.id)}
                onKeyDown={(event) => moveFocus(event, index)}
              >
                <span>{item.question}</span>
                <span className={styles.chevron} aria-hidden="true" />
              </button>
            </Heading>
            <div
              id={panelId}
              role="region"
              aria-labelledby={buttonId}
              className={styles.panel}
              hidden={!open}
            >
              {item.answer}
            </div>
          </div>
        );
      })}
    </div>
  );
}
