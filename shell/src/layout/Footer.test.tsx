import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { settingsQuery, type useSiteSettings } from '@yield/platform';
import { Footer } from './Footer.tsx';

type SiteSettings = NonNullable<ReturnType<typeof useSiteSettings>>;

const SOCIALS = { x: 'https://x.test/pigi', telegram: 'https://t.test/pigi' };

function renderFooter() {
  const client = new QueryClient();
  // Only what the footer reads of the site settings.
  client.setQueryData(settingsQuery.queryKey, {
    siteTitle: 'Pigi',
    siteSlogan: 'Global Yield Leaderboard',
    socials: SOCIALS,
  } as SiteSettings);
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <Footer />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('footer', () => {
  it.each([
    ['X (Twitter)', /^X \(Twitter\)\s*\(opens in a new tab\)$/, SOCIALS.x],
    ['Telegram', /^Telegram\s*\(opens in a new tab\)$/, SOCIALS.telegram],
  ])(
    'links to the product on %s in a new tab, and says so to screen readers',
    (_site, name, href) => {
      renderFooter();
      const link = screen.getByRole('link', { name });
      expect(link).toHaveAttribute('href', href);
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    },
  );
});
