import { lazy } from 'react';

/**
 * Chart components load on demand. Each chunk imports the shared Highcharts singleton, which the
 * federation runtime fetches once per page however many charts there are.
 */
export const LazyHistoryChart = lazy(() => import('./HistoryChart.tsx'));
export const LazyAllocationPie = lazy(() => import('./AllocationPie.tsx'));
export const LazyLiquidityChart = lazy(() => import('./LiquidityChart.tsx'));
