import { screen, within } from '@testing-library/react';
import { TrackRecordMethod } from './TrackRecordMethod.tsx';
import { renderPage } from '../../test/render.tsx';

describe('TrackRecordMethod (the /methodology section on the track record)', () => {
  it('says how the picks are made and paid, and links to /track-record', () => {
    renderPage(<TrackRecordMethod />);
    const section = screen.getByRole('region', { name: 'Track record' });
    const text = section.textContent ?? '';
    expect(text).toContain('exactly as the comparison published them that day');
    expect(text).toContain('a depeg counts as the loss it was');
    expect(text).toContain('its loss is not in the figure');
    expect(text).toContain("The same page follows the scanner's top 10 pools.");
    expect(text).toContain('a day a pool has no data for counts as 0');
    expect(text).toContain(
      'ranks first by risk-adjusted APR, each computed with its current method',
    );
    expect(within(section).getByRole('link', { name: 'track record' })).toHaveAttribute(
      'href',
      '/track-record',
    );
  });
});
