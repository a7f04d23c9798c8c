// Standalone development: this remote's pages on their own (the shell loads ./exposes/* instead).
import { renderStandalone } from '@yield/platform/standalone';
import LandingHero from './exposes/LandingHero.tsx';
import LandingSections from './exposes/LandingSections.tsx';
import VaultPage from './exposes/VaultPage.tsx';
import B2bPage from './exposes/B2bPage.tsx';
import SourcesOfYieldPage from './exposes/SourcesOfYieldPage.tsx';
import AdvantagesPage from './exposes/AdvantagesPage.tsx';
import RisksPage from './exposes/RisksPage.tsx';
import HowToPage from './exposes/HowToPage.tsx';
import LearnPage from './exposes/LearnPage.tsx';
import HelpCenterPage from './exposes/HelpCenterPage.tsx';
import SubscribePage from './exposes/SubscribePage.tsx';
import ComingSoonPage from './exposes/ComingSoonPage.tsx';
import MethodologyPage from './exposes/MethodologyPage.tsx';
import PrivacyPolicyPage from './exposes/PrivacyPolicyPage.tsx';
import TermsOfServicePage from './exposes/TermsOfServicePage.tsx';
import CookiesPolicyPage from './exposes/CookiesPolicyPage.tsx';
import SecurityPage from './exposes/SecurityPage.tsx';

renderStandalone('Content pages', [
  { path: '/', element: <LandingHero /> },
  { path: '/landing-sections', element: <LandingSections /> },
  { path: '/vault', element: <VaultPage /> },
  { path: '/b2b', element: <B2bPage /> },
  { path: '/sources-of-yield', element: <SourcesOfYieldPage /> },
  { path: '/advantages', element: <AdvantagesPage /> },
  { path: '/risks', element: <RisksPage /> },
  { path: '/how-to', element: <HowToPage /> },
  { path: '/learn', element: <LearnPage /> },
  { path: '/help-center', element: <HelpCenterPage /> },
  { path: '/subscribe', element: <SubscribePage /> },
  { path: '/coming-soon', element: <ComingSoonPage /> },
  { path: '/methodology', element: <MethodologyPage /> },
  { path: '/privacy-policy', element: <PrivacyPolicyPage /> },
  { path: '/terms-of-service', element: <TermsOfServicePage /> },
  { path: '/cookies-policy', element: <CookiesPolicyPage /> },
  { path: '/security', element: <SecurityPage /> },
]);
