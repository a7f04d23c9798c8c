/** The status module's public entry: GET /api/health. */
export * from './routes.ts';
export * from './import-health.ts';
