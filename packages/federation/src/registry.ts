/**
 * The one registry of the apps: federation names, folders, development ports, the public path each
 * remote is served under in production, and the pages each remote exposes. Read by the build
 * configs, by the shell at runtime (route table and default remotes manifest) and by the e2e setup.
 */

export const SITE_PORT = 8080;
export const API_DEV_PORT = 8787;
export const SHELL_DEV_PORT = 3000;

export const remoteRegistry = {
  mfe_leaderboard: {
    dir: 'mfe-leaderboard',
    devPort: 3001,
    /** Comparison: the whole yield comparison (title, charts, tables, carousel, disclaimer, newsletter). */
    exposes: ['ComparisonPage', 'ComparisonSection'],
  },
  mfe_strategy: {
    dir: 'mfe-strategy',
    devPort: 3002,
    exposes: ['StrategyDetailPage', 'NumericStrategyPage'],
  },
  mfe_premium: {
    dir: 'mfe-premium',
    devPort: 3003,
    exposes: ['PricingPage', 'TallySuccessPage', 'PremiumStrategyPage', 'PremiumEmailPage'],
  },
  mfe_content: {
    dir: 'mfe-content',
    devPort: 3004,
    exposes: [
      'LandingHero',
      'LandingSections',
      'VaultPage',
      'B2bPage',
      'SourcesOfYieldPage',
      'AdvantagesPage',
      'RisksPage',
      'HowToPage',
      'LearnPage',
      'HelpCenterPage',
      'SubscribePage',
      'ComingSoonPage',
      'MethodologyPage',
      'PrivacyPolicyPage',
      'TermsOfServicePage',
      'CookiesPolicyPage',
      'SecurityPage',
    ],
  },
} as const;

export type RemoteName = keyof typeof remoteRegistry;
export type ExposedModule<R extends RemoteName> = (typeof remoteRegistry)[R]['exposes'][number];
export type AppDir = 'shell' | (typeof remoteRegistry)[RemoteName]['dir'];

export const remoteNames = Object.keys(remoteRegistry) as RemoteName[];

/** Where a remote is served in production, relative to the site origin. */
export function remotePublicPath(name: RemoteName): string {
  return `/remotes/${remoteRegistry[name].dir}/`;
}

export const REMOTE_ENTRY_FILE = 'remoteEntry.js';
/** The remotes manifest the shell reads at runtime, served next to the shell's index.html. */
export const REMOTES_MANIFEST_FILE = 'remotes.json';

export type RemotesManifest = Record<RemoteName, string>;

/** Default manifest: every remote from the same origin as the shell. */
export function productionRemotesManifest(): RemotesManifest {
  return Object.fromEntries(
    remoteNames.map((name) => [name, `${remotePublicPath(name)}${REMOTE_ENTRY_FILE}`]),
  ) as RemotesManifest;
}

/** Development manifest: every remote from its own dev server (hot reload). */
export function developmentRemotesManifest(host = 'localhost'): RemotesManifest {
  return Object.fromEntries(
    remoteNames.map((name) => [
      name,
      `http://${host}:${remoteRegistry[name].devPort}/${REMOTE_ENTRY_FILE}`,
    ]),
  ) as RemotesManifest;
}

export function remoteByDir(dir: string): RemoteName | undefined {
  return remoteNames.find((name) => remoteRegistry[name].dir === dir);
}
