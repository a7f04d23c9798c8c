/**
 * `pnpm --filter @yield/api data:import`: --from (saved responses, offline), --dry-run, the exit
 * codes, and one run of the real script as a child process.
 */
import { execFile } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_ROOT } from '../src/composition/deps.ts';
import { feedTargets } from '../src/modules/import/run-import.ts';
import { runImportCli } from '../scripts/import-data.ts';
import { tempDataDir } from './helpers.ts';
import { NOW, POOL, readHistory, readSources, TODAY } from './import-fixtures.ts';
import { priceCoins } from '../src/modules/yields/schemas.ts';
import {
  chartBody,
  coinsBody,
  dailyPoints,
  dailyPrices,
  startReplayServer,
} from './replay-server.ts';
import { generatePoolsResponse } from '../scripts/generate-pools.ts';
import { feedPoolId, shippedSelectorPools, withShippedSelectors } from './selector-pools.ts';

let dir: string;
let saved: string;
beforeEach(async () => {
  dir = await tempDataDir();
  saved = await mkdtemp(path.join(os.tmpdir(), 'yield-import-saved-'));
  await mkdir(path.join(saved, 'chart'));
  const { targets } = feedTargets(await readSources(dir));
  for (const [n, target] of targets.entries()) {
    const apy = target.pool === POOL.lido ? 6.5 : 2 + n * 0.5;
    const points = dailyPoints({ lastDay: TODAY, days: 90, apy, tvlUsd: 5e8 });
    await writeFile(
      path.join(saved, 'chart', `${feedPoolId(target)}.json`),
      JSON.stringify(chartBody(points)),
    );
  }
  await writeFile(
    path.join(saved, 'pools.json'),
    JSON.stringify(withShippedSelectors(generatePoolsResponse({ count: 30, seed: 5 }))),
  );
  // The coins API's answer for every priced token (prices are imported too).
  await mkdir(path.join(saved, 'coins'));
  for (const coin of priceCoins(await readSources(dir)))
    await writeFile(
      path.join(saved, 'coins', `${coin}.json`),
      JSON.stringify(coinsBody(coin, dailyPrices({ lastDay: TODAY, days: 90, price: 1 }))),
    );
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(saved, { recursive: true, force: true });
});

const run = (...argv: string[]) => runImportCli([...argv, '--data-dir', dir], {}, () => NOW);

describe('data:import --from DIR', () => {
  it('imports saved responses without a network, prints a line per feed and per skipped on-chain feed, exits 0', async () => {
    const { exitCode, output } = await run('--from', saved);
    expect(exitCode).toBe(0);
    expect(output).toContain(`Imported 18 feeds from files:${saved}`);
    expect(output).toMatch(
      new RegExp(`ok {4}lido-steth +${POOL.lido}  90 days, 90 new, 0 updated, newest ${TODAY}`),
    );
    // Liquity is read on chain only: skipped without RPC_URL_ETHEREUM.
    expect(output).toMatch(
      /skip {2}liquity-sp +onchain ethereum:0x66017D22b0f8556afDd19FC67041899Eb65a21bb {2}RPC_URL_ETHEREUM is not set/,
    );
    expect(output).toContain(`${path.join(dir, 'history.json')} written.`);
    const history = await readHistory(dir);
    expect(history.series['lido-steth']).toHaveLength(90);
    expect(history.provenance?.['sky-dsr-dai']).toMatchObject({ pool: POOL.dsr });
  });

  it('reads DIR/pools.json into pools.json; without it, exits 1 and keeps the last snapshot', async () => {
    const shipped = await readFile(path.join(dir, 'pools.json'), 'utf8');
    const ok = await run('--from', saved);
    expect(ok.exitCode).toBe(0);
    expect(ok.output).toMatch(
      new RegExp(
        `ok {4}pools +/pools  ${30 + shippedSelectorPools().length} pools \\(0 malformed left out\\) as of ${NOW.toISOString()}`,
      ),
    );
    const written = JSON.parse(await readFile(path.join(dir, 'pools.json'), 'utf8')) as {
      asOf: string;
      sample: boolean;
      data: unknown[];
    };
    expect(written).toMatchObject({ asOf: NOW.toISOString(), sample: false });
    expect(written.data).toHaveLength(30 + shippedSelectorPools().length);
    expect(written).not.toEqual(JSON.parse(shipped));

    await rm(path.join(saved, 'pools.json'));
    const failed = await run('--from', saved);
    expect(failed.exitCode).toBe(1);
    expect(failed.output).toContain(
      `FAIL  pools               /pools  no saved response ${path.join(saved, 'pools.json')} (the last good snapshot is kept)`,
    );
    // The feeds named by selector only cannot be resolved without the /pools list.
    expect(failed.output).toContain('6 feed(s) and the /pools snapshot failed');
    expect(JSON.parse(await readFile(path.join(dir, 'pools.json'), 'utf8'))).toEqual(written);
  });

  it('exits 1 naming the feed and the reason when one fails; the others are still imported', async () => {
    await rm(path.join(saved, 'chart', `${POOL.cbeth}.json`));
    await writeFile(path.join(saved, 'chart', `${POOL.susde}.json`), '<html>rate limited</html>');
    const { exitCode, output } = await run('--from', saved);
    expect(exitCode).toBe(1);
    expect(output).toContain(
      `FAIL  coinbase-cbeth      ${POOL.cbeth}  no saved response ${path.join(saved, 'chart', `${POOL.cbeth}.json`)} (its last good data is kept)`,
    );
    expect(output).toMatch(
      /FAIL {2}ethena-susde +\S+ {2}malformed JSON: .* \(its last good data is kept\)/,
    );
    expect(output).toContain('2 feed(s) failed');
    const history = await readHistory(dir);
    expect(history.provenance?.['coinbase-cbeth']).toBeUndefined();
    expect(history.provenance?.['lido-steth']?.asOf).toBe(TODAY);
  });
});

