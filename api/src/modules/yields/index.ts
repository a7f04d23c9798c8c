/** The yields module's public entry: the read model (snapshot), the yield files' schemas, provenance, the public GETs and their fast path, the answers of past days. */
export * from './schemas.ts';
export * from './snapshot.ts';
export * from './provenance.ts';
export * from './routes.ts';
export * from './fast-path.ts';
export * from './as-of-service.ts';
