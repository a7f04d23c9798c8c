/**
 * `GET /api/health`: each data file's state, each feed's last import, stale series, the user data,
 * and with DATABASE_URL the published data (versions served, local files that differ).
 */
import Router from '@koa/router';
import { endpoints, METHOD_VERSION, type HealthReport } from '@yield/contract';
import { binder, type BindHost } from '../../platform/http/bind.ts';
import type { FileStatus } from '../../platform/files/data-store.ts';
import type { StoreHealth } from '../../platform/store-health.ts';
import type { PricesFile, Snapshot } from '../yields/index.ts';
import { importHealth, stalePrices, staleSeries, type ImportHealthDeps } from './import-health.ts';

/** What GET /api/health reads: the files' states, the read model, the user data, published data. */
export interface StatusDeps extends BindHost<unknown>, ImportHealthDeps {
  store: ImportHealthDeps['store'] & {
    status(): Record<string, FileStatus>;
    get(key: 'prices'): PricesFile | null;
  };
  snapshot(): Snapshot;
  now(): Date;
  userData: Pick<StoreHealth, 'health'>;
  published?: { health(): NonNullable<HealthReport['published']> } | null;
  version: string;
}

export function statusRouter(deps: StatusDeps): Router {
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
