import { useId, useState, type CSSProperties, type KeyboardEvent, type MouseEvent } from 'react';
import { createPortal } from 'react-dom';

/** Why a risk-adjusted figure is below zero (docs/methodology.md: the charges are subtracted). */
export const CHARGES_EXCEED_YIELD = 'Below zero: the risk charges exceed the yield.';

const stop = (event: MouseEvent) => event.stopPropagation();

const BUBBLE_WIDTH = 240;

/** Where the bubble goes: under the marker, inside the viewport (fixed, so no table clips it). */
function bubbleStyle(marker: DOMRect): CSSProperties {
  const left = Math.min(
    Math.max(8, marker.left + marker.width / 2 - BUBBLE_WIDTH / 2),
    window.innerWidth - BUBBLE_WIDTH - 8,
  );
  return {
    position: 'fixed',
    top: marker.bottom + 6,
    left: Math.max(8, left),
    maxWidth: BUBBLE_WIDTH,
    zIndex: 1070,
    padding: '6px 8px',
    borderRadius: 6,
    background: 'rgba(0, 0, 0, 0.85)',
    color: '#fff',
    fontSize: 14,
    lineHeight: 1.4,
    fontWeight: 400,
    whiteSpace: 'normal',
    pointerEvents: 'none',
  };
}

/**
 * The short explanation a negative risk-adjusted figure carries, placed right after it: a marker
 * (an inline SVG, not a glyph some phones lack) that shows the text as a tooltip on hover and on keyboard focus (Escape hides it), and that
 * screen readers read as a note. Plain React, no antd: the strategy pages would otherwise load
 * antd's tooltip machinery (about 56 KB gzip) for one sentence. Renders nothing for a figure of
 * zero or more (or none).
 */
export function NegativeYieldHint({ value }: { value: number | null | undefined }) {
  const tooltipId = useId();
  const [anchor, setAnchor] = useState<DOMRect | null>(null);
  if (typeof value !== 'number' || !(value < 0)) return null;
  const show = (event: { currentTarget: Element }) =>
    setAnchor(event.currentTarget.getBoundingClientRect());
  const hide = () => setAnchor(null);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') hide();
  };
  return (
    <>
      <span
        role="note"
        tabIndex={0}
        aria-label={CHARGES_EXCEED_YIELD}
        aria-describedby={anchor ? tooltipId : undefined}
        data-testid="negative-yield-hint"
        onClick={stop}
        onMouseEnter={show}
        onMouseLeave={hide}
        onFocus={show}
        onBlur={hide}
        onKeyDown={onKeyDown}
        style={{ cursor: 'help', marginInlineStart: 4, fontSize: '0.85em' }}
      >
        <svg
          width="1em"
          height="1em"
          viewBox="0 0 16 16"
          aria-hidden="true"
          focusable="false"
          style={{ verticalAlign: '-0.125em' }}
        >
          <circle cx="8" cy="8" r="7" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path
            d="M8 7.2v4.3M8 4.6v.2"
            stroke="currentColor"
            strokeWidth="1.7"
            strokeLinecap="round"
          />
        </svg>
      </span>
      {anchor
        ? createPortal(
            <span role="tooltip" id={tooltipId} style={bubbleStyle(anchor)}>
              {CHARGES_EXCEED_YIELD}
            </span>,
            document.body,
          )
        : null}
    </>
  );
}
