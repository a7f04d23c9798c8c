/**
 * @yield/contract: the /api contract. Schemas (zod) for the API and the contract test, inferred
 * types for everyone, the route table, and the enumerations. Browser code imports only types
 * from here (`import type`) and values from `@yield/contract/constants`, so zod stays out of
 * the front ends' bundles (checked by src/browser-imports.test.ts).
 */
export * from './constants.ts';
export * from './schemas.ts';
export * from './endpoints.ts';
export type * from './types.ts';
