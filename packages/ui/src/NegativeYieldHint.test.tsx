import { render, screen } from '@testing-library/react';
import { CHARGES_EXCEED_YIELD, NegativeYieldHint } from './NegativeYieldHint.tsx';

describe('NegativeYieldHint', () => {
  // The tooltip itself needs layout (ResizeObserver): e2e shows it on keyboard focus in Chromium.
  it('explains a negative figure as a note that screen readers read and the keyboard reaches', () => {
    render(<NegativeYieldHint value={-1.34} />);
    const note = screen.getByRole('note', { name: CHARGES_EXCEED_YIELD });
    expect(note).toHaveAttribute('tabindex', '0');
    expect(CHARGES_EXCEED_YIELD).toContain('the risk charges exceed the yield');
  });

  it('is absent for zero, positive or missing figures', () => {
    const { container } = render(
      <>
        <NegativeYieldHint value={0} />
        <NegativeYieldHint value={2.5} />
        <NegativeYieldHint value={null} />
        <NegativeYieldHint value={Number.NaN} />
      </>,
    );
    expect(container).toBeEmptyDOMElement();
  });
});
