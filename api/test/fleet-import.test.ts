/**
 * One importer for the fleet: with DATABASE_URL the yield data is published (docs/api.md,
 * "Published data"), so the scheduled import takes one lock for every process of every machine
 * (`data-import:fleet`), and a process whose round the fleet already imported (the published
 * import status started less than the interval ago) skips it. Three processes on one database,
 * each with its own data directory holding the shipped sample, each with the scheduled import on:
 * DeFiLlama sees one import, and every process serves the same bytes; a fourth process started
 * afterwards serves them from its first answer.
 */
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { fleetImportedRecently, importLockName } from '../src/composition/deps.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';
import { NOW, replayAllFeeds } from './import-fixtures.ts';
import { freshDatabase } from './pg-cluster.ts';
import type { ReplayServer } from './replay-server.ts';

const contexts: TestContext[] = [];
let server: ReplayServer | undefined;
afterEach(async () => {
  const all = contexts.splice(0).reverse();
  for (const t of all) await t.deps.close();
  for (const t of all) await rm(t.dir, { recursive: true, force: true });
  await server?.close();
  server = undefined;
});

const HOUR = 3_600_000;

describe('the lock and the round of the fleet’s import', () => {
  it('one lock name for the fleet with published data, one per machine and directory without', () => {
    expect(importLockName('/srv/a', true)).toBe(importLockName('/srv/b', true));
    expect(importLockName('/srv/a', false)).not.toBe(importLockName('/srv/b', false));
  });

  it('a round is the fleet’s when its last import started less than 90% of the interval ago', () => {
    const status = (startedAt: string) => ({
      lastRun: {
        startedAt,
        finishedAt: startedAt,
        from: 'https://yields.llama.fi',
        ok: true,
        error: null,
        feeds: [],
      },
    });
    const now = new Date('2026-11-21T12:00:00.000Z');
    expect(fleetImportedRecently(status('2026-11-21T11:10:00.000Z'), now, HOUR)).toBe(true);
    expect(fleetImportedRecently(status('2026-11-21T11:05:00.000Z'), now, HOUR)).toBe(false);
    expect(fleetImportedRecently({ lastRun: null }, now, HOUR)).toBe(false);
    expect(fleetImportedRecently(null, now, HOUR)).toBe(false);
  });
});

describe('three processes, one database, the scheduled import on each', () => {
  it('one /pools request for the fleet, the same bodies and ETags everywhere, a new process serves them at once', async () => {
    const databaseUrl = await freshDatabase(inject('pgBaseUrl'));
    const dirs = [await tempDataDir(), await tempDataDir(), await tempDataDir()];
    server = await replayAllFeeds(dirs[0]!);
    const open = async (dir: string, importing: boolean) => {
      const t = await setup({
        now: () => NOW,
        smtpUrl: '',
        publicUrl: 'https://alerts.example',
        databaseUrl,
        dir,
        defillamaApiUrl: server!.url,
        coinsApiUrl: server!.url,
        poolBackfill: { top: 0 },
        ...(importing ? { importIntervalMs: HOUR } : {}),
      });
      contexts.push(t);
      return t;
    };
    const fleet = [];
    for (const dir of dirs) fleet.push(await open(dir, true));
    const done = (t: TestContext) => {
      const s = t.deps.importSchedule!.state();
      return s.lastRunAt !== null && !s.running;
    };
    for (let i = 0; i < 400 && !fleet.every(done); i++) await new Promise((r) => setTimeout(r, 50));
    expect(fleet.every(done)).toBe(true);

    const poolsRequests = server.requests.filter((r) => r === '/pools' || r.startsWith('/pools?'));
    expect(poolsRequests).toHaveLength(1);

    // Every process serves the published import within its poll (2 s): the same bytes and ETags.
    const answers = async (t: TestContext) => {
      const out: string[] = [];
      for (const path of ['/api/strategies', '/api/baserate', '/api/sources', '/api/scanner']) {
        const res = await t.http.get(path);
        out.push(`${path} ${res.status} ${res.headers.etag} ${JSON.stringify(res.body)}`);
      }
      return out;
    };
    let all: string[][] = [];
    for (let i = 0; i < 100; i++) {
      all = await Promise.all(fleet.map(answers));
      if (all.every((a) => JSON.stringify(a) === JSON.stringify(all[0]))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(all[1]).toEqual(all[0]);
    expect(all[2]).toEqual(all[0]);
    // Live data from the import, not the shipped sample.
    const strategies = (await fleet[0]!.http.get('/api/strategies')).body as {
      provenance?: { kind: string };
    }[];
    expect(JSON.stringify(all[0])).not.toContain('"kind":"sample"');
    expect(strategies.length).toBeGreaterThan(0);

    // A fourth process, its own directory with the sample: the fleet's data from its first answer.
    const late = await open(await tempDataDir(), false);
    expect(await answers(late)).toEqual(all[0]);
  });
});
