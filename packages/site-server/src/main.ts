import path from 'node:path';
import {
  cachedBody,
  createApp,
  createDeps,
  loadConfig,
  metricsHandler,
  settingsBody,
  startMetricsServer,
  stopOnStartError,
  type Config,
} from '@yield/api';
import { isRemoteName } from '@yield/federation/registry';
import { openReleaseStore } from './releases/open-store.ts';
import type { ReleasesSource } from './releases/types.ts';
import { createSiteServer } from './site-server.ts';

const rootDir = path.resolve(import.meta.dirname, '../../..');

// Every variable of this process (its own and the API's) is checked before anything is opened:
// the start stops with the list of the malformed ones (api/src/platform/config.ts, docs/api.md).
let config: Config;
try {
  config = loadConfig(process.env, ['site-server', 'api']);
} catch (err) {
  stopOnStartError(err);
}
const port = config.PORT;

/**
 * The remotes' releases this process serves, started before it listens: each remote's first
 * release is made from its build when it has none (docs/deploy.md, "Releasing a remote"). The
 * store is the server's own: the data directory on one machine, PostgreSQL with DATABASE_URL.
 */
async function startReleases(): Promise<ReleasesSource> {
  const source = await openReleaseStore({
    rootDir,
    dataDir: config.DATA_DIR,
    databaseUrl: config.DATABASE_URL,
  });
  await source.start();
  return source;
}

const releases = await startReleases().catch(stopOnStartError);
const deps = await createDeps({
  // Browsers' error reports of a release count towards its canary's automatic rollback.
  remoteErrors: {
    report: (remote, release, visitor) =>
      release && isRemoteName(remote) ? releases.reportError(remote, release, visitor) : undefined,
  },
}).catch(stopOnStartError);
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
  remotesManifestPath: config.REMOTES_MANIFEST,
  // SITE_RESOURCE_HINTS=0 turns the preload hints off (to measure what they are worth).
  resourceHints: config.SITE_RESOURCE_HINTS,
  // SITE_FIRST_PAINT=0 sends pages without their server-rendered first paint.
  settings: config.SITE_FIRST_PAINT ? () => settingsBody(deps) : undefined,
  // SITE_FIRST_PAINT_DATA=0 paints those pages without their data (to measure what it is worth).
  data: config.SITE_FIRST_PAINT_DATA ? (path) => cachedBody(deps, path) : undefined,
  // HEADERS_TIMEOUT_MS / REQUEST_TIMEOUT_MS: time a client has for its headers (10 s) and its
  // whole request (30 s); SITE_MAX_RENDERS: first paints rendered at once (4);
  // SITE_RENDER_BUDGET_MS: milliseconds per second spent rendering them at most (200).
  headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
  requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
  maxConcurrentRenders: config.SITE_MAX_RENDERS,
  renderBudgetMs: config.SITE_RENDER_BUDGET_MS,
  releases,
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
  server.close(
    () => void Promise.all([deps.close(), releases?.close()]).finally(() => process.exit(0)),
  );
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
