/** Standalone API server for development: `pnpm --filter @yield/api dev` (API_PORT, default 8787). */
import http from 'node:http';
import { createApp, createDeps } from './index.ts';

const port = Number(process.env.API_PORT ?? 8787);
const deps = await createDeps();
const app = createApp(deps);
const handler = app.callback();
const server = http.createServer(handler);

server.listen(port, () => {
  deps.logger.info('api listening', {
    url: `http://localhost:${port}/api`,
    dataDir: deps.store.dir,
  });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close();
    void deps.close().then(() => process.exit(0));
  });
}
