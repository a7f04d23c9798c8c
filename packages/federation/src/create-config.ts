import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { rspack, type Compiler, type Configuration } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { ReactRefreshRspackPlugin } from '@rspack/plugin-react-refresh';
import {
  API_DEV_PORT,
  REMOTE_ENTRY_FILE,
  PAGES_FILE,
  REMOTES_MANIFEST_FILE,
  SHELL_DEV_PORT,
  developmentRemotesManifest,
  productionRemotesManifest,
  remoteByDir,
  remoteRegistry,
  type AppDir,
} from './registry.ts';
import { sharedConfig } from './shared.ts';
import { exposedModules, pagesDocument, parsePages, type RemotePages } from './pages.ts';

export type Mode = 'development' | 'production';

export interface AppConfigOptions {
  /** The app's folder name at the workspace top level: shell, mfe-content, ... */
  app: AppDir;
  /** Absolute path of the app folder. */
  root: string;
  mode: Mode;
  /** Where the build goes (default `<root>/dist`): a team builds a release into any folder. */
  outDir?: string;
}

const RESOLVE: Configuration['resolve'] = {
  extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
  extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
};

/**
 * Module rules shared by the browser and the server builds, so both compile the same sources the
 * same way (and give CSS modules the same class names).
 */
function moduleRules(isDev: boolean): NonNullable<Configuration['module']>['rules'] {
  const swcLoader = (tsx: boolean) => ({
    loader: 'builtin:swc-loader',
    options: {
      jsc: {
        parser: { syntax: 'typescript', tsx },
        transform: { react: { runtime: 'automatic', development: isDev, refresh: isDev } },
        target: 'es2022',
      },
    },
  });
  return [
    { test: /\.tsx$/, exclude: /node_modules/, use: swcLoader(true) },
    { test: /\.ts$/, exclude: /node_modules/, use: swcLoader(false) },
    { test: /\.css$/, type: 'css/auto' },
    { test: /\.(svg|png|jpe?g|webp|woff2?)$/, type: 'asset' },
  ];
}

/** Where a remote declares its pages (see pages.ts). */
export const PAGES_SOURCE = path.join('src', 'pages.ts');

/**
 * Reads and checks a remote's `src/pages.ts`: the document it builds into `pages.json` must be
 * one the shell and the site server accept, and every module it exposes must have its
 * `src/exposes/<Name>.tsx`. A mistake fails the build instead of reaching the site.
 */
