/** The premium module's public entry: its routes, bearer check, tokens and store port. */
export * from './schemas.ts';
export * from './store.ts';
export * from './tokens.ts';
export * from './bearer.ts';
export * from './routes.ts';
