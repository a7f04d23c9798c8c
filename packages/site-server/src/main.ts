import path from 'node:path';
import {
  cachedBody,
  createApp,
  createDeps,
  metricsHandler,
  settingsBody,
  startMetricsServer,
  stopOnStartError,
} from '@yield/api';
import { SITE_PORT } from '@yield/federation/registry';
import { createSiteServer } from './site-server.ts';

const rootDir = path.resolve(import.meta.dirname, '../../..');
const port = Number(process.env.PORT ?? SITE_PORT);

/** A positive number from the environment, else undefined (the server's default). */
function positive(value: string | undefined): number | undefined {
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : undefined;
}

const deps = await createDeps().catch(stopOnStartError);
const api = createApp(deps);
const server = createSiteServer({
  rootDir,
  apiHandler: api.callback(),
  // /metrics on this port only with METRICS_TOKEN as bearer token (404 without one); on
  // METRICS_PORT (127.0.0.1 unless METRICS_HOST says otherwise) it has a server of its own.
  metricsHandler: metricsHandler(deps.metrics, {
    token: deps.metricsEndpoint.token,
    requireToken: true,
  }),
  remotesManifestPath: process.env.REMOTES_MANIFEST
    ? path.resolve(process.env.REMOTES_MANIFEST)
    : undefined,
  // SITE_RESOURCE_HINTS=0 turns the preload hints off (to measure what they are worth).
  resourceHints: process.env.SITE_RESOURCE_HINTS !== '0',
  // SITE_FIRST_PAINT=0 sends pages without their server-rendered first paint.
  settings: process.env.SITE_FIRST_PAINT === '0' ? undefined : () => settingsBody(deps),
  // SITE_FIRST_PAINT_DATA=0 paints those pages without their data (to measure what it is worth).
  data: process.env.SITE_FIRST_PAINT_DATA === '0' ? undefined : (path) => cachedBody(deps, path),
  // HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS: time a client has for its headers (10 s) and its
  // whole request (30 s); SITE_MAX_RENDERS: first paints rendered at once (4);
  // SITE_RENDER_BUDGET_MS: milliseconds per second spent rendering them at most (200).
  headersTimeoutMs: positive(process.env.HEADERS_TIMEOUT_MS),
  requestTimeoutMs: positive(process.env.REQUEST_TIMEOUT_MS),
  maxConcurrentRenders: positive(process.env.SITE_MAX_RENDERS),
  renderBudgetMs: positive(process.env.SITE_RENDER_BUDGET_MS),
});

const { port: metricsPort, host: metricsHost, token } = deps.metricsEndpoint;
const metricsServer =
  metricsPort === null
    ? null
    : await startMetricsServer(deps.metrics, { port: metricsPort, host: metricsHost, token }).catch(
        stopOnStartError,
      );

server.listen(port, () => {
  console.log(`Site running on http://localhost:${port} (API at /api)`);
  if (metricsServer) console.log(`Metrics on http://${metricsHost}:${metricsPort}/metrics`);
});

// deps.close() folds the journal of sign-ups into the JSON files operators read.
const shutdown = () => {
  metricsServer?.close();
  server.close(() => void deps.close().finally(() => process.exit(0)));
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
