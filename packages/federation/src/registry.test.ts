import path from 'node:path';
import {
  developmentRemotesManifest,
  productionRemotesManifest,
  remoteNames,
  remoteRegistry,
} from './registry.ts';
import { sharedConfig } from './shared.ts';
import { createAppConfig } from './create-config.ts';

describe('remote registry', () => {
  it('names every remote with a JS identifier (federation requires it)', () => {
    for (const name of remoteNames) expect(name).toMatch(/^[A-Za-z_$][\w$]*$/);
  });

  it('serves every remote from the same origin in production and from its dev port in development', () => {
    expect(productionRemotesManifest()).toEqual({
      mfe_leaderboard: '/remotes/mfe-leaderboard/remoteEntry.js',
      mfe_strategy: '/remotes/mfe-strategy/remoteEntry.js',
      mfe_premium: '/remotes/mfe-premium/remoteEntry.js',
      mfe_content: '/remotes/mfe-content/remoteEntry.js',
    });
    expect(developmentRemotesManifest().mfe_content).toBe(
      `http://localhost:${remoteRegistry.mfe_content.devPort}/remoteEntry.js`,
    );
    const ports = remoteNames.map((name) => remoteRegistry[name].devPort);
    expect(new Set(ports).size).toBe(ports.length);
  });
});

describe('shared singletons', () => {
  it('shares react and its subpaths, the router, jotai, query and highcharts as singletons', () => {
    const shared = sharedConfig();
    for (const name of [
      'react',
      'react-dom',
      'react-dom/client',
      'react/jsx-runtime',
      'react-router',
      'react-router-dom',
      'jotai',
      '@tanstack/react-query',
      '@yield/platform',
      'highcharts',
      'highcharts-react-official',
    ]) {
      expect(shared[name]).toMatchObject({ singleton: true });
    }
    expect(shared.antd).toBeUndefined();
  });
});

describe('createAppConfig', () => {
  it('exposes every registered page of a remote from src/exposes', () => {
    const root = path.resolve('/tmp/mfe-content');
    const config = createAppConfig({ app: 'mfe-content', root, mode: 'production' });
    const federation = config.plugins?.find(
      (plugin) => plugin?.constructor?.name === 'ModuleFederationPlugin',
    ) as unknown as {
      _options: {
        name: string;
        exposes: Record<string, string>;
        shareStrategy: string;
        dts: boolean;
      };
    };
    expect(federation._options.name).toBe('mfe_content');
    expect(federation._options.exposes['./RisksPage']).toBe('./src/exposes/RisksPage.tsx');
    expect(Object.keys(federation._options.exposes)).toHaveLength(
      remoteRegistry.mfe_content.exposes.length,
    );
    expect(federation._options.shareStrategy).toBe('loaded-first');
    expect(federation._options.dts).toBe(false);
    expect(config.output?.publicPath).toBe('auto');
  });

  it('builds the shell as a host with hashed, immutable-cacheable file names', () => {
    const config = createAppConfig({ app: 'shell', root: '/tmp/shell', mode: 'production' });
    expect(config.output?.publicPath).toBe('/');
    expect(config.output?.filename).toBe('[name].[contenthash:8].js');
  });
});
