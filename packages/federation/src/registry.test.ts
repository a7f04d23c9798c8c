import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  developmentRemotesManifest,
  productionRemotesManifest,
  remoteNames,
  remoteRegistry,
} from './registry.ts';
import { sharedConfig } from './shared.ts';
import { createAppConfig } from './create-config.ts';

const workspace = path.resolve(import.meta.dirname, '../../..');

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
    const shared = sharedConfig(path.join(workspace, 'shell'));
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

  it("requires the major version each app is built with, from the package's own package.json", () => {
    const read = (file: string) =>
      (JSON.parse(fs.readFileSync(path.join(workspace, file), 'utf8')) as { version: string })
        .version;
    const shared = sharedConfig(path.join(workspace, 'mfe-content'));
    const platform = read('packages/platform/package.json');
    expect(shared['@yield/platform']).toEqual({
      singleton: true,
      requiredVersion: `^${platform}`,
      strictVersion: true,
    });
    const react = read('shell/node_modules/react/package.json');
    for (const name of ['react', 'react/jsx-runtime']) {
      expect(shared[name]).toMatchObject({ requiredVersion: `^${react}`, strictVersion: true });
    }
    expect(shared['react-dom/client']!.requiredVersion).toBe(
      `^${read('shell/node_modules/react-dom/package.json')}`,
    );
    // mfe-content draws no chart: it never loads highcharts, so it requires nothing of it.
    expect(shared.highcharts).toEqual({
      singleton: true,
      requiredVersion: false,
      strictVersion: false,
    });
  });
});

describe('createAppConfig', () => {
  it("exposes the modules the remote's src/pages.ts names, from src/exposes", async () => {
    const root = path.join(workspace, 'mfe-content');
    const config = await createAppConfig({ app: 'mfe-content', root, mode: 'production' });
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
    // The pages of src/pages.ts and the sections other remotes' pages compose: every file of
    // src/exposes, and nothing else.
    expect(Object.keys(federation._options.exposes).sort()).toEqual(
      fs
        .readdirSync(path.join(root, 'src/exposes'))
        .map((file) => `./${file.replace(/\.tsx$/, '')}`)
        .sort(),
    );
    expect(federation._options.shareStrategy).toBe('loaded-first');
    expect(federation._options.dts).toBe(false);
    expect(config.output?.publicPath).toBe('auto');
  });

  it('refuses a page list that names a module without its src/exposes file, or an invalid page', async () => {
    const roots: string[] = [];
    /** A remote folder with only src/exposes/RisksPage.tsx and the given src/pages.ts. */
    const remoteWith = (pages: string) => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mfe-content-'));
      roots.push(root);
      fs.mkdirSync(path.join(root, 'src/exposes'), { recursive: true });
      fs.writeFileSync(path.join(root, 'src/exposes/RisksPage.tsx'), 'export default () => null;');
      fs.writeFileSync(path.join(root, 'src/pages.ts'), `export default { pages: ${pages} };`);
      return createAppConfig({ app: 'mfe-content', root, mode: 'production' });
    };
    try {
      await expect(
        remoteWith(`[{ path: '/risks', module: './RisksPage', title: 'Risks' },
                     { path: '/vault', module: './VaultPage', title: 'Vault' }]`),
      ).rejects.toThrow('names ./VaultPage, but ./src/exposes/VaultPage.tsx does not exist');
      await expect(
        remoteWith(`[{ path: 'risks', module: './RisksPage', title: 'Risks' }]`),
      ).rejects.toThrow('path "risks" must start with "/"');
    } finally {
      for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('builds the shell as a host with hashed, immutable-cacheable file names', async () => {
    const config = await createAppConfig({ app: 'shell', root: '/tmp/shell', mode: 'production' });
    expect(config.output?.publicPath).toBe('/');
    expect(config.output?.filename).toBe('[name].[contenthash:8].js');
  });
});
