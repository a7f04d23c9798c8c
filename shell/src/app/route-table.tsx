import type { ReactNode } from 'react';
import type { ExposedModule, RemoteName } from '@yield/federation/registry';
import { RemoteSlot } from '../remotes/RemoteSlot.tsx';
import { HomePage } from '../pages/HomePage.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';

/** Where a path's page comes from: a remote's exposed module, or the shell itself. */
export type PageSource =
  | { kind: 'remote'; remote: RemoteName; module: string }
  | { kind: 'shell'; page: 'home' | 'not-found' };

export interface PageRoute {
  path: string;
  source: PageSource;
}

function remote<R extends RemoteName>(remoteName: R, module: ExposedModule<R>): PageSource {
  return { kind: 'remote', remote: remoteName, module };
}

/** Every route of the spec's route table and of decisions.md, with the app that owns it. */
export const pageRoutes: PageRoute[] = [
  { path: '/', source: { kind: 'shell', page: 'home' } },
  { path: '/options', source: remote('mfe_leaderboard', 'ComparisonPage') },
  { path: '/options/:id', source: remote('mfe_strategy', 'StrategyDetailPage') },
  { path: '/strategy/:id', source: remote('mfe_strategy', 'NumericStrategyPage') },
  { path: '/strategy-detail/:id', source: remote('mfe_strategy', 'NumericStrategyPage') },
  { path: '/vault', source: remote('mfe_content', 'VaultPage') },
  { path: '/b2b', source: remote('mfe_content', 'B2bPage') },
  { path: '/sources-of-yield', source: remote('mfe_content', 'SourcesOfYieldPage') },
  { path: '/advantages', source: remote('mfe_content', 'AdvantagesPage') },
  { path: '/risks', source: remote('mfe_content', 'RisksPage') },
  { path: '/how-to', source: remote('mfe_content', 'HowToPage') },
  { path: '/learn', source: remote('mfe_content', 'LearnPage') },
  { path: '/methodology', source: remote('mfe_content', 'MethodologyPage') },
  { path: '/help-center', source: remote('mfe_content', 'HelpCenterPage') },
  { path: '/subscribe', source: remote('mfe_content', 'SubscribePage') },
  { path: '/coming-soon', source: remote('mfe_content', 'ComingSoonPage') },
  { path: '/privacy-policy', source: remote('mfe_content', 'PrivacyPolicyPage') },
  { path: '/terms-of-service', source: remote('mfe_content', 'TermsOfServicePage') },
  { path: '/cookies-policy', source: remote('mfe_content', 'CookiesPolicyPage') },
  { path: '/security', source: remote('mfe_content', 'SecurityPage') },
  { path: '/pricing', source: remote('mfe_premium', 'PricingPage') },
  { path: '/tally-success', source: remote('mfe_premium', 'TallySuccessPage') },
  { path: '/premium/:strategy', source: remote('mfe_premium', 'PremiumStrategyPage') },
  { path: '/premium-email', source: remote('mfe_premium', 'PremiumEmailPage') },
  { path: '*', source: { kind: 'shell', page: 'not-found' } },
];

export function renderPage(source: PageSource): ReactNode {
  if (source.kind === 'shell') return source.page === 'home' ? <HomePage /> : <NotFoundPage />;
  return (
    <RemoteSlot
      // A new page gets a fresh boundary: one page's failure never sticks to the next.
      key={`${source.remote}/${source.module}`}
      remote={source.remote}
      module={source.module as ExposedModule<typeof source.remote>}
    />
  );
}
