/**
 * GET /api/scanner on a generated snapshot of 20,000 pools in DeFiLlama's /pools shape: every
 * filter, the count and the ranking against the naive filter + sort (test/naive-scan.ts), paging,
 * the teaser, CSV, premium enforcement, outliers and every bad parameter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoolsFile } from '../src/modules/import/pools-file.ts';
import { RAPOOL_V3, type Score } from '../src/engine/index.ts';
import { scannerAnswerSchema, type ScannerAnswer } from '@yield/contract';
import { CSV_COLUMNS } from '../src/modules/scanner/route.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';
import { naiveScan, type NaiveQuery } from './naive-scan.ts';
import {
  awkwardPools,
  BIG_SNAPSHOT,
  safetyOfDir,
  premiumToken,
  tokens,
  writeSnapshot,
} from './scanner-fixtures.ts';

let t: TestContext;
let snapshot: PoolsFile;
let safetyOf: (project: string) => Score;
let premium: string;

beforeAll(async () => {
  const dir = await tempDataDir();
  snapshot = await writeSnapshot(dir, { count: BIG_SNAPSHOT, extra: awkwardPools() });
  safetyOf = await safetyOfDir(dir, snapshot.asOf);
  t = await setup({ dir });
  premium = await premiumToken(t);
}, 120_000);
afterAll(async () => t?.cleanup());

function url(q: Record<string, string | number | boolean | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s ? `/api/scanner?${s}` : '/api/scanner';
}

async function scan(q: Record<string, string | number | boolean | undefined>, token = premium) {
  const res = await t.http.get(url(q)).set('Authorization', `Bearer ${token}`).expect(200);
  // Every answer must match the contract's schema.
  return scannerAnswerSchema.parse(res.body);
}

/** The API's answer must be the naive reference's, pool by pool. */
async function expectLikeNaive(q: NaiveQuery) {
  const answer = await scan(q as Record<string, string | number | boolean | undefined>);
  const naive = naiveScan(snapshot.data, safetyOf, q);
  expect(answer.total).toBe(naive.total);
  expect(answer.items.map((i) => i.pool)).toEqual(naive.rows.map((r) => r.pool.pool));
  return { answer, naive };
}

