import { lazy } from 'react';

/** Highcharts arrives only with this chunk, after the page's text is on screen. */
export const LazyPerformanceChart = lazy(() => import('./PerformanceChart.tsx'));
