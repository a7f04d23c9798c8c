/** The docs module's public entry: GET /api/openapi.json and /api/docs. */
export * from './routes.ts';
