/** This remote's pages, the one list of what it serves (format: packages/federation/src/pages.ts). */
import type { RemotePages } from '@yield/federation/pages';

/** The comparison's three lists, fired together as soon as it renders. */
const COMPARISON_DATA = ['/api/sources', '/api/strategies', '/api/baserate'];

export default {
  pages: [
    {
      // The yield comparison home (docs/decisions.md, "Who owns `/`"): mfe_content's landing
      // hero, the comparison, then mfe_content's landing sections.
      path: '/',
      title: 'Global Yield Leaderboard',
      modules: ['mfe_content/LandingHero', './ComparisonSection', 'mfe_content/LandingSections'],
      data: COMPARISON_DATA,
    },
    {
      path: '/options',
      module: './ComparisonPage',
      title: 'Yield Comparison',
      data: COMPARISON_DATA,
    },
    {
      // The yield scanner: DeFiLlama's pools ranked by rapool-v3 (src/features/scanner).
      path: '/scanner',
      module: './ScannerPage',
      title: 'Yield Scanner',
      data: ['/api/baserate'],
    },
    {
      // What following the comparison's top picks paid, month by month (src/features/track-record).
      path: '/track-record',
      module: './TrackRecordPage',
      title: 'Track record',
      data: ['/api/track-record'],
    },
    {
      // One pool of the scanner: its daily APY and TVL history and its current figures.
      path: '/scanner/pool/:pool',
      module: './ScannerPoolPage',
      title: 'Pool history',
    },
  ],
} satisfies RemotePages;
