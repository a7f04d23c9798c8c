/**
 * The one list of shared singletons, used by all five apps. Every subpath that is imported must
 * be listed, or it is downloaded a second time. antd is deliberately NOT shared: shared, it ships
 * whole (436 KB gzip); unshared, each remote tree-shakes it to the few components it uses.
 */
export const sharedSingletons = [
  'react',
  'react-dom',
  'react-dom/client',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
  'react-router',
  'react-router-dom',
  'jotai',
  'jotai/utils',
  '@tanstack/react-query',
  '@yield/platform',
  'highcharts',
  'highcharts-react-official',
] as const;

export type SharedConfig = Record<
  string,
  { singleton: true; requiredVersion: false; strictVersion: false }
>;

export function sharedConfig(): SharedConfig {
  return Object.fromEntries(
    sharedSingletons.map((name) => [
      name,
      { singleton: true, requiredVersion: false, strictVersion: false },
    ]),
  ) as SharedConfig;
}
