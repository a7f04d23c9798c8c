import type { EndpointSpec } from '@yield/contract';

export const API_PREFIX = '/api';

/**
 * The Koa path (under the /api prefix) of an endpoint of the contract's route table: routes are
 * registered from the same paths /api/openapi.json documents. `{id}` becomes `:id`.
 */
export function routePath(spec: Pick<EndpointSpec, 'path'>): string {
  if (!spec.path.startsWith(`${API_PREFIX}/`)) throw new Error(`${spec.path} is not under /api`);
  return spec.path.slice(API_PREFIX.length).replace(/\{(\w+)\}/g, ':$1');
}
