import { screen } from '@testing-library/react';
import { TOAST_DURATION_S } from '@yield/platform';
import { toast } from './toast.ts';

describe('toast', () => {
  it('shows a destructive toast as an alert with the title and description, lasting 4-5 s', async () => {
    expect(TOAST_DURATION_S).toBeGreaterThanOrEqual(4);
    expect(TOAST_DURATION_S).toBeLessThanOrEqual(5);
    // The closing after 4.5 s is an animation jsdom never finishes: e2e checks it in Chromium.
    toast.error('Error', 'The code is invalid');
    const alert = await screen.findByRole('alert', {}, { timeout: 15_000 });
    expect(alert).toHaveTextContent('Error');
    expect(alert).toHaveTextContent('The code is invalid');
  }, 30_000);

  it('shows a success toast as a status message', async () => {
    toast.success('Success!', 'Your premium account has been activated. Welcome!');
    const status = await screen.findByText(
      'Your premium account has been activated. Welcome!',
      {},
      { timeout: 15_000 },
    );
    expect(status.closest('[role="status"]')).not.toBeNull();
    expect(status.closest('[role="status"]')).toHaveTextContent('Success!');
  }, 30_000);
});
