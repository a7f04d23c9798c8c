/** Server markup of this remote's modules for the first paint (built to dist/server/render.cjs). */
import { createModuleRenderer } from '@yield/platform/server';
import ComparisonPage from './exposes/ComparisonPage.tsx';
import ScannerPage from './exposes/ScannerPage.tsx';
import TrackRecordPage from './exposes/TrackRecordPage.tsx';

/**
 * The comparison's title block is the largest paint of `/options`, the scanner's description that
 * of `/scanner`, the explanation that of `/track-record`: all paint from the HTML (their lists
 * load in the browser).
 */
export const render = createModuleRenderer({ ComparisonPage, ScannerPage, TrackRecordPage });