describe('GET /api/scanner on 20,000 pools', () => {
  it('ranks every non-outlier pool by risk-adjusted APY by default, with the answer shape of the docs', async () => {
    const { answer, naive } = await expectLikeNaive({});
    expect(snapshot.data.length).toBe(BIG_SNAPSHOT + 3);
    expect(answer).toMatchObject({
      asOf: snapshot.asOf,
      sample: true,
      method: 'rapool-v3',
      offset: 0,
      limit: 50,
      teaser: false,
      teaserSize: 10,
    });
    expect(answer.total).toBe(snapshot.data.filter((p) => !p.outlier).length);
    expect(answer.items).toHaveLength(50);
    const ra = answer.items.map((i) => i.riskAdjustedApr);
    expect(ra).toEqual([...ra].sort((a, b) => b - a));
    expect(ra).toEqual(naive.rows.map((r) => r.riskAdjustedApr));
  });

  it('every item: the fields of the docs, the DeFiLlama link, expected − charges = riskAdjustedApr, charges ≥ 0', async () => {
    const answer = await scan({ limit: 500, includeOutliers: true });
    const byId = new Map(snapshot.data.map((p) => [p.pool, p]));
    for (const item of answer.items) {
      const source = byId.get(item.pool)!;
      expect(item).toMatchObject({
        pool: source.pool,
        project: source.project,
        chain: source.chain,
        symbol: source.symbol,
        tvlUsd: source.tvlUsd,
        apy: source.apyMean30d ?? source.apy,
        apySpot: source.apy,
        apyBase: source.apyBase ?? null,
        apyReward: source.apyReward ?? null,
        stablecoin: source.stablecoin,
        outlier: source.outlier,
        url: `https://defillama.com/yields/pool/${source.pool}`,
      });
      expect(Object.keys(item.charges).sort()).toEqual(
        ['impermanentLoss', 'outflow', 'rewardPrice', 'safety', 'size'].sort(),
      );
      const sum = Object.values(item.charges).reduce((s, c) => s + c, 0);
      for (const c of Object.values(item.charges)) expect(c).toBeGreaterThanOrEqual(0);
      expect(item.risk).toBeCloseTo(sum, 9);
      expect(item.riskAdjustedApr).toBeCloseTo(item.expected - sum, 9);
      expect(item.riskAdjustedApr).toBeLessThanOrEqual(item.expected);
      expect(item.charges.safety).toBe(RAPOOL_V3.safetyCharge[safetyOf(item.project)]);
    }
  });

  it.each<[string, NaiveQuery]>([
    ['asset, lower case', { asset: 'usdc' }],
    ['asset, any case, in pairs', { asset: 'wEtH' }],
    ['asset with a dot', { asset: 'USDC.E' }],
    ['asset no pool has', { asset: 'NOPE' }],
    ['chain, any case', { chain: 'ethereum' }],
    ['chain with a space', { chain: 'Hyperliquid L1' }],
    ['project', { project: 'aave-v3' }],
    ['project, upper case', { project: 'MORPHO-BLUE' }],
    ['stablecoin true', { stablecoin: true }],
    ['stablecoin false', { stablecoin: false }],
    ['minTvl', { minTvl: 1_000_000 }],
    ['minTvl above every pool', { minTvl: 9e12 }],
    ['minTvl 0', { minTvl: 0 }],
    ['USDC on Ethereum', { asset: 'USDC', chain: 'Ethereum' }],
    [
      'USDC on Ethereum over $10M by TVL',
      { asset: 'USDC', chain: 'Ethereum', minTvl: 1e7, sort: 'tvl' },
    ],
    ['stable on Base by APY', { stablecoin: true, chain: 'base', sort: 'apy' }],
    ['one project, one asset', { project: 'uniswap-v3', asset: 'WETH', limit: 500 }],
    ['outliers included', { includeOutliers: true }],
    ['outliers included by APY', { includeOutliers: true, sort: 'apy', limit: 500 }],
    [
      'every filter at once',
      {
        asset: 'usdt',
        chain: 'Arbitrum',
        project: 'uniswap-v3',
        stablecoin: false,
        minTvl: 5e4,
        includeOutliers: true,
      },
    ],
    ['sort by TVL', { sort: 'tvl', limit: 500 }],
    ['sort by APY', { sort: 'apy' }],
    ['a deep page', { offset: 3000, limit: 500 }],
    ['a deep page of a filter', { asset: 'usdc', offset: 200, limit: 100, sort: 'apy' }],
    ['a page past the end', { asset: 'usdc', chain: 'Ethereum', offset: 100000, limit: 10 }],
    ['minTvl with sort by TVL and an offset', { minTvl: 2e6, sort: 'tvl', offset: 40, limit: 20 }],
  ])('filter and rank like the naive scan: %s', async (_name, q) => {
    await expectLikeNaive(q);
  });

  it('total counts every match, whatever the page', async () => {
    const small = await scan({ asset: 'usdc', limit: 1 });
    const big = await scan({ asset: 'usdc', limit: 500, offset: 7 });
    expect(small.items).toHaveLength(1);
    expect(big.total).toBe(small.total);
    expect(small.total).toBeGreaterThan(500);
  });

  it('offset and limit page through one ranking without gaps or repeats', async () => {
    const whole = await scan({ chain: 'Scroll', limit: 500 });
    const pages: string[] = [];
    for (let offset = 0; offset < whole.total; offset += 37) {
      pages.push(...(await scan({ chain: 'Scroll', limit: 37, offset })).items.map((i) => i.pool));
    }
    expect(whole.total).toBeLessThan(500);
    expect(pages).toEqual(whole.items.map((i) => i.pool));
  });

  it('an empty value counts as not given', async () => {
    const plain = await scan({ asset: 'usdc' });
    const withEmpty = await scan({ asset: 'usdc', chain: '', minTvl: '', sort: '' });
    expect(withEmpty.items.map((i) => i.pool)).toEqual(plain.items.map((i) => i.pool));
  });

  it('outliers are left out unless asked for', async () => {
    const plain = await scan({ limit: 500, sort: 'apy' });
    expect(plain.items.some((i) => i.outlier)).toBe(false);
    const all = await scan({ limit: 500, sort: 'apy', includeOutliers: true });
    expect(all.items.some((i) => i.outlier)).toBe(true);
    expect(all.total).toBe(snapshot.data.length);
    expect(all.total).toBeGreaterThan(plain.total);
  });
});

