/** Server markup of this remote's modules for the first paint (built to dist/server/render.cjs). */
import { createModuleRenderer } from '@yield/platform/server';
import ComparePage from './exposes/ComparePage.tsx';

/**
 * /compare paints from the HTML with its first data (the comparison's lists), which the site
 * server reads from the API in its own process and embeds for the browser. A strategy's page
 * painted the same way reached the phone goal's LCP but cost desktop its 100 (TBT 76 -> 844 ms,
 * docs/performance.md): it is sent as before until that is solved.
 */
export const render = createModuleRenderer({}, { ComparePage });
