/**
 * Published data (DATABASE_URL): the yield files served are the versions published in
 * PostgreSQL. Two apps on one database with different data directories answer the same bytes and
 * ETags; data:pull and data:publish change what every app serves, all or nothing; with the
 * database stopped the last version keeps being served, also by an app started meanwhile (the
 * cache in DATA_DIR/published), and a new version is picked up when it returns. The cluster is
 * this suite's own, since it is stopped.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runDataPublished } from '../scripts/data-published.ts';
import { runImportCli } from '../scripts/import-data.ts';
import { replayAllFeeds } from './import-fixtures.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';
import { startCluster, type PgCluster } from './pg-cluster.ts';

const PATHS = ['/api/strategies', '/api/baserate', '/api/sources', '/api/settings', '/api/scanner'];

let cluster: PgCluster;
let databaseUrl: string;
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  cluster = await startCluster();
  databaseUrl = await cluster.createDatabase();
}, 120_000);
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  await cluster?.destroy();
});

async function app(dir?: string): Promise<TestContext> {
  const t = await setup({ databaseUrl, ...(dir ? { dir } : {}) });
  cleanups.push(() => t.deps.close());
  return t;
}

async function answers(t: TestContext) {
  const out: Record<string, { status: number; etag: string | undefined; body: string }> = {};
  for (const p of PATHS) {
    const res = await t.http.get(p);
    out[p] = { status: res.status, etag: res.headers.etag, body: res.text };
  }
  return out;
}

async function editJson(file: string, edit: (data: Record<string, unknown>) => void) {
  const data = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  edit(data);
  await writeFile(file, `${JSON.stringify(data, null, 2)}\n`);
}

const renameFirstSource = (name: string) => (data: Record<string, unknown>) => {
  (data.sources as { name: string }[])[0]!.name = name;
};

const cli = (command: string, dir: string) =>
  runDataPublished([command, '--', '--dir', dir], { DATABASE_URL: databaseUrl });

async function publishedVersions(): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; version: string }>(
      'SELECT name, version FROM published_documents',
    );
    return Object.fromEntries(rows.map((r) => [r.name, Number(r.version)]));
  } finally {
    await client.end();
  }
}

async function tempDir(): Promise<string> {
  const dir = await tempDataDir();
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('published data on one PostgreSQL', () => {
  let a: TestContext;
  let b: TestContext;
  let dirB: string;

  it('the first app publishes its files; a second with other files serves the same bytes and ETags', async () => {
    a = await app();
    const versions = await publishedVersions();
    expect(Object.keys(versions).sort()).toEqual(
      [
        'costs.json',
        'history.json',
        'import-status.json',
        'liquidity.json',
        'pools.json',
        'prices.json',
        'project-tiers.json',
        'settings.json',
        'sources.json',
        'strategy-content.json',
      ].sort(),
    );
    expect(Object.values(versions)).toEqual(Array(10).fill(1));

    dirB = await tempDir();
    await editJson(path.join(dirB, 'sources.json'), renameFirstSource('Local edit of B'));
    await editJson(path.join(dirB, 'settings.json'), (s) => {
      s.siteTitle = 'Local title of B';
    });
    b = await app(dirB);

    const [fromA, fromB] = [await answers(a), await answers(b)];
    for (const p of PATHS) expect(fromA[p]!.status, p).toBe(200);
    expect(fromB).toEqual(fromA);
    expect(fromB['/api/sources']!.body).not.toContain('Local edit of B');
    expect(fromB['/api/settings']!.body).not.toContain('Local title of B');

    const health = (await b.http.get('/api/health')).body;
    expect(health.published).toMatchObject({ available: true, error: null });
    expect(health.published.versions['settings.json']).toBe(1);
    expect(health.published.localDiffers.sort()).toEqual(['settings.json', 'sources.json']);
    expect(JSON.stringify(health)).not.toContain('Local edit of B');
    expect((await a.http.get('/api/health')).body.published.localDiffers).toEqual([]);
  });

  it('data:import with DATABASE_URL imports into the published data and publishes it', async () => {
    const server = await replayAllFeeds(dirB);
    cleanups.push(() => server.close());
    const before = await answers(a);
    const historyBefore = await readFile(path.join(dirB, 'history.json'), 'utf8');
    const result = await runImportCli(
      ['--data-dir', dirB, '--api-url', server.url, '--coins-api-url', server.url],
      { DATABASE_URL: databaseUrl },
    );
    expect(result.exitCode, result.output).toBe(0);
    const versions = await publishedVersions();
    expect(versions['history.json']).toBe(2);
    expect(versions['import-status.json']).toBe(2);
    // Imported into the published sources, not B's own edit of them; nothing else published.
    expect(versions['sources.json']).toBe(1);
    expect(await readFile(path.join(dirB, 'history.json'), 'utf8')).not.toBe(historyBefore);
    await vi.waitFor(
      async () => {
        const [fromA, fromB] = [await answers(a), await answers(b)];
        expect(fromA['/api/strategies']!.body).not.toBe(before['/api/strategies']!.body);
        expect(fromB).toEqual(fromA);
        expect((await a.http.get('/api/health')).body.import.lastRun).not.toBeNull();
      },
      { timeout: 5000, interval: 250 },
    );
  });

  it('data:publish of an edited settings.json reaches both apps within 5 s', async () => {
    const work = await tempDir();
    const pulled = await cli('pull', work);
    expect(pulled.exitCode, pulled.output).toBe(0);
    expect(pulled.output).toContain('settings.json: v1');
    await editJson(path.join(work, 'settings.json'), (s) => {
      s.siteTitle = 'Published title';
    });
    const published = await cli('publish', work);
    expect(published.exitCode, published.output).toBe(0);
    expect(published.output).toContain('settings.json: published v1 → v2');
    expect(published.output).toContain('sources.json: unchanged (v1)');

    await vi.waitFor(
      async () => {
        const [fromA, fromB] = [await answers(a), await answers(b)];
        expect(fromA['/api/settings']!.body).toContain('Published title');
        expect(fromB).toEqual(fromA);
      },
      { timeout: 5000, interval: 250 },
    );
    expect((await b.http.get('/api/health')).body.published.versions['settings.json']).toBe(2);
  });

  it('refuses an invalid file and a file published again since the pull: nothing published', async () => {
    const stale = await tempDir();
    expect((await cli('pull', stale)).exitCode).toBe(0);
    const work = await tempDir();
    expect((await cli('pull', work)).exitCode).toBe(0);
    const before = await publishedVersions();

    // An invalid file (and a valid edit beside it): refused, both.
    await editJson(path.join(work, 'sources.json'), renameFirstSource('Never served'));
    await editJson(path.join(work, 'settings.json'), (s) => {
      s.warnings = 'not an object';
    });
    const invalid = await cli('publish', work);
    expect(invalid.exitCode).toBe(1);
    expect(invalid.output).toContain('settings.json: refused: settings.json: $.warnings');
    expect(invalid.output).toContain('Nothing published');
    expect(await publishedVersions()).toEqual(before);

    // The same edit of sources.json, valid now: published from `work`; then `stale`, pulled
    // before it, is refused for sources.json and its valid liquidity.json edit is not published.
    const pulledSettings = await readFile(path.join(stale, 'settings.json'), 'utf8');
    await writeFile(path.join(work, 'settings.json'), pulledSettings);
    expect((await cli('publish', work)).exitCode).toBe(0);
    await editJson(path.join(stale, 'sources.json'), renameFirstSource('Stale edit'));
    await editJson(path.join(stale, 'liquidity.json'), (l) => {
      l.note = 'Stale note';
    });
    const conflicting = await cli('publish', stale);
    expect(conflicting.exitCode).toBe(1);
    expect(conflicting.output).toContain(
      'sources.json: refused: published again since the pull (v1 pulled, v2 now)',
    );
    expect(conflicting.output).toContain('Nothing published');
    expect((await publishedVersions())['liquidity.json']).toBe(before['liquidity.json']);
    await vi.waitFor(
      async () => expect((await a.http.get('/api/sources')).text).toContain('Never served'),
      { timeout: 5000, interval: 250 },
    );
    expect((await a.http.get('/api/sources')).text).not.toContain('Stale edit');
  });

  it('without the database: serves the last version, also after a restart, and catches up', async () => {
    const before = await answers(b);
    await cluster.stop();
    try {
      await vi.waitFor(
        async () => {
          const h = (await b.http.get('/api/health')).body;
          expect(h.published.available).toBe(false);
          expect(h.published.error).toMatch(/^the published data could not be checked/);
        },
        { timeout: 10_000, interval: 250 },
      );
      expect(await answers(b)).toEqual(before);

      // A restart while the database is down: the cached published data, not B's own files.
      await b.deps.close();
      b = await app(dirB);
      expect(await answers(b)).toEqual(before);
      expect((await b.http.get('/api/sources')).text).not.toContain('Local edit of B');
    } finally {
      await cluster.start();
    }
    const work = await tempDir();
    expect((await cli('pull', work)).exitCode).toBe(0);
    await editJson(path.join(work, 'settings.json'), (s) => {
      s.siteTitle = 'After the outage';
    });
    expect((await cli('publish', work)).exitCode).toBe(0);
    await vi.waitFor(
      async () => {
        expect((await b.http.get('/api/settings')).text).toContain('After the outage');
        expect((await b.http.get('/api/health')).body.published.available).toBe(true);
      },
      { timeout: 10_000, interval: 250 },
    );
    expect(await answers(b)).toEqual(await answers(a));
  });

  it('an invalid body put in by hand is refused like an invalid file: the last good data stays', async () => {
    const served = await answers(a);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(
        "UPDATE published_documents SET version = version + 1, body = '{\"sources\": 3}' WHERE name = 'sources.json'",
      );
    } finally {
      await client.end();
    }
    await vi.waitFor(
      async () => {
        const h = (await a.http.get('/api/health')).body;
        expect(h.files['sources.json'].error).toMatch(/^sources\.json: \$\.sources/);
      },
      { timeout: 5000, interval: 250 },
    );
    expect(await answers(a)).toEqual(served);
  });

  it('data:pull and data:publish need DATABASE_URL', async () => {
    const r = await runDataPublished(['pull', '--dir', '/tmp/x'], {});
    expect(r.exitCode).toBe(2);
    expect(r.output).toContain('set DATABASE_URL');
  });
});
