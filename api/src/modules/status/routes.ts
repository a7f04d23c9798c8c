/**
 * `GET /api/health`: each data file's state, each feed's last import, stale series, the user data,
 * and with DATABASE_URL the published data (versions served, local files that differ).
 */
import Router from '@koa/router';
import { endpoints, METHOD_VERSION, type HealthReport } from '@yield/contract';
import type { AppDeps } from '../../deps.ts';
import { binder } from '../../platform/http/bind.ts';
import { importHealth, stalePrices, staleSeries } from './import-health.ts';

export function statusRouter(deps: AppDeps): Router {
  const router = new Router();
  const bind = binder(router, deps);

  bind(endpoints.health).to(async () => {
    const files = deps.store.status();
    const snap = deps.snapshot();
    const dataImport = importHealth(deps);
    const stale = [...staleSeries(snap), ...stalePrices(deps.store.get('prices'), deps.now())];
    const userData = await deps.userData.health();
    const published = deps.published?.health();
    const degraded =
      Object.values(files).some((f) => f.error !== null || !f.loaded) ||
      dataImport.lastRun?.ok === false ||
      stale.length > 0 ||
      !userData.available ||
      published?.available === false;
    const report: HealthReport = {
      status: degraded ? 'degraded' : 'ok',
      version: deps.version,
      files,
      method: METHOD_VERSION,
      dataBuiltAt: snap.builtAt,
      import: dataImport,
      stale,
      userData,
      ...(published ? { published } : {}),
    };
    return { status: 200, body: report, headers: { 'Cache-Control': 'no-store' } };
  });

  return router;
}
