/**
 * data:import's /pools snapshot (api/src/modules/import/run-import.ts → importPoolsSnapshot): read from the
 * local replay server, written as pools.json and served by GET /api/scanner, reported in
 * import-status.json and GET /api/health; a failing or malformed /pools keeps the last snapshot.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setup, type TestContext } from './helpers.ts';
import { closeAll, importWith, NOW, replayAllFeeds } from './import-fixtures.ts';
import { REPLAY_POOL_COUNT, type ReplayServer } from './replay-server.ts';
import { generatePoolsResponse } from '../scripts/generate-pools.ts';

/** The shipped feeds named by selector only (no known id). */
const SELECTOR_ONLY = [
  'etherfi-liquid-eth',
  'fluid-gho',
  'fluid-steth-vault',
  'gauntlet-usd-alpha',
  'morpho-mevcap-weth',
  'spark-dai',
];

let t: TestContext | undefined;
let server: ReplayServer | undefined;
afterEach(() =>
  closeAll(t, server).finally(() => {
    [t, server] = [undefined, undefined];
  }),
);

interface PoolsOutcome {
  ok: boolean;
  reason: string | null;
  received: number;
  accepted: number;
  dropped: number;
  asOf: string | null;
}
interface Health {
  status: string;
  import: { lastRun: { ok: boolean; pools?: PoolsOutcome } | null };
}

const readPools = async (dir: string) =>
  JSON.parse(await readFile(path.join(dir, 'pools.json'), 'utf8')) as {
    asOf: string;
    sample: boolean;
    data: { pool: string }[];
  };

describe('data:import imports the /pools snapshot', () => {
  it('writes pools.json from GET /pools, the scanner serves it, health reports it', async () => {
    t = await setup({ now: () => NOW });
    server = await replayAllFeeds(t.dir);
    const result = await importWith(t, server);
    expect(server.requests).toContain('/pools');
    expect(result.ok).toBe(true);
    expect(result.pools).toEqual({
      ok: true,
      reason: null,
      received: REPLAY_POOL_COUNT,
      accepted: REPLAY_POOL_COUNT,
      dropped: 0,
      asOf: NOW.toISOString(),
    });
    const file = await readPools(t.dir);
    expect(file).toMatchObject({ asOf: NOW.toISOString(), sample: false });
    expect(file.data).toHaveLength(REPLAY_POOL_COUNT);

    const scan = (await t.http.get('/api/scanner?includeOutliers=true').expect(200)).body as {
      asOf: string;
      total: number;
    };
    expect(scan).toMatchObject({ asOf: NOW.toISOString(), total: REPLAY_POOL_COUNT });

    const health = (await t.http.get('/api/health').expect(200)).body as Health;
    expect(health.import.lastRun?.pools).toEqual(result.pools);
  });

  it.each([
    ['an HTTP error', { kind: 'raw', status: 503, body: '{"error":"busy"}' }, /^HTTP 503/],
    ['malformed JSON', { kind: 'raw', status: 200, body: '<html>' }, /^malformed JSON/],
    [
      'a changed format',
      { kind: 'json', body: { status: 'success', data: [{ pool: 'x', apy: '5%' }] } },
      /none of the 1 pools is valid/,
    ],
    ['a non-success status', { kind: 'json', body: { status: 'error' } }, /status "error"/],
  ] as const)(
    'a failing /pools (%s) keeps the last good snapshot; the run, log and health say why',
    async (_name, reply, reason) => {
      t = await setup({ now: () => NOW });
      server = await replayAllFeeds(t.dir);
      await importWith(t, server);
      const good = await readPools(t.dir);

      server.setPools(reply);
      const result = await importWith(t, server);
      expect(result.ok).toBe(false);
      // Feeds named by id are still imported; those named by selector only cannot be resolved.
      const failed = result.feeds.filter((f) => !f.ok);
      expect(failed.map((f) => f.series).sort()).toEqual(SELECTOR_ONLY);
      for (const f of failed)
        expect(f.reason).toMatch(/^selector not resolved: the pools list could not be read \(/);
      expect(result.pools).toMatchObject({ ok: false, asOf: null, accepted: 0 });
      expect(result.pools?.reason).toMatch(reason);
      expect(await readPools(t.dir)).toEqual(good);
      expect(t.logger.lines.map((l) => l.message)).toContain(
        'pools snapshot not imported, keeping the last good one',
      );

      const health = (await t.http.get('/api/health').expect(200)).body as Health;
      expect(health.status).toBe('degraded');
      expect(health.import.lastRun).toMatchObject({ ok: false, pools: { ok: false } });
      expect(health.import.lastRun?.pools?.reason).toMatch(reason);
      const scan = (await t.http.get('/api/scanner?includeOutliers=true').expect(200)).body as {
        total: number;
      };
      expect(scan.total).toBe(REPLAY_POOL_COUNT);
    },
  );

  it('a dry run validates the snapshot and writes nothing', async () => {
    t = await setup({ now: () => NOW });
    server = await replayAllFeeds(t.dir);
    server.setPools({ kind: 'json', body: generatePoolsResponse({ count: 20, seed: 3 }) });
    const before = await readFile(path.join(t.dir, 'pools.json'), 'utf8');
    const result = await importWith(t, server, { dryRun: true });
    expect(result.pools).toMatchObject({ ok: true, received: 20, accepted: 20 });
    expect(await readFile(path.join(t.dir, 'pools.json'), 'utf8')).toBe(before);
  });
});
