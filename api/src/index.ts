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
  stopOnStartError,
  DEFAULT_DATA_DIR,
  DEFAULT_RATE_LIMIT,
  type AppDeps,
  type CreateDepsOptions,
} from './composition/deps.ts';
export { consoleLogger, createLogger, silentLogger, type Logger } from './platform/logger.ts';
export { loadConfig, ConfigError, type Config } from './platform/config.ts';
export { Metrics, metricsHandler, isMetricsPath, startMetricsServer } from './platform/metrics.ts';
export { answerClientError } from './platform/http/client-error.ts';
export { methodRefusal, KNOWN_METHODS } from './platform/http/errors.ts';
export type { UserDataStore } from './composition/user-data.ts';
export { isInstallationFile } from './composition/data-files.ts';
export { migrate } from './platform/pg/migrate.ts';
export * as engine from './engine/index.ts';

import type { AppDeps } from './composition/deps.ts';
import { API_PATHS } from '@yield/contract/constants';
import { cachedBodyKey } from './modules/yields/fast-path.ts';

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
  const key = cachedBodyKey(path);
  return key === undefined ? undefined : deps.snapshot().bodies.get(key);
}
