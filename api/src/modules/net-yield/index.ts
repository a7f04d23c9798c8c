/** The net-yield module's public entry: GET /api/net-yield and its ranking, and costs.json (the costs the import reads from the chain). */
export * from './schemas.ts';
export * from './answer.ts';
export * from './routes.ts';
