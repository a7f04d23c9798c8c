/** The release store of a fleet: two processes' stores on one PostgreSQL, each its own data directory. */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startCluster, type PgCluster } from '@yield/api/test/pg-cluster';
import { promote, release, rollback } from './operations.ts';
import { releaseDir } from './release-files.ts';
import { PgReleaseStore } from './store-pg.ts';
import { fixtureSite, writeBuild } from './test-fixtures.ts';

let cluster: PgCluster;
const temps: string[] = [];
beforeAll(async () => {
  cluster = await startCluster();
}, 60_000);
afterAll(async () => {
  await cluster?.destroy();
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

async function fleet() {
  const site = fixtureSite();
  temps.push(site.tmp);
  const databaseUrl = await cluster.createDatabase();
  const open = (machine: string) => {
    const dataDir = path.join(site.tmp, machine);
    fs.mkdirSync(dataDir, { recursive: true });
    return new PgReleaseStore({
      rootDir: site.rootDir,
      dataDir,
      databaseUrl,
      pollMs: 100,
      log: () => {},
    });
  };
  return { ...site, open, databaseUrl };
}

/** Two machines of one fleet, started, for `test`; closed whatever happens. */
async function twoMachines(
  test: (fleet: {
    a: PgReleaseStore;
    b: PgReleaseStore;
    tmp: string;
    databaseUrl: string;
  }) => Promise<void>,
) {
  const { open, tmp, databaseUrl } = await fleet();
  const a = open('a');
  const b = open('b');
  try {
    await a.start();
    await b.start();
    await test({ a, b, tmp, databaseUrl });
  } finally {
    await a.close();
    await b.close();
  }
}

describe('the PostgreSQL release store', () => {
  it(
    'keeps 5 releases besides the live one in the database and on every machine',
    { timeout: 60_000 },
    async () => {
      await twoMachines(async ({ a, b, tmp, databaseUrl }) => {
        const ids = [a.snapshot().mfe_content!.live];
        expect(b.localDir('mfe_content', ids[0]!)).not.toBeNull();
        for (let n = 1; n <= 6; n++) {
          const dir = writeBuild(path.join(tmp, 'builds', `r${n}`), { marker: `r${n}` });
          ids.push((await release(a, 'mfe_content', dir, { canary: null, settings: null })).id);
        }
        await vi.waitFor(() => expect(b.snapshot().mfe_content!.live).toBe(ids[6]), {
          timeout: 15_000,
          interval: 50,
        });
        expect(b.snapshot().mfe_content!.releases.map((r) => r.id)).toEqual(ids.slice(1).reverse());
        const onDisk = (machine: string, id: string) =>
          fs.existsSync(releaseDir(path.join(tmp, machine), 'mfe_content', id));
        await vi.waitFor(() => expect(onDisk('b', ids[0]!)).toBe(false), {
          timeout: 15_000,
          interval: 50,
        });
        expect(onDisk('a', ids[0]!)).toBe(false);
        expect(ids.slice(1).every((id) => onDisk('a', id) && onDisk('b', id))).toBe(true);
        const client = new pg.Client(databaseUrl);
        await client.connect();
        const { rows } = await client.query<{ id: string }>(
          'SELECT id FROM remote_release_files ORDER BY id',
        );
        await client.end();
        expect(rows.map((r) => r.id)).toEqual(ids.slice(1).sort());
      });
    },
  );

  it(
    'machines of a fleet switch together and each serves the release from its own disk',
    { timeout: 60_000 },
    async () => {
      await twoMachines(async ({ a, b, tmp }) => {
        const first = a.snapshot().mfe_content!.live;
        // One first release for the fleet, made by whichever machine started first.
        expect(b.snapshot().mfe_content).toMatchObject({ live: first, previous: [] });
        expect(b.snapshot().mfe_content!.releases).toHaveLength(1);

        const build = (marker: string) => writeBuild(path.join(tmp, 'builds', marker), { marker });
        const { id } = await release(a, 'mfe_content', build('second'), {
          canary: null,
          settings: null,
        });
        await vi.waitFor(() => expect(b.snapshot().mfe_content!.live).toBe(id), {
          timeout: 15_000,
          interval: 50,
        });
        // Named only once its files are on b's disk.
        expect(
          fs.readFileSync(path.join(b.localDir('mfe_content', id)!, 'remoteEntry.js'), 'utf8'),
        ).toBe('/* second */');

        const canary = (
          await release(b, 'mfe_content', build('canary'), { canary: 10, settings: null })
        ).id;
        await vi.waitFor(
          () => expect(a.snapshot().mfe_content!.canary).toEqual({ id: canary, percent: 10 }),
          { timeout: 15_000, interval: 50 },
        );
        await promote(a, 'mfe_content');
        await rollback(a, 'mfe_content');
        await vi.waitFor(
          () =>
            expect(b.snapshot().mfe_content).toMatchObject({
              live: id,
              previous: [first],
              canary: null,
            }),
          {
            timeout: 15_000,
            interval: 50,
          },
        );
      });
    },
  );

  it(
    "counts both machines' page loads and errors and rolls a canary back for the fleet",
    { timeout: 60_000 },
    async () => {
      await twoMachines(async ({ a, b, tmp }) => {
        const live = a.snapshot().mfe_content!.live;
        const canary = (
          await release(a, 'mfe_content', writeBuild(path.join(tmp, 'c'), { marker: 'c' }), {
            canary: 30,
            settings: null,
          })
        ).id;
        await vi.waitFor(() => expect(b.snapshot().mfe_content!.canary?.id).toBe(canary), {
          timeout: 15_000,
          interval: 50,
        });
        for (let n = 0; n < 20; n++) (n % 2 ? a : b).countLoad('mfe_content', canary);
        await Promise.all([a.flush(), b.flush()]);
        await Promise.all(
          Array.from({ length: 5 }, (_, n) =>
            (n % 2 ? a : b).reportError('mfe_content', canary, `v${n}`),
          ),
        );
        await vi.waitFor(
          () => expect(b.snapshot().mfe_content).toMatchObject({ live, canary: null }),
          { timeout: 15_000, interval: 50 },
        );
        // Both machines see the counts of both.
        await vi.waitFor(
          () => expect(a.snapshot().mfe_content!.counts[canary]).toEqual({ loads: 20, errors: 5 }),
          { timeout: 15_000, interval: 50 },
        );
        // The canary rolled back is kept (its visitors' open tabs still load its chunks).
        expect(fs.existsSync(releaseDir(path.join(tmp, 'b'), 'mfe_content', canary))).toBe(true);
      });
    },
  );

  it(
    'pnpm remotes works on a fresh database (it runs the migrations) and every machine follows',
    { timeout: 60_000 },
    async () => {
      const { open, tmp, databaseUrl } = await fleet();
      const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
      const [command, ...args] = (
        JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
          scripts: Record<string, string>;
        }
      ).scripts.remotes!.split(' ');
      const from = writeBuild(path.join(tmp, 'builds', 'cli'), { marker: 'cli', shared: [] });
      const env = {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DATA_DIR: path.join(tmp, 'cli-machine'),
      };
      const { stdout } = await promisify(execFile)(
        command!,
        [...args, 'release', 'mfe_content', '--from', from],
        { cwd: root, env },
      );
      const id = /release ([0-9a-f]{12}) is live/.exec(stdout)![1]!;
      const machine = open('server');
      try {
        await machine.start();
        expect(machine.snapshot().mfe_content!.live).toBe(id);
        expect(
          fs.readFileSync(
            path.join(machine.localDir('mfe_content', id)!, 'remoteEntry.js'),
            'utf8',
          ),
        ).toBe('/* cli */');
      } finally {
        await machine.close();
      }
    },
  );
});
