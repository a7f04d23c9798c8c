import type { ViteUserConfig } from 'vitest/config';

/** The shell's and the remotes' test configuration (vitest.apps.js). */
declare const config: ViteUserConfig;
export default config;
