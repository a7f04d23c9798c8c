// Standalone development: this remote's pages on their own (the shell loads ./exposes/* instead).
import { renderStandalone } from '@yield/platform/standalone';
import ComparisonPage from './exposes/ComparisonPage.tsx';
import ComparisonSection from './exposes/ComparisonSection.tsx';

renderStandalone('Leaderboard', [
  { path: '/options', element: <ComparisonPage /> },
  { path: '/', element: <ComparisonSection /> },
]);
