/** Server markup of this remote's modules for the first paint (built to dist/server/render.cjs). */
import { createModuleRenderer } from '@yield/platform/server';
import ComparisonPage from './exposes/ComparisonPage.tsx';

/** The comparison's title block is the largest paint of `/options`: it paints from the HTML. */
export const render = createModuleRenderer({ ComparisonPage });
