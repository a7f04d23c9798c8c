/** The mailing list module's public entry: its routes and its store port. */
export * from './schemas.ts';
export * from './store.ts';
export * from './routes.ts';
