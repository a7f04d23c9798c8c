/** Standalone API server for development: `pnpm --filter @yield/api dev` (API_PORT, default 8787). */
import http from 'node:http';
import { answerClientError } from './http/client-error.ts';
import { createApp, createDeps, stopOnStartError } from './index.ts';
import { isMetricsPath, metricsHandler, startMetricsServer } from './metrics.ts';

const port = Number(process.env.API_PORT ?? 8787);
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

/** A positive number of milliseconds from the environment, else `fallback`. */
const ms = (value: string | undefined, fallback: number) => {
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
};
// A client that takes longer to send its headers (10 s) or its whole request (30 s) is answered
// 408 and its connection closed; node's defaults would hold a trickled request for 300 s. The
// JSON body reader has its own, shorter limit (API_BODY_TIMEOUT_MS, 10 s).
const requestTimeout = ms(process.env.REQUEST_TIMEOUT_MS, 30_000);
const headersTimeout = Math.min(ms(process.env.HEADERS_TIMEOUT_MS, 10_000), requestTimeout);
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
