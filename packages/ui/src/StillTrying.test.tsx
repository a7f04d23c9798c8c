import { act, render, screen } from '@testing-library/react';
import { STILL_TRYING_AFTER_MS, StillTrying } from './StillTrying.tsx';

afterEach(() => vi.useRealTimers());

describe('StillTrying', () => {
  it('says within 2 s that the page is still trying, not before the delay', () => {
    vi.useFakeTimers();
    expect(STILL_TRYING_AFTER_MS).toBeLessThan(2000);
    render(<StillTrying />);
    expect(screen.queryByText('Still trying to reach the server…')).toBeNull();
    act(() => vi.advanceTimersByTime(STILL_TRYING_AFTER_MS - 1));
    expect(screen.queryByText('Still trying to reach the server…')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText('Still trying to reach the server…')).toBeInTheDocument();
  });
});