export async function loadRemotePages(
  root: string,
  remote: string,
): Promise<{ pages: RemotePages; exposes: Record<string, string> }> {
  const file = path.join(root, PAGES_SOURCE);
  const { default: pages } = (await import(pathToFileURL(file).href)) as { default: RemotePages };
  try {
    parsePages(pagesDocument(pages), remote);
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`, { cause: error });
  }
  const exposes: Record<string, string> = {};
  for (const name of exposedModules(pages)) {
    const source = `./src/exposes/${name}.tsx`;
    if (!fs.existsSync(path.join(root, source))) {
      throw new Error(`${file} names ./${name}, but ${source} does not exist`);
    }
    exposes[`./${name}`] = source;
  }
  return { pages, exposes };
}

/** Emits one JSON file into the build's output. */
function emitJson(name: string, body: () => unknown) {
  return {
    apply(compiler: Compiler) {
      compiler.hooks.thisCompilation.tap(name, (compilation) => {
        compilation.hooks.processAssets.tap(
          { name, stage: rspack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
          () => {
            const json = JSON.stringify(body(), null, 2) + '\n';
            compilation.emitAsset(name, new rspack.sources.RawSource(json));
          },
        );
      });
    },
  };
}

/**
 * Builds the Rspack configuration of one app (host or remote). A remote's exposed modules come
 * from its `src/pages.ts`, and its build writes `pages.json` beside `remoteEntry.js`.
 */
export async function createAppConfig({
  app,
  root,
  mode,
  outDir,
}: AppConfigOptions): Promise<Configuration> {
  const isDev = mode === 'development';
  const remote = app === 'shell' ? undefined : remoteByDir(app);
  if (app !== 'shell' && !remote) throw new Error(`Unknown app folder: ${app}`);
  const port = remote ? remoteRegistry[remote].devPort : SHELL_DEV_PORT;

  const declared = remote ? await loadRemotePages(root, remote) : undefined;

  const federation = new ModuleFederationPlugin({
    name: remote ?? 'shell',
    ...(remote ? { filename: REMOTE_ENTRY_FILE, exposes: declared!.exposes } : { remotes: {} }),
    shared: sharedConfig(root),
    shareStrategy: 'loaded-first',
    dts: false,
    manifest: true,
    experiments: {
      // In production the remotes reuse the shell's federation runtime instead of each shipping
      // their own copy (~30 KB gzip per remote). In development a remote also runs standalone,
      // so it keeps its own runtime there.
      ...(remote ? { externalRuntime: !isDev } : { provideExternalRuntime: true }),
      // We load remotes by remoteEntry.js URL, never by manifest snapshot.
      optimization: { disableSnapshot: true, target: 'web' },
    },
  });

  const plugins: NonNullable<Configuration['plugins']> = [
    federation,
    new rspack.HtmlRspackPlugin({
      template: path.join(root, 'public/index.html'),
      // The remote's own page is its standalone development harness; the site serves the shell's.
      minify: !isDev,
    }),
  ];
  if (!remote && !isDev) {
    // The runtime remotes manifest ships next to index.html; operators may edit or replace it.
    plugins.push(emitJson(REMOTES_MANIFEST_FILE, productionRemotesManifest));
  }
  // The remote's pages, beside its remoteEntry.js (in development too: the shell reads them there).
  if (declared) plugins.push(emitJson(PAGES_FILE, () => pagesDocument(declared.pages)));
  if (isDev) plugins.push(new ReactRefreshRspackPlugin());

  return {
    name: app,
    context: root,
    mode,
    target: 'web',
    devtool: isDev
      ? 'eval-cheap-module-source-map'
      : process.env.PROFILE_MAPS
        ? 'source-map'
        : false,
    entry: { main: './src/index.ts' },
    output: {
      path: outDir ?? path.join(root, 'dist'),
      // Remotes resolve their chunks relative to wherever their remoteEntry.js was loaded from.
      publicPath: remote ? 'auto' : '/',
      uniqueName: remote ?? 'shell',
      filename: isDev ? '[name].js' : '[name].[contenthash:8].js',
      chunkFilename: isDev ? '[name].js' : '[name].[contenthash:8].js',
      cssFilename: isDev ? '[name].css' : '[name].[contenthash:8].css',
      cssChunkFilename: isDev ? '[name].css' : '[name].[contenthash:8].css',
      assetModuleFilename: isDev ? '[name][ext]' : '[name].[contenthash:8][ext]',
      clean: true,
    },
    resolve: RESOLVE,
    module: {
      // `import styles from './x.module.css'` (default export of class names).
      parser: { 'css/auto': { namedExports: false } },
      rules: moduleRules(isDev),
    },
    plugins,
    optimization: isDev ? {} : { minimize: true, moduleIds: 'deterministic' },
    performance: { hints: false },
    stats: 'errors-warnings',
    devServer: {
      port,
      hot: true,
      historyApiFallback: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      client: { overlay: { errors: true, warnings: false } },
      proxy: [{ context: ['/api'], target: `http://localhost:${API_DEV_PORT}` }],
      setupMiddlewares: (middlewares) => {
        if (!remote) {
          middlewares.unshift({
            name: 'remotes-manifest',
            path: `/${REMOTES_MANIFEST_FILE}`,
            middleware: (
              _req: unknown,
              res: { setHeader(k: string, v: string): void; end(body: string): void },
            ) => {
              res.setHeader('Content-Type', 'application/json');
              res.end(JSON.stringify(developmentRemotesManifest()));
            },
          });
        }
        return middlewares;
      },
    },
  } as Configuration;
}

/** The app's server renderer source, when it has one (see @yield/platform first-paint). */
export function serverEntry(root: string): string | null {
  const file = path.join(root, 'src', 'server.tsx');
  return fs.existsSync(file) ? file : null;
}

/**
 * The app's server renderer: `src/server.tsx` bundled for Node into `dist/server/render.cjs`.
 * It compiles the same modules with the same CSS-module names as the browser build, so its
 * markup matches what the browser renders.
 */
export function createServerConfig({
  app,
  root,
  outDir,
}: Omit<AppConfigOptions, 'mode'>): Configuration {
  const remote = app === 'shell' ? undefined : remoteByDir(app);
  const remotesLoader = path.join(root, 'src', 'remotes', 'registry.ts');
  return {
    name: `${app}-server`,
    context: root,
    mode: 'production',
    target: 'node20',
    devtool: false,
    entry: { render: './src/server.tsx' },
    output: {
      path: path.join(outDir ?? path.join(root, 'dist'), 'server'),
      uniqueName: remote ?? 'shell',
      filename: 'render.cjs',
      library: { type: 'commonjs2' },
      // One file: the site server reloads it whole when a new build replaces it.
      asyncChunks: false,
      clean: true,
    },
    resolve: {
      ...RESOLVE,
      // The shell's loader of remotes has a server twin that never loads anything.
      alias: remote ? {} : { [remotesLoader]: remotesLoader.replace(/\.ts$/, '.server.ts') },
    },
    module: {
      parser: { 'css/auto': { namedExports: false } },
      // Class names only: the stylesheets themselves come from the browser build.
      generator: { 'css/auto': { exportsOnly: true } },
      rules: moduleRules(false),
    },
    optimization: { minimize: false, moduleIds: 'deterministic', splitChunks: false },
    performance: { hints: false },
    stats: 'errors-warnings',
  } as Configuration;
}
