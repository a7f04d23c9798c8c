/** Server markup of this remote's pages for the first paint (built to dist/server/render.cjs). */
import { createModuleRenderer } from '@yield/platform/server';
import AdvantagesPage from './exposes/AdvantagesPage.tsx';
import B2bPage from './exposes/B2bPage.tsx';
import ComingSoonPage from './exposes/ComingSoonPage.tsx';
import CookiesPolicyPage from './exposes/CookiesPolicyPage.tsx';
import HelpCenterPage from './exposes/HelpCenterPage.tsx';
import HowToPage from './exposes/HowToPage.tsx';
import LandingHero from './exposes/LandingHero.tsx';
import LearnPage from './exposes/LearnPage.tsx';
import MethodologyPage from './exposes/MethodologyPage.tsx';
import PrivacyPolicyPage from './exposes/PrivacyPolicyPage.tsx';
import RisksPage from './exposes/RisksPage.tsx';
import SecurityPage from './exposes/SecurityPage.tsx';
import SourcesOfYieldPage from './exposes/SourcesOfYieldPage.tsx';
import SubscribePage from './exposes/SubscribePage.tsx';
import TermsOfServicePage from './exposes/TermsOfServicePage.tsx';
import VaultPage from './exposes/VaultPage.tsx';

/** Every page that can open a route (the landing sections never do: they sit under the comparison). */
export const render = createModuleRenderer({
  AdvantagesPage,
  B2bPage,
  ComingSoonPage,
  CookiesPolicyPage,
  HelpCenterPage,
  HowToPage,
  LandingHero,
  LearnPage,
  MethodologyPage,
  PrivacyPolicyPage,
  RisksPage,
  SecurityPage,
  SourcesOfYieldPage,
  SubscribePage,
  TermsOfServicePage,
  VaultPage,
});
