/** This remote's pages, the one list of what it serves (format: packages/federation/src/pages.ts). */
import type { RemotePages } from '@yield/federation/pages';

export default {
  pages: [
    { path: '/pricing', module: './PricingPage', title: 'Premium Access' },
    { path: '/tally-success', module: './TallySuccessPage', title: 'Request Submitted' },
    { path: '/premium/:strategy', module: './PremiumStrategyPage', title: 'Premium Strategy' },
    { path: '/premium-email', module: './PremiumEmailPage', title: 'Premium Registration' },
  ],
} satisfies RemotePages;