describe('data:import --dry-run', () => {
  it('prints every source and base rate with its 30-day APR and risk-adjusted APR before and after, and writes nothing', async () => {
    const before = await readFile(path.join(dir, 'history.json'), 'utf8');
    const { exitCode, output } = await run('--from', saved, '--dry-run');
    expect(exitCode).toBe(0);
    expect(output).toContain('Nothing written. 30-day APR and risk-adjusted APR, before -> after:');
    // Lido: 2.75% in the shipped sample; the saved feed pays a flat 6.5% APY (6.30% APR).
    const apr = (100 * 365 * (Math.pow(1.065, 1 / 365) - 1)).toFixed(2);
    expect(output).toMatch(
      new RegExp(`13 Lido - stETH +APR 2\\.75% -> ${apr.replace('.', '\\.')}%`),
    );
    // Liquity has no feed: after the import it has no live data, so no figures.
    expect(output).toMatch(
      /3 Liquity v1 - Stability Pool +APR 4\.53% -> no live data +risk-adjusted 2\.75% -> no live data/,
    );
    expect(output).toMatch(/base-defi DeFi Base Rate \(defi\) +APR 2\.80% -> /);
    expect(output.match(/APR .* -> .*risk-adjusted .* -> /g)).toHaveLength(13);
    expect(await readFile(path.join(dir, 'history.json'), 'utf8')).toBe(before);
    await expect(access(path.join(dir, 'import-status.json'))).rejects.toThrow();
  });
});

describe('data:import arguments', () => {
  it.each([
    [['--days', '0'], /--days must be a whole number of at least 1/],
    [['--concurrency', 'many'], /--concurrency must be a whole number/],
    [['--api-url', 'ftp://example.com'], /must be an http\(s\) URL/],
    [['--frm', 'x'], /Unknown option '--frm'/],
  ])('%s exits 2 with the usage', async (argv, message) => {
    const { exitCode, output } = await run(...argv);
    expect(exitCode).toBe(2);
    expect(output).toMatch(message);
    expect(output).toContain('Usage: data:import');
  });

  it('--help exits 0', async () => {
    expect(await run('--help')).toMatchObject({
      exitCode: 0,
      output: expect.stringContaining('--dry-run'),
    });
  });

  it('an unreadable sources.json exits 2', async () => {
    await writeFile(path.join(dir, 'sources.json'), '{');
    const { exitCode, output } = await run('--from', saved);
    expect(exitCode).toBe(2);
    expect(output).toMatch(/^Cannot import: sources\.json: \$: invalid JSON/);
  });
});

describe('the pnpm script', () => {
  it('runs as a command against DEFILLAMA_API_URL and exits 1 on an HTTP error', async () => {
    const server = await startReplayServer({
      [POOL.lido]: {
        kind: 'json',
        body: chartBody(dailyPoints({ lastDay: TODAY, days: 30, apy: 3 })),
      },
    });
    try {
      const child = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'scripts/import-data.ts', '--data-dir', dir],
        {
          cwd: API_ROOT,
          env: { ...process.env, DEFILLAMA_API_URL: server.url, COINS_API_URL: server.url },
        },
      ).then(
        () => ({ code: 0, stderr: '' }),
        (err: { code: number; stderr: string }) => err,
      );
      expect(child.code).toBe(1);
      expect(child.stderr).toContain(`Imported 18 feeds from ${server.url}`);
      expect(child.stderr).toMatch(/ok {4}lido-steth/);
      expect(child.stderr).toMatch(/FAIL {2}aave-v3-usdc +\S+ {2}HTTP 400 Bad Request/);
      expect(server.requests).toContain(`/chart/${POOL.lido}`);
    } finally {
      await server.close();
    }
  });
});
