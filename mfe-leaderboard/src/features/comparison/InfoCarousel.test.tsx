import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { InfoCarousel, nextIndex, previousIndex, swipeIndex } from './InfoCarousel.tsx';
import { renderInApp } from '../../test/test-utils.tsx';

function activeTitle() {
  const slide = document.querySelector('[aria-roledescription="slide"][data-active="true"]');
  return slide?.querySelector('h2')?.textContent;
}

describe('index rules', () => {
  it('wraps around with the arrows', () => {
    expect(nextIndex(2, 3)).toBe(0);
    expect(previousIndex(0, 3)).toBe(2);
    expect(nextIndex(0, 3)).toBe(1);
  });
  it('moves on a swipe over 50 px and stops at the ends', () => {
    expect(swipeIndex(0, 3, -50)).toBe(0);
    expect(swipeIndex(0, 3, -51)).toBe(1);
    expect(swipeIndex(2, 3, -200)).toBe(2);
    expect(swipeIndex(0, 3, 200)).toBe(0);
    expect(swipeIndex(2, 3, 80)).toBe(1);
  });
});

describe('InfoCarousel', () => {
  it('moves with arrows (wrapping), dots and swipes', async () => {
    const user = userEvent.setup();
    renderInApp(<InfoCarousel headingLevel={2} />);
    expect(activeTitle()).toBe('What is the risk-adjusted APR?');

    await user.click(screen.getByRole('button', { name: 'Previous tab' }));
    expect(activeTitle()).toBe('What does GREAT mean?');
    await user.click(screen.getByRole('button', { name: 'Next tab' }));
    expect(activeTitle()).toBe('What is the risk-adjusted APR?');

    await user.click(screen.getByRole('button', { name: /Show tab 2/ }));
    expect(activeTitle()).toBe('What is the DeFi Base Rate?');
    expect(screen.getByRole('button', { name: /Show tab 2/ })).toHaveAttribute(
      'aria-current',
      'true',
    );

    const viewport = document.querySelector('[aria-roledescription="carousel"] > div')!;
    fireEvent.pointerDown(viewport, { clientX: 300, pointerType: 'touch' });
    fireEvent.pointerUp(viewport, { clientX: 200, pointerType: 'touch' });
    expect(activeTitle()).toBe('What does GREAT mean?');
    fireEvent.pointerDown(viewport, { clientX: 300, pointerType: 'touch' });
    fireEvent.pointerUp(viewport, { clientX: 100, pointerType: 'touch' });
    expect(activeTitle()).toBe('What does GREAT mean?');
    fireEvent.pointerDown(viewport, { clientX: 100, pointerType: 'touch' });
    fireEvent.pointerUp(viewport, { clientX: 140, pointerType: 'touch' });
    expect(activeTitle()).toBe('What does GREAT mean?');
  });
});