describe('teaser and premium', () => {
  it('anyone gets the first 10 items of any query, marked teaser, and the full count', async () => {
    const res = await t.http.get('/api/scanner?asset=usdc&limit=50').expect(200);
    const body = res.body as ScannerAnswer;
    const full = await scan({ asset: 'usdc', limit: 50 });
    expect(body.teaser).toBe(true);
    expect(body.limit).toBe(10);
    expect(body.items).toHaveLength(10);
    expect(body.total).toBe(full.total);
    expect(body.items).toEqual(full.items.slice(0, 10));
  });

  it('the teaser never reaches past the 10th item, whatever offset and limit', async () => {
    const full = await scan({ limit: 20 });
    const at = async (q: string) =>
      (await t.http.get(`/api/scanner?${q}`).expect(200)).body as ScannerAnswer;
    const five = await at('offset=5');
    expect(five.items.map((i) => i.pool)).toEqual(full.items.slice(5, 10).map((i) => i.pool));
    expect(five.limit).toBe(5);
    const beyond = await at('offset=10&limit=500');
    expect(beyond.items).toEqual([]);
    expect(beyond.limit).toBe(0);
    expect(beyond.total).toBe(full.total);
    expect((await at('limit=3')).items.map((i) => i.pool)).toEqual(
      full.items.slice(0, 3).map((i) => i.pool),
    );
  });

  it('a premium token gets the whole ranking (500 a page)', async () => {
    const body = await scan({ limit: 500, offset: 600 });
    expect(body.teaser).toBe(false);
    expect(body.items).toHaveLength(500);
  });

  it.each([
    ['no token', undefined],
    ['a wrong signature', tokens.wrongSignature()],
    ['an expired token', tokens.expired()],
    ['a token without premium access', tokens.notPremium()],
    ['a malformed token', 'not-a-jwt'],
  ])('with %s: JSON is the teaser, CSV is a 401', async (_name, token) => {
    const json = t.http.get('/api/scanner?limit=100');
    if (token) json.set('Authorization', `Bearer ${token}`);
    const body = (await json.expect(200)).body as ScannerAnswer;
    expect(body.teaser).toBe(true);
    expect(body.items).toHaveLength(10);

    const csv = t.http.get('/api/scanner?format=csv');
    if (token) csv.set('Authorization', `Bearer ${token}`);
    const res = await csv.expect(401);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.body).toEqual({
      error: { code: 'premium_required', message: 'CSV export needs a premium token' },
    });
  });

  it('anonymous answers are cached like the other GETs (ETag, 304); answers to a token are private', async () => {
    const first = await t.http.get('/api/scanner?asset=usdc').expect(200);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    expect(first.headers['vary']).toBe('Accept-Encoding, Authorization');
    expect(first.headers['etag']).toMatch(/^"[\w-]+"$/);
    await t.http
      .get('/api/scanner?asset=usdc')
      .set('If-None-Match', first.headers['etag'] as string)
      .expect(304);
    const other = await t.http.get('/api/scanner?asset=weth').expect(200);
    expect(other.headers['etag']).not.toBe(first.headers['etag']);

    for (const token of [premium, tokens.expired()]) {
      const res = await t.http
        .get('/api/scanner?asset=usdc')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['etag']).toBeUndefined();
    }
  });
});

