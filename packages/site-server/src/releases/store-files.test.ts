import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { promote, release, rollback, siteSettings, status } from './operations.ts';
import { releaseDir } from './release-files.ts';
import { FileReleaseStore } from './store-files.ts';
import { fixtureSite, writeBuild } from './test-fixtures.ts';

const stores: FileReleaseStore[] = [];
const temps: string[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function site() {
  const fixture = fixtureSite();
  temps.push(fixture.tmp);
  const open = () => {
    const store = new FileReleaseStore({
      rootDir: fixture.rootDir,
      dataDir: fixture.dataDir,
      log: () => {},
    });
    stores.push(store);
    return store;
  };
  const build = (marker: string) =>
    writeBuild(path.join(fixture.tmp, 'builds', marker), { marker });
  return { ...fixture, open, build };
}

const plain = { canary: null, settings: null };

describe('the file release store', () => {
  it("makes each remote's first release from its build; a remote without a build has none", async () => {
    const { open, dataDir } = site();
    const store = open();
    await store.start();
    const content = store.snapshot().mfe_content!;
    expect(content).toMatchObject({ canary: null, previous: [] });
    expect(content.releases).toEqual([
      { id: content.live, createdAt: expect.any(String), from: 'build' },
    ]);
    expect(store.snapshot().mfe_strategy).toBeUndefined();
    const dir = store.localDir('mfe_content', content.live)!;
    expect(dir).toBe(releaseDir(dataDir, 'mfe_content', content.live));
    expect(fs.readFileSync(path.join(dir, 'remoteEntry.js'), 'utf8')).toBe('/* first */');
    // Started again, it keeps the first release (the same registry).
    const again = open();
    await again.start();
    expect(again.snapshot().mfe_content!.releases).toHaveLength(1);
  });

  it('releases, promotes a canary and rolls back', async () => {
    const { open, build } = site();
    const store = open();
    await store.start();
    const first = store.snapshot().mfe_content!.live;
    const second = await release(store, 'mfe_content', build('second'), plain);
    expect(store.snapshot().mfe_content).toMatchObject({ live: second.id, previous: [first] });
    const third = await release(store, 'mfe_content', build('third'), {
      canary: 20,
      settings: null,
    });
    expect(store.snapshot().mfe_content).toMatchObject({
      live: second.id,
      canary: { id: third.id, percent: 20 },
    });
    await promote(store, 'mfe_content');
    expect(store.snapshot().mfe_content).toMatchObject({
      live: third.id,
      canary: null,
      previous: [second.id, first],
    });
    await rollback(store, 'mfe_content');
    expect(store.snapshot().mfe_content).toMatchObject({ live: second.id, previous: [first] });
    // A rollback with a canary running stops the canary; the live release stays.
    const fourth = await release(store, 'mfe_content', build('fourth'), {
      canary: 5,
      settings: null,
    });
    await rollback(store, 'mfe_content');
    expect(store.snapshot().mfe_content).toMatchObject({ live: second.id, canary: null });
    expect(store.localDir('mfe_content', fourth.id)).not.toBeNull();
    await expect(promote(store, 'mfe_content')).rejects.toThrow('no canary to promote');
    await expect(release(store, 'mfe_content', build('second'), plain)).rejects.toThrow(
      'already live',
    );
  });

  it('keeps the live release and the 5 most recent others; older files and records go', async () => {
    const { open, build, dataDir } = site();
    const store = open();
    await store.start();
    const first = store.snapshot().mfe_content!.live;
    const ids = [first];
    for (let n = 1; n <= 7; n++)
      ids.push((await release(store, 'mfe_content', build(`r${n}`), plain)).id);
    const state = status(store).mfe_content!;
    expect(state.live).toBe(ids[7]);
    expect(state.releases.map((r) => r.id)).toEqual(ids.slice(2).reverse());
    expect(state.previous).toEqual(ids.slice(2, 7).reverse());
    expect(Object.keys(state.counts).sort()).toEqual(ids.slice(2).sort());
    expect(fs.existsSync(releaseDir(dataDir, 'mfe_content', ids[0]!))).toBe(false);
    expect(fs.existsSync(releaseDir(dataDir, 'mfe_content', ids[1]!))).toBe(false);
    expect(fs.existsSync(releaseDir(dataDir, 'mfe_content', ids[2]!))).toBe(true);
  });

  it("two writers on one data directory lose none of each other's writes; the registry is always whole", async () => {
    const { open, build, dataDir } = site();
    const a = open();
    const b = open();
    await a.start();
    await b.start();
    const live = a.snapshot().mfe_content!.live;
    const reports = Array.from({ length: 40 }, (_, n) =>
      (n % 2 ? a : b).reportError('mfe_content', live, `visitor-${n}`),
    );
    const released = release(b, 'mfe_content', build('concurrent'), plain);
    await Promise.all([...reports, released]);
    const state = status(a).mfe_content!;
    expect(state.counts[live]!.errors).toBe(40);
    expect(state.live).toBe((await released).id);
    // Read again by the other writer from the file it did not write last.
    expect(a.snapshot().mfe_content!.live).toBe((await released).id);
    expect(fs.readdirSync(path.join(dataDir, 'releases'))).toEqual([
      'mfe-content',
      'registry.json',
    ]);
  });

  it('counts page loads in memory and writes them once per flush', async () => {
    const { open } = site();
    const store = open();
    await store.start();
    const live = store.snapshot().mfe_content!.live;
    const written = () => fs.statSync(store.registryPath).ino;
    for (let n = 0; n < 30; n++) store.countLoad('mfe_content', live);
    expect(store.snapshot().mfe_content!.counts[live]!.loads).toBe(0);
    await store.flush();
    expect(store.snapshot().mfe_content!.counts[live]!.loads).toBe(30);
    // Nothing counted since: no write (each write renames a new file into place).
    const file = written();
    await store.flush();
    expect(written()).toBe(file);
  });

  it('rolls a canary back by itself past 5 visitors and 10 % of its page loads', async () => {
    const { build, rootDir, dataDir } = site();
    const logged: string[] = [];
    const store = new FileReleaseStore({ rootDir, dataDir, log: (line) => logged.push(line) });
    stores.push(store);
    await store.start();
    const live = store.snapshot().mfe_content!.live;
    const canary = (
      await release(store, 'mfe_content', build('canary'), { canary: 50, settings: null })
    ).id;
    for (let n = 0; n < 40; n++) store.countLoad('mfe_content', canary);
    for (let n = 0; n < 4; n++) await store.reportError('mfe_content', canary, `v${n}`);
    // The same visitor again counts once.
    await store.reportError('mfe_content', canary, 'v0');
    expect(store.snapshot().mfe_content).toMatchObject({
      canary: { id: canary },
      counts: { [canary]: { loads: 40, errors: 4 } },
    });
    // 5 distinct visitors, 5 errors > 10 % of 40 loads.
    await store.reportError('mfe_content', canary, 'v4');
    const state = status(store).mfe_content! as unknown as Record<string, unknown>;
    expect(state).toMatchObject({ live, canary: null });
    expect(state.autoRollbacks).toEqual([
      { id: canary, at: expect.any(String), loads: 40, errors: 5 },
    ]);
    expect(logged).toEqual([
      expect.stringContaining(`canary ${canary} of mfe_content rolled back by itself`),
    ]);
  });

  it('keeps a canary whose errors stay within 10 % of its loads', async () => {
    const { open, build } = site();
    const store = open();
    await store.start();
    const canary = (
      await release(store, 'mfe_content', build('canary'), { canary: 50, settings: null })
    ).id;
    for (let n = 0; n < 60; n++) store.countLoad('mfe_content', canary);
    for (let n = 0; n < 6; n++) await store.reportError('mfe_content', canary, `v${n}`);
    expect(store.snapshot().mfe_content!.canary).toEqual({ id: canary, percent: 50 });
    await store.reportError('mfe_content', canary, 'v6');
    expect(store.snapshot().mfe_content!.canary).toBeNull();
  });

  it('reads the settings pages render with from the data directory', () => {
    const { dataDir } = site();
    expect(siteSettings(dataDir)).toMatchObject({ siteTitle: 'Pigi', data: { sample: true } });
    expect(siteSettings(path.join(dataDir, 'none'))).toBeNull();
  });
});
