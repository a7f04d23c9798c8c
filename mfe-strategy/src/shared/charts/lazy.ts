import { lazy } from 'react';

/**
 * Chart components load on demand. Each chunk imports the shared Highcharts singleton, which the
 * federation runtime fetches once per page however many charts there are.
 */
export const loadHistoryChart = () => import('./HistoryChart.tsx');
export const loadAllocationPie = () => import('./AllocationPie.tsx');
export const loadLiquidityChart = () => import('./LiquidityChart.tsx');

export const LazyHistoryChart = lazy(loadHistoryChart);
export const LazyAllocationPie = lazy(loadAllocationPie);
export const LazyLiquidityChart = lazy(loadLiquidityChart);

export const loadCompareChart = () => import('./CompareChart.tsx');
export const LazyCompareChart = lazy(loadCompareChart);
