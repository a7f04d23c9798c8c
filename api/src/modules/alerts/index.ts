/** The alerts module's public entry: subscriptions, their evaluation and e-mails, the routes, the store port. */
export * from './schemas.ts';
export * from './store.ts';
export * from './evaluate.ts';
export * from './routes.ts';
export * from './mailer.ts';
export * from './pg-outbox.ts';
