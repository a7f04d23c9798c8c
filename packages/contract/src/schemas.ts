/**
 * zod schemas of every request and response of /api. The API validates what it reads with them,
 * the front ends take their types from them (`z.infer`, see ./types.ts), and /api/openapi.json is
 * generated from them (api/src/modules/docs/openapi.ts). Response objects are strict: a field the API sends
 * that is not declared here fails the contract test (api/test/contract.test.ts).
 *
 * `.meta({ id })` names a schema as an OpenAPI component; `description` is shown in /api/docs.
 */

export * from './modules/common.ts';
export * from './modules/status.ts';
export * from './modules/yields.ts';
export * from './modules/net-yield.ts';
export * from './modules/mailing-list.ts';
export * from './modules/alerts.ts';
export * from './modules/premium.ts';
export * from './modules/scanner.ts';
export * from './modules/remote-errors.ts';
export * from './modules/docs.ts';
