/** Server markup of this remote's modules for the first paint (built to dist/server/render.cjs). */
import { createModuleRenderer } from '@yield/platform/server';
import ComparePage from './exposes/ComparePage.tsx';
import StrategyDetailPage from './exposes/StrategyDetailPage.tsx';

/**
 * Both pages paint from the HTML with their first data (the strategy's content; the comparison's
 * lists), which the site server reads from the API in its own process and embeds for the browser.
 * The strategy page's markup is hydrated by the browser (adopted, not rendered again).
 */
export const render = createModuleRenderer({}, { StrategyDetailPage, ComparePage });
render.hydrate = ['StrategyDetailPage'];
