/**
 * The scanner's data: the snapshot is reloaded when pools.json, project-tiers.json or
 * sources.json change; a bad snapshot (by hand or by import) never replaces the last good one;
 * importPoolsSnapshot drops malformed pools with counted reasons; no snapshot is an empty answer.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generatePoolsResponse, POOLS_AS_OF } from '../scripts/generate-pools.ts';
import type { HealthReport } from '@yield/contract';
import type { ProjectTiersFile } from '../src/modules/scanner/schemas.ts';
import { openStore } from '../src/composition/data-files.ts';
import { silentLogger } from '../src/platform/logger.ts';
import {
  importPoolsSnapshot,
  MAX_DROPPED_SHARE,
  PoolsImportError,
} from '../src/modules/import/import-pools.ts';
import type { ScannerAnswer } from '@yield/contract';
import { editFile, readJson, setup, tempDataDir, type TestContext } from './helpers.ts';
import { naiveScan } from './naive-scan.ts';
import { premiumToken, safetyOfDir, writeSnapshot } from './scanner-fixtures.ts';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

const scan = async (ctx: TestContext, query = 'limit=500&includeOutliers=true') => {
  const res = await ctx.http
    .get(`/api/scanner?${query}`)
    .set('Authorization', `Bearer ${await premiumToken(ctx)}`)
    .expect(200);
  return { body: res.body as ScannerAnswer, text: res.text };
};
const health = async (ctx: TestContext) => (await ctx.http.get('/api/health')).body as HealthReport;

async function withSnapshot(count = 300, seed?: number) {
  const dir = await tempDataDir();
  const file = await writeSnapshot(dir, { count, seed });
  t = await setup({ dir });
  return { ctx: t, file };
}

describe('snapshot reload', () => {
  it('a new pools.json is picked up without a restart, the index rebuilt', async () => {
    const { ctx } = await withSnapshot(300, 1);
    const before = await scan(ctx);
    expect(before.body.total).toBe(300);
    const file = await writeSnapshot(ctx.dir, {
      count: 450,
      seed: 2,
      fetchedAt: new Date('2026-11-22T06:00:00Z'),
    });
    await ctx.deps.store.refresh();
    const after = await scan(ctx);
    expect(after.body.asOf).toBe('2026-11-22T06:00:00.000Z');
    expect(after.body.total).toBe(450);
    const naive = naiveScan(file.data, await safetyOfDir(ctx.dir, file.asOf), {
      includeOutliers: true,
      limit: 500,
    });
    expect(after.body.items.map((i) => i.pool)).toEqual(naive.rows.map((r) => r.pool.pool));
  });

  it('the poller notices a new snapshot by itself', async () => {
    const dir = await tempDataDir();
    await writeSnapshot(dir, { count: 50, seed: 3 });
    t = await setup({ dir, watchIntervalMs: 25 });
    await writeSnapshot(dir, { count: 60, seed: 4 });
    const deadline = Date.now() + 5000;
    let total = 0;
    while (Date.now() < deadline && total !== 60) {
      total = (await scan(t)).body.total;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(total).toBe(60);
  });

  it.each([
    ['broken JSON', (text: string) => text.slice(0, 5000), /pools\.json: \$: invalid JSON/],
    [
      'a pool that breaks the schema',
      (text: string) => text.replace(/"tvlUsd":\d+/, '"tvlUsd":"lots"'),
      /pools\.json: \$\.data\[0\]\.tvlUsd: Invalid input: expected number, received string/,
    ],
    [
      'a pool listed twice',
      (text: string) => {
        const lines = text.split('\n');
        return [...lines.slice(0, 2), `${lines[1]!.replace(/,$/, '')},`, ...lines.slice(2)].join(
          '\n',
        );
      },
      /pools\.json: \$\.data\[1\]\.pool: duplicate pool id/,
    ],
  ])(
    'a hand edit with %s is refused: the last good snapshot keeps being served',
    async (_n, edit, error) => {
      const { ctx } = await withSnapshot(200, 5);
      const before = await scan(ctx);
      const file = path.join(ctx.dir, 'pools.json');
      await editFile(file, edit(await readFile(file, 'utf8')));
      await ctx.deps.store.refresh();
      expect((await scan(ctx)).text).toBe(before.text);
      const h = await health(ctx);
      expect(h.status).toBe('degraded');
      expect(h.files['pools.json']!.error).toMatch(error);
    },
  );

  it('an edit of project-tiers.json re-charges the pools of that project', async () => {
    const { ctx } = await withSnapshot(400, 6);
    const aave = async () =>
      (await scan(ctx, 'project=aave-v3&includeOutliers=true')).body.items.map(
        (i) => i.charges.safety,
      );
    expect(new Set(await aave())).toEqual(new Set([0.75]));
    const file = path.join(ctx.dir, 'project-tiers.json');
    const tiers = await readJson<ProjectTiersFile>(file);
    const entry = tiers.projects.find((p) => p.project === 'aave-v3') as { safety: number };
    entry.safety = 1;
    await editFile(file, JSON.stringify(tiers));
    await ctx.deps.store.refresh();
    expect(new Set(await aave())).toEqual(new Set([6]));

    // A tiers file that breaks its schema is refused; the charges stay.
    await editFile(
      file,
      JSON.stringify({ ...tiers, projects: [...tiers.projects, tiers.projects[0]] }),
    );
    await ctx.deps.store.refresh();
    expect(new Set(await aave())).toEqual(new Set([6]));
    expect((await health(ctx)).files['project-tiers.json']!.error).toMatch(/listed twice/);
  });

  it("a project following a source takes the source's dated safety score at the snapshot's date", async () => {
    const dir = await tempDataDir();
    const resolv = {
      ...generatePoolsResponse({ count: 1, seed: 7 }).data[0]!,
      project: 'resolv-usr',
    };
    await writeSnapshot(dir, {
      count: 20,
      extra: [resolv],
      fetchedAt: new Date('2026-01-15T00:00:00Z'),
    });
    t = await setup({ dir });
    const charge = async () =>
      (await scan(t!, 'project=resolv-usr&includeOutliers=true')).body.items[0]!;
    // Resolv USR (source 8): safety 3 until 2026-03-22, 1 from then on.
    expect((await charge()).charges.safety).toBe(1.5);
    expect((await charge()).inputs).toMatchObject({
      safety: 3,
      safetyBasis: 'source',
      safetySource: 8,
    });
    await writeSnapshot(dir, { count: 20, extra: [resolv], fetchedAt: POOLS_AS_OF });
    await t.deps.store.refresh();
    expect((await charge()).charges.safety).toBe(6);
  });

  it('a tier naming an unknown source is charged as unlisted, and the operator is told', async () => {
    const dir = await tempDataDir();
    const pool = { ...generatePoolsResponse({ count: 1, seed: 8 }).data[0]!, project: 'lido' };
    await writeSnapshot(dir, { count: 5, extra: [pool] });
    const file = path.join(dir, 'project-tiers.json');
    const tiers = await readJson<ProjectTiersFile>(file);
    await editFile(
      file,
      JSON.stringify({
        ...tiers,
        projects: tiers.projects.map((p) =>
          p.project === 'lido' ? { project: 'lido', source: 99 } : p,
        ),
      }),
    );
    t = await setup({ dir });
    const item = (await scan(t, 'project=lido&includeOutliers=true')).body.items[0]!;
    expect(item.inputs.safetyBasis).toBe('unlisted');
    expect(item.charges.safety).toBe(3);
    expect(t.logger.lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        fields: expect.objectContaining({ project: 'lido', source: 99 }),
      }),
    );
  });
});

describe('importPoolsSnapshot', () => {
  it('validates, drops malformed pools with counted reasons, writes atomically and rebuilds the index', async () => {
    const { ctx } = await withSnapshot(100, 9);
    const raw = generatePoolsResponse({ count: 200, seed: 10 });
    raw.data[3]!.tvlUsd = 'a lot';
    raw.data[4]!.tvlUsd = null;
    raw.data[5]!.ilRisk = 'maybe';
    raw.data[6] = { ...raw.data[7]! };
    const report = await importPoolsSnapshot(raw, {
      store: ctx.deps.store,
      fetchedAt: new Date('2026-11-22T12:00:00Z'),
    });
    expect(report).toEqual({
      file: path.join(ctx.dir, 'pools.json'),
      asOf: '2026-11-22T12:00:00.000Z',
      received: 200,
      accepted: 196,
      dropped: 4,
      droppedByReason: {
        'tvlUsd: Invalid input: expected number, received string': 1,
        'tvlUsd: Invalid input: expected number, received null': 1,
        'ilRisk: Invalid option: expected one of "yes"|"no"': 1,
        'pool: duplicate pool id': 1,
      },
      // Each pool left out is named: its id, the field and why.
      leftOut: [
        {
          pool: raw.data[3]!.pool,
          field: 'tvlUsd',
          reason: 'Invalid input: expected number, received string',
        },
        {
          pool: raw.data[4]!.pool,
          field: 'tvlUsd',
          reason: 'Invalid input: expected number, received null',
        },
        {
          pool: raw.data[5]!.pool,
          field: 'ilRisk',
          reason: 'Invalid option: expected one of "yes"|"no"',
        },
        { pool: raw.data[6]!.pool, field: 'pool', reason: 'duplicate pool id' },
      ],
    });
    expect((await readdir(ctx.dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const written = await readJson<{ sample: boolean; source: string; data: unknown[] }>(
      report.file,
    );
    expect(written).toMatchObject({ sample: false, source: 'https://yields.llama.fi/pools' });
    // Through the caller's store: this process's index is rebuilt at once.
    const answer = (await scan(ctx)).body;
    expect(answer.total).toBe(196);
    expect(answer.asOf).toBe('2026-11-22T12:00:00.000Z');
    expect(answer.sample).toBe(false);
  });

  it('by data directory (the importer command): a running server picks the file up', async () => {
    const { ctx } = await withSnapshot(100, 11);
    const report = await importPoolsSnapshot(generatePoolsResponse({ count: 120, seed: 12 }), {
      dataDir: ctx.dir,
    });
    expect(report.accepted).toBe(120);
    await ctx.deps.store.refresh();
    expect((await scan(ctx)).body.total).toBe(120);
  });

  const fine = () => generatePoolsResponse({ count: 100, seed: 13 });
  it.each<[string, () => unknown, RegExp]>([
    ['not an object', () => [fine().data], /not a JSON object/],
    ['an error status', () => ({ status: 'error', data: [] }), /status "error", not "success"/],
    ['no data array', () => ({ status: 'success', data: { pools: [] } }), /no data array/],
    ['no pools', () => ({ status: 'success', data: [] }), /has no pools/],
    [
      'every pool malformed',
      () => ({ status: 'success', data: fine().data.map((p) => ({ ...p, apy: '5%' })) }),
      /none of the 100 pools is valid \(100 × apy: Invalid input: expected number, received string\)/,
    ],
    [
      `more than ${MAX_DROPPED_SHARE * 100}% malformed`,
      () => {
        const raw = fine();
        for (const p of raw.data.slice(0, 11)) delete p.sigma;
        return raw;
      },
      /11 of 100 pools are malformed, more than 10%: the format may have changed \(11 × sigma: Invalid input: expected number, received undefined\)/,
    ],
  ])(
    'a response with %s fails as a whole: the last good snapshot stays, on disk and served',
    async (_n, raw, message) => {
      const { ctx } = await withSnapshot(80, 14);
      const file = path.join(ctx.dir, 'pools.json');
      const before = await readFile(file, 'utf8');
      const served = (await scan(ctx)).text;
      await expect(importPoolsSnapshot(raw(), { store: ctx.deps.store })).rejects.toThrow(
        PoolsImportError,
      );
      await expect(importPoolsSnapshot(raw(), { store: ctx.deps.store })).rejects.toThrow(message);
      expect(await readFile(file, 'utf8')).toBe(before);
      await ctx.deps.store.refresh();
      expect((await scan(ctx)).text).toBe(served);
    },
  );

  it('10% malformed is still accepted (the threshold is "more than")', async () => {
    const dir = await tempDataDir();
    const raw = fine();
    for (const p of raw.data.slice(0, 10)) delete p.sigma;
    const store = openStore(dir, silentLogger);
    const report = await importPoolsSnapshot(raw, { store });
    expect(report).toMatchObject({ accepted: 90, dropped: 10 });
    await rm(dir, { recursive: true, force: true });
  });
});

describe('without a snapshot', () => {
  it('no pools.json yet: an empty answer with asOf null, and a healthy API', async () => {
    const dir = await tempDataDir();
    await rm(path.join(dir, 'pools.json'));
    t = await setup({ dir });
    const res = await t.http.get('/api/scanner').expect(200);
    expect(res.body).toEqual({
      asOf: null,
      sample: false,
      method: 'rapool-v3',
      total: 0,
      offset: 0,
      limit: 10,
      teaser: true,
      teaserSize: 10,
      items: [],
    });
    expect((await health(t)).files['pools.json']).toMatchObject({ loaded: true, error: null });
  });

  it.each(['pools.json', 'project-tiers.json', 'sources.json'])(
    '%s broken at startup: 503 data_unavailable naming it',
    async (name) => {
      const dir = await tempDataDir();
      await editFile(path.join(dir, name), '{');
      t = await setup({ dir });
      const res = await t.http.get('/api/scanner').expect(503);
      expect(res.body.error).toEqual({
        code: 'data_unavailable',
        message: `${name} has not loaded (see GET /api/health)`,
      });
    },
  );
});

describe('the shipped sample snapshot', () => {
  it('is labelled sample and gives a saver USDC pools on Ethereum beyond the teaser', async () => {
    t = await setup();
    const res = await t.http.get('/api/scanner?asset=USDC&chain=Ethereum').expect(200);
    const body = res.body as ScannerAnswer;
    expect(body).toMatchObject({ sample: true, asOf: '2026-11-21T00:00:00.000Z' });
    expect(body.items).toHaveLength(10);
    expect(body.total).toBeGreaterThan(10);
  });
});
