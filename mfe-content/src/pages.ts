/** This remote's pages, the one list of what it serves (format: packages/federation/src/pages.ts). */
import type { RemotePages } from '@yield/federation/pages';

export default {
  pages: [
    { path: '/vault', module: './VaultPage', title: 'Yield Generation Excellence' },
    { path: '/b2b', module: './B2bPage', title: 'Business API' },
    { path: '/sources-of-yield', module: './SourcesOfYieldPage', title: 'Sources of the Yield' },
    { path: '/advantages', module: './AdvantagesPage', title: 'Advantages' },
    { path: '/risks', module: './RisksPage', title: 'Risks' },
    { path: '/how-to', module: './HowToPage', title: 'TradFi vs Crypto' },
    { path: '/learn', module: './LearnPage', title: 'Learn' },
    { path: '/methodology', module: './MethodologyPage', title: 'Methodology' },
    { path: '/help-center', module: './HelpCenterPage', title: 'Help Center' },
    { path: '/subscribe', module: './SubscribePage', title: 'Subscribe' },
    { path: '/coming-soon', module: './ComingSoonPage', title: 'Coming Soon' },
    { path: '/privacy-policy', module: './PrivacyPolicyPage', title: 'Privacy Policy' },
    { path: '/terms-of-service', module: './TermsOfServicePage', title: 'Terms of Service' },
    { path: '/cookies-policy', module: './CookiesPolicyPage', title: 'Cookies Policy' },
    { path: '/security', module: './SecurityPage', title: 'Security' },
  ],
  // The first and last parts of `/`, a page of mfe_leaderboard (see its src/pages.ts).
  sections: ['./LandingHero', './LandingSections'],
} satisfies RemotePages;
