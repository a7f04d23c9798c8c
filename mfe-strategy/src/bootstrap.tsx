// Standalone development: this remote's pages on their own (the shell loads ./exposes/* instead).
import { renderStandalone } from '@yield/platform/standalone';
import StrategyDetailPage from './exposes/StrategyDetailPage.tsx';
import NumericStrategyPage from './exposes/NumericStrategyPage.tsx';

renderStandalone('Strategy pages', [
  { path: '/options/:id', element: <StrategyDetailPage /> },
  { path: '/strategy/:id', element: <NumericStrategyPage /> },
  { path: '/strategy-detail/:id', element: <NumericStrategyPage /> },
]);
