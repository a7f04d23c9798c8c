/** This remote's pages, the one list of what it serves (format: packages/federation/src/pages.ts). */
import type { RemotePages } from '@yield/federation/pages';

export default {
  pages: [
    {
      path: '/options/:id',
      module: './StrategyDetailPage',
      title: 'Strategy',
      data: ['/api/strategy-content/:id'],
    },
    { path: '/strategy/:id', module: './NumericStrategyPage', title: 'Strategy' },
    {
      // Two or three sources side by side; the ids are in the query (?ids=3,2,13).
      path: '/compare',
      module: './ComparePage',
      title: 'Compare',
      data: ['/api/sources', '/api/strategies', '/api/baserate'],
    },
    // An alias of /strategy/:id (the slim header names its prefix).
    { path: '/strategy-detail/:id', module: './NumericStrategyPage', title: 'Strategy' },
  ],
} satisfies RemotePages;
