/**
 * Shared by the import suites: the feeds named in the shipped sources.json, a replay server
 * answering all of them with good data, and small readers of what the API serves.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { feedTargets, runImport, type ImportOptions } from '../src/modules/import/run-import.ts';
import type { HistoryFile, SourcesFile } from '../src/modules/yields/schemas.ts';
import { dailyPoints, chartBody, startReplayServer, type ReplayServer } from './replay-server.ts';
import { afterAll, beforeAll } from 'vitest';
import { editFile, setup, type TestContext } from './helpers.ts';
import { feedPoolId } from './selector-pools.ts';

/** After each test: the replay server closed, the temp data directory removed. */
export async function closeAll(
  t: TestContext | undefined,
  server: ReplayServer | undefined,
): Promise<void> {
  await server?.close();
  await t?.cleanup();
}

export const NOW = new Date('2026-11-23T12:00:00Z');
export const TODAY = '2026-11-23';

export const POOL = {
  lido: '747c1d2a-c668-4682-b9f9-296708a3dd90',
  susds: 'd8c4eff5-c8a9-46fc-a888-057c4c668e72',
  aaveUsdc: 'aa70268e-4b52-42bf-a116-608b370f9501',
  compoundUsdc: '7da72d09-56ca-4ec5-a45f-59114353e487',
  aaveUsdt: 'f981a304-bb6c-45b8-b0c5-fd2f515ad23a',
  compoundUsdt: 'f4d5b566-e815-4ca2-bb07-7bcd8bc797f1',
  dsr: 'c8a24fee-ec00-4f38-86c0-9f6daebc4225',
  reth: 'd4b3c522-6127-4b89-bedf-83641cdcd2eb',
  cbeth: '0f45d730-b279-4629-8e11-ccb5cc3038b4',
  susde: '66985a81-9c51-46ca-9977-42b4fe7bc6df',
} as const;

export interface StrategyRow {
  id: number;
  yield30d: number;
  riskAdjustedYield30d: number;
  status: string;
  great: boolean;
  asOf: string | null;
  provenance: { kind: string; asOf: string | null; stale: boolean; pool?: string };
}

export async function readSources(dir: string): Promise<SourcesFile> {
  return JSON.parse(await readFile(path.join(dir, 'sources.json'), 'utf8')) as SourcesFile;
}

export async function readHistory(dir: string): Promise<HistoryFile> {
  return JSON.parse(await readFile(path.join(dir, 'history.json'), 'utf8')) as HistoryFile;
}

/**
 * Takes the on-chain feeds out of every source and base-rate component (in place), so that a
 * chain test reads only the contracts it deploys; `keep` says which ones stay (by source id or
 * component series).
 */
export function withoutOnchainFeeds(
  sources: SourcesFile,
  keep: { ids?: number[]; series?: string[] } = {},
): SourcesFile {
  const onlyDefillama = (h: { feeds?: { provider: string }[] }) => {
    if (h.feeds) h.feeds = h.feeds.filter((f) => f.provider === 'defillama') as typeof h.feeds;
  };
  for (const s of sources.sources) if (!keep.ids?.includes(s.id)) onlyDefillama(s);
  for (const b of sources.baseRates) {
    const strip = (h: { series?: string; feeds?: { provider: string }[] }) => {
      if (!h.series || !keep.series?.includes(h.series)) onlyDefillama(h);
    };
    const comp = b.components;
    if (comp.kind === 'stablecoin') comp.coins.forEach((coin) => coin.venues.forEach(strip));
    else comp.assets.forEach((a) => strip(a as never));
  }
  return sources;
}

/**
 * A chain suite's sources.json: no on-chain feed but the shipped one of source `id`, pointed at
 * the test's contracts (`change`: its address and other fields). Returns nothing; writes the file.
 */
