import { screen, within } from '@testing-library/react';
import LandingHero from './LandingHero.tsx';
import LandingSections from './LandingSections.tsx';
import { settingsFixture } from '@yield/fixtures';
import { serve } from '@yield/fixtures/msw';
import { renderPage } from '../test/render.tsx';

const SETTINGS = settingsFixture();

describe('LandingHero', () => {
  it('shows the headline and slogan from settings and the illustrative card', async () => {
    serve('settings');
    renderPage(<LandingHero />);
    expect(
      await screen.findByRole('heading', { level: 1, name: SETTINGS.siteHeader }),
    ).toBeInTheDocument();
    expect(screen.getByText(SETTINGS.siteSlogan)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Get Started' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'View Demo' })).toBeEnabled();
    const card = screen.getByRole('figure', { name: /sample figures that are not real data/ });
    expect(within(card).getByText('Your pigi')).toBeInTheDocument();
    expect(within(card).getByText('Protected')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: /Add Funds/ })).toBeDisabled();
  });
});

describe('LandingSections', () => {
  it('renders the anchors the header scrolls to and the audit link', () => {
    serve('settings');
    const { container } = renderPage(<LandingSections />);
    expect(container.querySelector('#how-it-works')).not.toBeNull();
    expect(container.querySelector('#faq')).not.toBeNull();
    expect(container.querySelector('#features')).not.toBeNull();
    expect(screen.getByRole('link', { name: 'View Audit Reports' })).toHaveAttribute(
      'href',
      '/coming-soon?page=Audit%20Reports',
    );
    expect(screen.getByText('No credit card required.')).toBeInTheDocument();
    expect(
      within(container.querySelector('#faq') as HTMLElement).getAllByRole('button'),
    ).toHaveLength(7);
  });
});
