import { Tooltip } from 'antd';
import type { MouseEvent } from 'react';

/** Why a risk-adjusted figure is below zero (docs/methodology.md: the charges are subtracted). */
export const CHARGES_EXCEED_YIELD = 'Below zero: the risk charges exceed the yield.';

const stop = (event: MouseEvent) => event.stopPropagation();

/**
 * The short explanation a negative risk-adjusted figure carries, placed right after it: a marker
 * that shows the text as a tooltip on hover and on keyboard focus, and that screen readers read as
 * a note. Renders nothing for a figure of zero or more (or none).
 */
export function NegativeYieldHint({ value }: { value: number | null | undefined }) {
  if (typeof value !== 'number' || !(value < 0)) return null;
  return (
    <Tooltip title={CHARGES_EXCEED_YIELD} trigger={['hover', 'focus']}>
      <span
        role="note"
        tabIndex={0}
        aria-label={CHARGES_EXCEED_YIELD}
        data-testid="negative-yield-hint"
        onClick={stop}
        style={{ cursor: 'help', marginInlineStart: 4, fontSize: '0.85em' }}
      >
        <span aria-hidden="true">ⓘ</span>
      </span>
    </Tooltip>
  );
}
