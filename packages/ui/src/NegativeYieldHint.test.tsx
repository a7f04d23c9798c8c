import { fireEvent, render, screen } from '@testing-library/react';
import { CHARGES_EXCEED_YIELD, NegativeYieldHint } from './NegativeYieldHint.tsx';

describe('NegativeYieldHint', () => {
  it('explains a negative figure as a note that screen readers read and the keyboard reaches', () => {
    render(<NegativeYieldHint value={-1.34} />);
    const note = screen.getByRole('note', { name: CHARGES_EXCEED_YIELD });
    expect(note).toHaveAttribute('tabindex', '0');
    expect(CHARGES_EXCEED_YIELD).toContain('the risk charges exceed the yield');
  });

  it('shows the text as a tooltip on focus and on hover; blur, leaving and Escape hide it', () => {
    render(<NegativeYieldHint value={-0.5} />);
    const note = screen.getByRole('note', { name: CHARGES_EXCEED_YIELD });
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.focus(note);
    const tooltip = screen.getByRole('tooltip');
    expect(tooltip).toHaveTextContent(CHARGES_EXCEED_YIELD);
    expect(note).toHaveAttribute('aria-describedby', tooltip.id);
    fireEvent.keyDown(note, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.mouseEnter(note);
    expect(screen.getByRole('tooltip')).toHaveTextContent(CHARGES_EXCEED_YIELD);
    fireEvent.mouseLeave(note);
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.focus(note);
    fireEvent.blur(note);
    expect(screen.queryByRole('tooltip')).toBeNull();
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
