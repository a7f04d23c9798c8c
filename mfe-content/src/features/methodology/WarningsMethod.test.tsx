import { screen } from '@testing-library/react';
import { WarningsMethod } from './WarningsMethod.tsx';
import { serve } from '@yield/fixtures/msw';
import { renderPage } from '../../test/render.tsx';

describe('WarningsMethod (the /methodology section on detected warnings)', () => {
  it('explains the three kinds with the operators’ thresholds, the label, GREAT and the spike note', async () => {
    serve('settings');
    renderPage(<WarningsMethod />);
    const section = screen.getByRole('region', { name: 'Warnings detected from data' });
    expect(await screen.findByText('Thresholds reviewed Nov 23, 2026.')).toBeInTheDocument();
    const text = section.textContent ?? '';
    expect(text).toContain('labelled “detected from data”');
    expect(text).toContain('fell by at least 30% within 7 days, or by at least 50% within 30 days');
    expect(text).toContain('more than 1% away from $1');
    expect(text).toContain('more than 2% below the price of ETH');
    expect(text).toContain('more than 4 standard deviations above');
    expect(text).toContain('The 30-day APR already damps such a spike');
    expect(text).toContain('back within the threshold for 3 days in a row');
    expect(text).toContain('the source is never marked GREAT');
  });
});