export async function onlyOnchainFeedOf(
  dir: string,
  id: number,
  change: Record<string, unknown>,
): Promise<void> {
  const sources = await readSources(dir);
  const shipped = sources.sources.find((s) => s.id === id)!;
  const feed = shipped.feeds!.find((f) => f.provider === 'onchain')!;
  withoutOnchainFeeds(sources);
  shipped.feeds = [{ ...feed, ...change } as typeof feed];
  await editFile(`${dir}/sources.json`, JSON.stringify(sources, null, 2));
}

/**
 * One data directory and a replay server of every DeFiLlama feed for a describe block, its
 * sources.json first prepared by `prepare`: the returned object holds both once the block starts.
 */
export function useImportSite(prepare: (dir: string) => Promise<void>): {
  t: TestContext;
  server: ReplayServer;
} {
  const site = {} as { t: TestContext; server: ReplayServer };
  beforeAll(async () => {
    site.t = await setup({ now: () => NOW });
    await prepare(site.t.dir);
    site.server = await replayAllFeeds(site.t.dir);
  }, 60_000);
  afterAll(() => closeAll(site.t, site.server));
  return site;
}

/** Every feed of the shipped sources.json answered with 60 good days ending `lastDay`. */
export async function replayAllFeeds(dir: string, lastDay = TODAY): Promise<ReplayServer> {
  const server = await startReplayServer();
  await answerAllFeeds(server, dir, lastDay);
  return server;
}

/**
 * Sets the replies of replayAllFeeds on `server`: every feed of `dir`'s sources.json, 60 good days
 * ending `lastDay`, each answer sent after `delayMs`.
 */
export async function answerAllFeeds(
  server: ReplayServer,
  dir: string,
  lastDay = TODAY,
  delayMs = 0,
): Promise<void> {
  const { targets } = feedTargets(await readSources(dir));
  // Values depend on the date, not the position: a later reply repeats the earlier days exactly.
  const shift = (Date.parse(lastDay) - Date.parse(TODAY)) / 86_400_000;
  targets.forEach((t, n) =>
    server.set(feedPoolId(t), {
      kind: 'json',
      body: chartBody(
        dailyPoints({
          lastDay,
          days: 60,
          apy: (i) => 3 + n * 0.25 + ((i + shift) % 5) * 0.02,
          tvlUsd: (i) => 2e8 + (i + shift) * 1e5,
        }),
      ),
      ...(delayMs > 0 ? { delayMs } : {}),
    }),
  );
}

export function importWith(
  t: TestContext,
  server: ReplayServer,
  options: Partial<ImportOptions> = {},
) {
  return runImport({
    store: t.deps.store,
    apiUrl: server.url,
    coinsApiUrl: server.url,
    now: () => NOW,
    timeoutMs: 1000,
    logger: t.logger,
    ...options,
  });
}

export async function strategies(t: TestContext): Promise<StrategyRow[]> {
  return (await t.http.get('/api/strategies').expect(200)).body as StrategyRow[];
}

/**
 * An active incident ("Depeg", 2026-11-22) opens on source `id` in the context's sources.json,
 * and the running API takes the edit (an `incident` crossing); returns the source's name.
 */
export async function openIncident(t: TestContext, id = 3): Promise<string> {
  const sources = await readSources(t.dir);
  const source = sources.sources.find((s) => s.id === id)!;
  source.incidents.push({
    date: '2026-11-22',
    kind: 'Depeg',
    summary: 'The token traded below its peg for a day.',
    link: 'https://example.com/blog/depeg-post-mortem',
    linkVerified: '2026-11-22',
    active: true,
  });
  const text = JSON.stringify(sources, null, 2);
  // With a database the yield files served are the published ones: the edit is published.
  if (t.deps.published) await t.deps.published.publishText('sources', text);
  else {
    await editFile(path.join(t.dir, 'sources.json'), text);
    if (!(await t.deps.store.refreshFile('sources'))) throw new Error('sources.json was refused');
  }
  return source.name;
}
