/**
 * Public interface of @yield/api.
 *
 *   const deps = await createDeps();          // opens the data dir (DATA_DIR or api/data)
 *   const app = createApp(deps);              // Koa app, handles /api/* itself
 *   http.createServer(app.callback());
 *   await deps.close();                       // stops watching the data files
 */
export { createApp, API_PREFIX } from './app.ts';
export {
  createDeps,
  DEFAULT_DATA_DIR,
  DEFAULT_RATE_LIMIT,
  type AppDeps,
  type CreateDepsOptions,
} from './deps.ts';
export { consoleLogger, silentLogger, type Logger } from './logger.ts';
export type { UserDataStore } from './data/user-data.ts';
export * as engine from './engine/index.ts';

import type { AppDeps } from './deps.ts';
import { API_PATHS } from '@yield/contract/constants';
import { bodyKey } from './data/snapshot.ts';

/** The body `GET /api/settings` answers with right now (JSON bytes and ETag), if it can. */
export function settingsBody(deps: AppDeps): { body: Buffer; etag: string } | undefined {
  return cachedBody(deps, API_PATHS.settings);
}

/**
 * The body a plain GET (no query string) answers with right now, for the answers the API keeps
 * ready (settings, sources, strategies, base rates, a strategy's content); undefined otherwise.
 */
export function cachedBody(
  deps: AppDeps,
  path: string,
): { body: Buffer; etag: string } | undefined {
  const bodies = deps.snapshot().bodies;
  if (path === API_PATHS.settings) return bodies.get(bodyKey.settings);
  if (path === API_PATHS.sources) return bodies.get(bodyKey.sources);
  if (path === API_PATHS.strategies) return bodies.get(bodyKey.strategies);
  if (path === API_PATHS.baseRates) return bodies.get(bodyKey.baserate);
  const contentPrefix = API_PATHS.strategyContent.replace('{slug}', '');
  if (path.startsWith(contentPrefix)) {
    return bodies.get(bodyKey.content(decodeURIComponent(path.slice(contentPrefix.length))));
  }
  return undefined;
}
