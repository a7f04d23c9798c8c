/** Standalone API server for development: `pnpm --filter @yield/api dev` (API_PORT, default 8787). */
import http from 'node:http';
import { loadConfig, type Config } from './platform/config.ts';
import { answerClientError } from './platform/http/client-error.ts';
import { createApp, createDeps, stopOnStartError } from './index.ts';
import { isMetricsPath, metricsHandler, startMetricsServer } from './platform/metrics.ts';

// Every variable of this process (its own and the API's) is checked before anything is opened:
// the start stops with the list of the malformed ones.
let config: Config;
try {
  config = loadConfig(process.env, ['api-server', 'api']);
} catch (err) {
  stopOnStartError(err);
}
const port = config.API_PORT;
const deps = await createDeps().catch(stopOnStartError);
const app = createApp(deps);
const apiHandler = app.callback();
// /metrics on this port only with METRICS_TOKEN as bearer token (404 without one); METRICS_PORT
// gives it a server of its own (127.0.0.1 unless METRICS_HOST says otherwise).
const { port: metricsPort, host: metricsHost, token } = deps.metricsEndpoint;
const metrics = metricsHandler(deps.metrics, { token, requireToken: true });
const handler: http.RequestListener = (req, res) =>
  isMetricsPath(req.url) ? metrics(req, res) : void apiHandler(req, res);
const metricsServer =
  metricsPort === null
    ? null
    : await startMetricsServer(deps.metrics, { port: metricsPort, host: metricsHost, token }).catch(
        stopOnStartError,
      );

// A client that takes longer to send its headers (10 s) or its whole request (30 s) is answered
// 408 and its connection closed; node's defaults would hold a trickled request for 300 s. The
// JSON body reader has its own, shorter limit (API_BODY_TIMEOUT_MS, 10 s).
const requestTimeout = config.REQUEST_TIMEOUT_MS;
const headersTimeout = Math.min(config.HEADERS_TIMEOUT_MS, requestTimeout);
const server = http.createServer(
  {
    headersTimeout,
    requestTimeout,
    // How often those timeouts are checked (node's default is every 30 s).
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
  },
  handler,
);

server.on('clientError', answerClientError);

server.listen(port, () => {
  deps.logger.info('api listening', {
    url: `http://localhost:${port}/api`,
    dataDir: deps.store.dir,
    ...(metricsServer ? { metrics: `http://${metricsHost}:${metricsPort}/metrics` } : {}),
  });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close();
    metricsServer?.close();
    void deps.close().then(() => process.exit(0));
  });
}
