/**
 * Staleness with a controlled clock: an imported series whose newest day is more than 48 h old is
 * `stale` (figures kept, never GREAT), a base rate built on it says so, and sample data never goes
 * stale however far the clock moves.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setup, type TestContext } from './helpers.ts';
import { closeAll, importWith, POOL, replayAllFeeds, strategies } from './import-fixtures.ts';
import { chartBody, dailyPoints, type ReplayServer } from './replay-server.ts';

let t: TestContext | undefined;
let server: ReplayServer | undefined;
afterEach(() =>
  closeAll(t, server).finally(() => {
    [t, server] = [undefined, undefined];
  }),
);

const LAST_DAY = '2026-11-20';

interface BaseRateBody {
  status: { stablecoin: string; defi: string };
  provenance: {
    stablecoin: { stale: boolean; components: { series: string; stale: boolean; asOf: string }[] };
    defi: { stale: boolean };
  };
}

describe('stale imported series', () => {
  it('turns stale 48 h after its newest day began: status stale, figures kept, never GREAT; the base rate says so', async () => {
    let clock = new Date('2026-11-21T12:00:00Z');
    t = await setup({ now: () => clock });
    server = await replayAllFeeds(t.dir, LAST_DAY);
    // sUSDS paying a steady 12% on $5bn: clearly GREAT against the stablecoin base rate.
    server.set(POOL.susds, {
      kind: 'json',
      body: chartBody(dailyPoints({ lastDay: LAST_DAY, days: 60, apy: 12, tvlUsd: 5e9 })),
    });
    expect((await importWith(t, server, { now: () => clock })).ok).toBe(true);

    const fresh = (await strategies(t)).find((s) => s.id === 2)!;
    expect(fresh).toMatchObject({ status: 'ok', great: true, asOf: LAST_DAY });
    expect(fresh.provenance).toMatchObject({ kind: 'defillama', stale: false });

    // Exactly 48 h after 2026-11-20 00:00 UTC: not yet.
    clock = new Date('2026-11-22T00:00:00Z');
    expect((await strategies(t)).find((s) => s.id === 2)!.status).toBe('ok');

    // One second later the same bytes are no longer served: the snapshot is rebuilt.
    clock = new Date('2026-11-22T00:00:01Z');
    const stale = (await strategies(t)).find((s) => s.id === 2)!;
    expect(stale).toMatchObject({ status: 'stale', great: false, asOf: LAST_DAY });
    expect(stale.yield30d).toBe(fresh.yield30d);
    expect(stale.provenance).toMatchObject({ kind: 'defillama', asOf: LAST_DAY, stale: true });
    // A source without a feed has no live data (no figures) and is never stale.
    expect((await strategies(t)).find((s) => s.id === 3)!).toMatchObject({
      status: 'insufficient_data',
      provenance: { kind: 'none', stale: false },
    });

    const breakdown = (await t.http.get('/api/strategies/2/breakdown').expect(200)).body as {
      status: string;
      great: boolean;
    };
    expect(breakdown).toMatchObject({ status: 'stale', great: false });
    const history = (await t.http.get('/api/history?id=2&range=7D').expect(200)).body as {
      status: string;
      provenance: { stale: boolean };
    };
    expect(history).toMatchObject({ status: 'stale', provenance: { stale: true } });

    const rates = (await t.http.get('/api/baserate').expect(200)).body as BaseRateBody;
    expect(rates.status).toEqual({ stablecoin: 'stale', defi: 'stale' });
    expect(rates.provenance.stablecoin.stale).toBe(true);
    expect(rates.provenance.stablecoin.components).toContainEqual(
      expect.objectContaining({ series: 'aave-v3-usdc', stale: true, asOf: LAST_DAY }),
    );
    expect(rates.provenance.stablecoin.components).toContainEqual(
      // Spark DAI is imported too (by selector): it goes stale with the others.
      expect.objectContaining({ series: 'spark-dai', stale: true, asOf: LAST_DAY }),
    );

    const settings = (await t.http.get('/api/settings').expect(200)).body as {
      data: { stale: boolean };
    };
    expect(settings.data.stale).toBe(true);
    const health = (await t.http.get('/api/health').expect(200)).body as {
      status: string;
      stale: { series: string; asOf: string }[];
    };
    expect(health.status).toBe('degraded');
    expect(health.stale).toContainEqual({ series: 'sky-susds', asOf: LAST_DAY });
    expect(health.stale).not.toContainEqual(expect.objectContaining({ series: 'liquity-sp' }));

    // The next import brings the feed back: fresh again, GREAT again.
    await server.close();
    server = await replayAllFeeds(t.dir, '2026-11-22');
    server.set(POOL.susds, {
      kind: 'json',
      body: chartBody(dailyPoints({ lastDay: '2026-11-22', days: 60, apy: 12, tvlUsd: 5e9 })),
    });
    await importWith(t, server, { now: () => clock });
    expect((await strategies(t)).find((s) => s.id === 2)!).toMatchObject({
      status: 'ok',
      great: true,
    });
  });

  it('sample data never turns stale, however far the clock moves', async () => {
    t = await setup({ now: () => new Date('2031-06-01T00:00:00Z') });
    const rows = await strategies(t);
    expect(rows.every((s) => s.status === 'ok' && !s.provenance.stale)).toBe(true);
    expect(rows.every((s) => s.provenance.kind === 'sample')).toBe(true);
    const rates = (await t.http.get('/api/baserate').expect(200)).body as BaseRateBody;
    expect(rates.status).toEqual({ stablecoin: 'ok', defi: 'ok' });
    const health = (await t.http.get('/api/health').expect(200)).body as {
      status: string;
      stale: unknown[];
    };
    expect(health).toMatchObject({ status: 'ok', stale: [] });
  });
});
