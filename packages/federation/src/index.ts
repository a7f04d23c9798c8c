export * from './registry.ts';
export * from './shared.ts';
export { createAppConfig, type AppConfigOptions, type Mode } from './create-config.ts';
export * from './routes.ts';
