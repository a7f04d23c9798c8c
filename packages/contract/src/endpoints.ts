/**
 * Every path and method /api serves, with the schemas of its parameters, body and each answer.
 * The API registers its routes from these paths, /api/openapi.json is generated from this table,
 * and the contract test calls every entry and checks each answer against its schema.
 */
import type { API_PATHS } from './paths.ts';
import type { EndpointSpec } from './endpoint-spec.ts';
import { statusEndpoints } from './modules/status.ts';
import { yieldsEndpoints } from './modules/yields.ts';
import { netYieldEndpoints } from './modules/net-yield.ts';
import { mailingListEndpoints } from './modules/mailing-list.ts';
import { alertsEndpoints } from './modules/alerts.ts';
import { premiumEndpoints } from './modules/premium.ts';
import { scannerEndpoints } from './modules/scanner.ts';
import { remoteErrorsEndpoints } from './modules/remote-errors.ts';
import { docsEndpoints } from './modules/docs.ts';

export * from './endpoint-spec.ts';

/** The whole table, module by module. */
export const endpoints = {
  ...statusEndpoints,
  ...yieldsEndpoints,
  ...netYieldEndpoints,
  ...mailingListEndpoints,
  ...alertsEndpoints,
  ...premiumEndpoints,
  ...scannerEndpoints,
  ...remoteErrorsEndpoints,
  ...docsEndpoints,
} as const satisfies Record<keyof typeof API_PATHS, EndpointSpec>;

export type EndpointName = keyof typeof endpoints;
