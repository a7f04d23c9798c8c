/** The browser error reports module's public entry: POST /api/remote-errors and its sink port. */
export * from './routes.ts';
