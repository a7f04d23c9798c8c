/** Server markup of this remote's modules for the first paint (built to dist/server/render.cjs). */
import { createModuleRenderer } from '@yield/platform/server';
import LandingHero from './exposes/LandingHero.tsx';

/** The landing hero is the largest paint of `/`: it paints from the HTML. */
export const render = createModuleRenderer({ LandingHero });
