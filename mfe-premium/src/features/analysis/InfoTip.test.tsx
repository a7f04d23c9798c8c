import { act, fireEvent, render, screen } from '@testing-library/react';
import { InfoTip, OPEN_DELAY_MS, SKIP_DELAY_MS } from './InfoTip.tsx';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function tips() {
  render(
    <>
      <InfoTip label="Volatility">Moves of the daily APR.</InfoTip>
      <InfoTip label="Liquidity">Cost of a slow exit.</InfoTip>
    </>,
  );
  const [first, second] = screen.getAllByRole('button');
  return { first: first!, second: second! };
}

describe('InfoTip (opens after 700 ms, skip delay 300 ms)', () => {
  it('opens on hover only after 700 ms', () => {
    const { first } = tips();
    fireEvent.mouseEnter(first.parentElement!);
    act(() => vi.advanceTimersByTime(OPEN_DELAY_MS - 50));
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => vi.advanceTimersByTime(50));
    expect(screen.getByRole('tooltip')).toHaveTextContent('Moves of the daily APR.');
  });

  it('opens the next tip at once within the 300 ms skip delay, and waits again after it', () => {
    const { first, second } = tips();
    fireEvent.mouseEnter(first.parentElement!);
    act(() => vi.advanceTimersByTime(OPEN_DELAY_MS));
    fireEvent.mouseLeave(first.parentElement!);
    act(() => vi.advanceTimersByTime(SKIP_DELAY_MS - 100));
    fireEvent.mouseEnter(second.parentElement!);
    expect(screen.getByRole('tooltip')).toHaveTextContent('Cost of a slow exit.');

    fireEvent.mouseLeave(second.parentElement!);
    act(() => vi.advanceTimersByTime(SKIP_DELAY_MS + 1));
    fireEvent.mouseEnter(first.parentElement!);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('opens at once on keyboard focus and closes on Escape, and describes its button', () => {
    const { first } = tips();
    expect(first).toHaveAccessibleName('About Volatility');
    expect(first).toHaveAccessibleDescription('Moves of the daily APR.');
    act(() => first.focus());
    expect(screen.getByRole('tooltip')).toBeVisible();
    fireEvent.keyDown(first, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('stays open after a tap (focus then click) and closes when focus moves away', () => {
    const { first, second } = tips();
    act(() => first.focus());
    fireEvent.click(first);
    expect(screen.getByRole('tooltip')).toHaveTextContent('Moves of the daily APR.');
    act(() => second.focus());
    expect(screen.getAllByRole('tooltip')).toHaveLength(1);
    expect(screen.getByRole('tooltip')).toHaveTextContent('Cost of a slow exit.');
  });
});
