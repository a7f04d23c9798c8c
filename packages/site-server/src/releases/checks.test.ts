import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { release, siteSettings } from './operations.ts';
import { FileReleaseStore } from './store-files.ts';
import { fixtureSite, OK_RENDER, writeBuild, type FixtureBuild } from './test-fixtures.ts';

const temps: string[] = [];
const stores: FileReleaseStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Releases a build made of `build`; expects it refused with `message` and nothing changed. */
async function expectRefused(build: FixtureBuild, message: string | RegExp) {
  const { rootDir, dataDir, tmp } = fixtureSite();
  temps.push(tmp);
  const store = new FileReleaseStore({ rootDir, dataDir, log: () => {} });
  stores.push(store);
  await store.start();
  const registry = fs.readFileSync(store.registryPath, 'utf8');
  const folders = fs.readdirSync(path.join(dataDir, 'releases', 'mfe-content'));
  const dir = writeBuild(path.join(tmp, 'candidate'), { marker: 'candidate', ...build });
  const refusal = release(store, 'mfe_content', dir, {
    canary: null,
    settings: siteSettings(dataDir),
  });
  await expect(refusal).rejects.toThrow(message);
  await expect(refusal).rejects.toThrow('release refused, nothing changed');
  expect(fs.readFileSync(store.registryPath, 'utf8')).toBe(registry);
  expect(fs.readdirSync(path.join(dataDir, 'releases', 'mfe-content'))).toEqual(folders);
}

describe('the checks before a release', () => {
  it('pass a build whose pages, modules, shared versions, render and API reads are right', async () => {
    const { rootDir, dataDir, tmp } = fixtureSite();
    temps.push(tmp);
    const store = new FileReleaseStore({ rootDir, dataDir, log: () => {} });
    stores.push(store);
    await store.start();
    const dir = writeBuild(path.join(tmp, 'good'), { marker: 'good', render: OK_RENDER });
    const { id } = await release(store, 'mfe_content', dir, {
      canary: null,
      settings: siteSettings(dataDir),
    });
    expect(store.snapshot().mfe_content!.live).toBe(id);
  });

  it('refuse an invalid pages.json', () =>
    expectRefused(
      { pages: { pages: [{ path: 'risks', module: './RisksPage', title: 'Risks' }] } },
      'pages.json is invalid: page 1: path "risks" must start with "/"',
    ));

  it('refuse a page naming a module the build does not expose', () =>
    expectRefused(
      { exposes: ['RisksPage'] },
      'page /strategy/:id names ./Strategy, which the build does not expose',
    ));

  it("refuse a shared singleton the live shell's version does not satisfy", () =>
    expectRefused(
      { shared: [{ name: 'react-dom', version: '20.0.0', requiredVersion: '^20.0.0' }] },
      'shared react-dom: the build requires ^20.0.0, the live shell has 19.3.1',
    ));

  it('refuse a singleton the live shell does not share', () =>
    expectRefused(
      { shared: [{ name: 'jotai', version: '3.0.1', requiredVersion: '^3.0.1' }] },
      'shared jotai ^3.0.1: the live shell does not share it',
    ));

  it('refuse a page whose module fails to render on the server', () =>
    expectRefused(
      {
        render: OK_RENDER,
        exposes: ['RisksPage', 'Broken'],
        pages: [{ path: '/broken', module: './Broken', title: 'Broken' }],
      },
      'page /broken: ./Broken fails to render on the server: no settings.siteTitle',
    ));

  it('refuse a page reading an API path the contract does not have', () =>
    expectRefused(
      {
        pages: [
          {
            path: '/risks',
            module: './RisksPage',
            title: 'Risks',
            data: ['/api/sources', '/api/risk-scores'],
          },
        ],
      },
      "page /risks reads /api/risk-scores, which is not a GET of the API's contract",
    ));
});
