// Standalone development: this remote's pages on their own (the shell loads ./exposes/* instead).
import { renderStandalone } from '@yield/platform/standalone';
import PricingPage from './exposes/PricingPage.tsx';
import TallySuccessPage from './exposes/TallySuccessPage.tsx';
import PremiumStrategyPage from './exposes/PremiumStrategyPage.tsx';
import PremiumEmailPage from './exposes/PremiumEmailPage.tsx';

renderStandalone('Premium', [
  { path: '/pricing', element: <PricingPage /> },
  { path: '/tally-success', element: <TallySuccessPage /> },
  { path: '/premium/:strategy', element: <PremiumStrategyPage /> },
  { path: '/premium-email', element: <PremiumEmailPage /> },
]);
