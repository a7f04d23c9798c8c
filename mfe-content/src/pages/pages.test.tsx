import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import HowToPage from './HowToPage.tsx';
import ComingSoonPage from './ComingSoonPage.tsx';
import TermsOfServicePage from './TermsOfServicePage.tsx';
import HelpCenterPage from './HelpCenterPage.tsx';
import B2bPage from './B2bPage.tsx';
import MethodologyPage from './MethodologyPage.tsx';
import { apiErrorFixture, settingsFixture } from '@yield/fixtures';
import { serve, serveOthers } from '@yield/fixtures/msw';
import { renderPage } from '../test/render.tsx';
import { toast } from '@yield/ui';

vi.mock('@yield/ui', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@yield/ui')>()),
  toast: { success: vi.fn(), error: vi.fn() },
  warmUpToasts: vi.fn(),
}));

const SETTINGS = settingsFixture();

describe('HowToPage', () => {
  it('defaults to Crypto and switches to TradFi', async () => {
    const user = userEvent.setup();
    renderPage(<HowToPage />);
    const group = screen.getByRole('group', { name: 'Show options for' });
    expect(within(group).getByRole('button', { name: 'Crypto' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(6);
    expect(screen.getByText('Buying Bitcoin/Ethereum').closest('li')).toHaveTextContent(
      'Very Low risk',
    );

    await user.click(within(group).getByRole('button', { name: 'TradFi' }));
    expect(within(group).getByRole('button', { name: 'TradFi' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(5);
    expect(screen.getByText('Real Estate').closest('li')).toHaveTextContent('High risk');
  });
});

describe('ComingSoonPage', () => {
  it('reads the page parameter but never shows it', async () => {
    serve('settings');
    const signup = serve('mailSignup');
    const user = userEvent.setup();
    renderPage(<ComingSoonPage />, { path: '/coming-soon?page=Hidden%20Marker' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Coming Soon');
    expect(document.body).not.toHaveTextContent('Hidden Marker');
    // It is used only as the sign-up's source.
    await user.type(screen.getByLabelText('Email address'), 'a@example.com');
    await user.click(screen.getByRole('button', { name: 'Notify Me' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalled());
    expect(signup.calls[0]?.body).toEqual({
      email: 'a@example.com',
      source: 'coming-soon/hidden-marker',
    });
  });

  it('links the social account from settings in a new tab', async () => {
    serve('settings');
    renderPage(<ComingSoonPage />, { path: '/coming-soon' });
    const link = await screen.findByRole('link', { name: /Follow us on X/ });
    expect(link).toHaveAttribute('href', SETTINGS.socials.x);
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveAttribute('target', '_blank');
  });
});

describe('TermsOfServicePage', () => {
  it('shows today as Last Updated and the 18+ rule', () => {
    serve('settings');
    renderPage(<TermsOfServicePage />, { path: '/terms-of-service' });
    const today = new Date().toLocaleDateString('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
    });
    expect(screen.getByText(today)).toBeInTheDocument();
    expect(screen.getByText(/at least 18 years old/)).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /Back to Home/ })[0]).toHaveAttribute('href', '/');
  });
});

describe('HelpCenterPage', () => {
  it('mails the contact address from settings and View FAQs goes home, then smooth-scrolls', async () => {
    serve('settings');
    const scrollIntoView = vi.fn();
    Element.prototype.scrollIntoView = scrollIntoView;
    const faq = document.createElement('section');
    faq.id = 'faq';
    document.body.append(faq);
    const user = userEvent.setup();
    renderPage(<HelpCenterPage />, { path: '/help-center' });
    const mail = await screen.findByRole('link', { name: SETTINGS.siteContactEmail });
    expect(mail).toHaveAttribute('href', `mailto:${SETTINGS.siteContactEmail}`);
    expect(screen.getByText(/we'll respond within 24 hours/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'View FAQs' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    expect(scrollIntoView).not.toHaveBeenCalled();
    await vi.waitFor(() =>
      expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'smooth', block: 'start' }),
    );
    expect(scrollIntoView.mock.contexts[0]).toBe(faq);
    faq.remove();
  });
});

describe('B2bPage', () => {
  it('opens the business form and API docs from settings', async () => {
    serve('settings');
    renderPage(<B2bPage />, { path: '/b2b' });
    await vi.waitFor(() =>
      expect(screen.getByRole('link', { name: /Get Started/ })).toHaveAttribute(
        'href',
        SETTINGS.externalUrls.businessSignupForm,
      ),
    );
    expect(screen.getByRole('link', { name: /Schedule a Demo/ })).toHaveAttribute(
      'href',
      SETTINGS.externalUrls.businessSignupForm,
    );
    expect(screen.getByRole('link', { name: /View API Documentation/ })).toHaveAttribute(
      'href',
      SETTINGS.externalUrls.apiDocs,
    );
  });
});

describe('MethodologyPage', () => {
  it('says where the data comes from and which DeFiLlama fields the method uses', async () => {
    serve('settings');
    serveOthers(503, apiErrorFixture('data_unavailable', 'down'));
    renderPage(<MethodologyPage />);
    const origin = screen.getByTestId('data-origin');
    expect(within(origin).getByRole('heading', { level: 2 })).toHaveTextContent(
      'Where the data comes from',
    );
    expect(origin).toHaveTextContent('DeFiLlama');
    expect(origin).toHaveTextContent(
      'Once it imports, a source without a DeFiLlama pool says "No live data": it is listed without figures, neither plotted nor ranked',
    );
    const used = within(origin)
      .getAllByRole('listitem')
      .map((item) => item.querySelector('code')?.textContent);
    expect(used).toEqual(['timestamp', 'apy', 'apyReward', 'tvlUsd']);
    expect(origin).toHaveTextContent(
      /apyBase \(the APY without rewards\), il7d, apyBase7d and pricePerShare are not used/,
    );
    // The page's data date, in the site's one date format.
    expect(await screen.findByText(/Sample data as of Nov 21, 2026/)).toBeInTheDocument();
  });
});
