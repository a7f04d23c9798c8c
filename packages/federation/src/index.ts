export * from './registry.ts';
export * from './shared.ts';
export {
  createAppConfig,
  loadRemotePages,
  type AppConfigOptions,
  type Mode,
} from './create-config.ts';
export * from './pages.ts';