describe('CSV', () => {
  it('premium gets text/csv: one header line, one line per item, in ranking order', async () => {
    const q = { asset: 'usdc', chain: 'Ethereum', limit: 200 };
    const res = await t.http
      .get(url({ ...q, format: 'csv' }))
      .set('Authorization', `Bearer ${premium}`)
      .expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="pigi-scanner-2026-11-21.csv"',
    );
    const lines = res.text.split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines[0]).toBe(CSV_COLUMNS.join(','));
    const json = await scan(q);
    expect(lines.length - 1).toBe(json.items.length);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(json.items.map((i) => i.pool));
    const first = json.items[0]!;
    const cells = lines[1]!.split(',');
    const col = (name: (typeof CSV_COLUMNS)[number]) => cells[CSV_COLUMNS.indexOf(name)];
    expect(col('riskAdjustedApr')).toBe(String(first.riskAdjustedApr));
    expect(col('charges.safety')).toBe(String(first.charges.safety));
    expect(col('stablecoin')).toBe(String(first.stablecoin));
    expect(col('url')).toBe(first.url);
  });

  it('escapes commas, quotes and line breaks, and defuses formulas', async () => {
    const res = await t.http
      .get('/api/scanner?project=csv-check&format=csv&includeOutliers=true&sort=tvl')
      .set('Authorization', `Bearer ${premium}`)
      .expect(200);
    const json = await scan({ project: 'csv-check', includeOutliers: true, sort: 'tvl' });
    expect(json.total).toBe(3);
    const symbolCell: Record<string, string> = {
      'USDC,E-"WETH"': '"USDC,E-""WETH"""',
      '=HYPERLINK("x")-USDC': `"'=HYPERLINK(""x"")-USDC"`,
      'USD\nT': '"USD\nT"',
    };
    const body = res.text;
    for (const item of json.items) {
      expect(body).toContain(`,csv-check,${item.chain},${symbolCell[item.symbol]!},`);
    }
    expect(body).toContain(',"Curated, ""safe""",');
    // Three records after the header, whatever the quoted line break inside one of them.
    expect(body.split('\r\n').filter((l) => l !== '')).toHaveLength(4);
  });
});

describe('bad parameters', () => {
  it.each([
    ['unknown=1', 'Unknown query parameter "unknown"'],
    ['assets=USDC', 'Unknown query parameter "assets"'],
    ['asset=USDC&asset=DAI', 'Query parameter asset is given more than once'],
    [`asset=${'x'.repeat(65)}`, 'asset must be at most 64 characters'],
    [`chain=${'x'.repeat(65)}`, 'chain must be at most 64 characters'],
    [`project=${'x'.repeat(101)}`, 'project must be at most 100 characters'],
    ['stablecoin=yes', 'stablecoin must be true or false'],
    ['stablecoin=1', 'stablecoin must be true or false'],
    ['minTvl=-5', 'minTvl must be an amount of US dollars, 0 or more (e.g. 1000000)'],
    ['minTvl=1e6', 'minTvl must be an amount of US dollars, 0 or more (e.g. 1000000)'],
    ['minTvl=lots', 'minTvl must be an amount of US dollars, 0 or more (e.g. 1000000)'],
    ['sort=yield', 'sort must be one of riskAdjusted, apy, tvl'],
    ['sort=APY', 'sort must be one of riskAdjusted, apy, tvl'],
    ['limit=0', 'limit must be a whole number from 1 to 500'],
    ['limit=501', 'limit must be a whole number from 1 to 500'],
    ['limit=10.5', 'limit must be a whole number from 1 to 500'],
    ['limit=ten', 'limit must be a whole number from 1 to 500'],
    ['offset=-1', 'offset must be a whole number from 0 to 1000000'],
    ['offset=1000001', 'offset must be a whole number from 0 to 1000000'],
    ['includeOutliers=yes', 'includeOutliers must be true or false'],
    ['format=xml', 'format must be json or csv'],
  ])('%s → 400 with the reason', async (query, message) => {
    const res = await t.http.get(`/api/scanner?${query}`).expect(400);
    expect(res.body.error.code).toBe('invalid_query');
    expect(res.body.error.message).toContain(message);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('a bad parameter is a 400 with premium too, and before the CSV check', async () => {
    await t.http.get('/api/scanner?limit=0&format=csv').expect(400);
    await t.http.get('/api/scanner?sort=x').set('Authorization', `Bearer ${premium}`).expect(400);
  });
});
