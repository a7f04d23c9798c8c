/**
 * GET /api/net-yield and its ranking against the served history and the costs stored in
 * costs.json: the formula of docs/methodology.md "Net yield", written out again here.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NET_YIELD_MAX_DAYS,
  type HistoryResponse,
  type NetYieldAnswer,
  type NetYieldRankingAnswer,
} from '@yield/contract';
import type { CostsFile } from '../src/modules/net-yield/index.ts';
import { setup, tempDataDir, type TestContext } from './helpers.ts';

const DAY = '2026-11-21';
const ETH_USD = 3311.43; // prices.json's ETH price that day
const known = (wei: string, usd: number) => ({
  chain: 'ethereum',
  address: '0x0000000000000000000000000000000000000001',
  kind: 'erc4626',
  readAt: `${DAY}T06:00:00.000Z`,
  block: '123',
  entry: { rate: 0.001, date: DAY },
  exit: { rate: 0.002, date: DAY },
  gasUnits: { deposit: 60_095, withdraw: 55_517, date: DAY },
  gasPrice: { wei, date: DAY },
  nativeUsd: { coin: 'coingecko:ethereum', usd, date: DAY },
});
const COSTS: CostsFile = {
  sources: {
    '2': known('2000000000', ETH_USD),
    '9': known('3000000000', ETH_USD),
    '5': {
      ...known('1', ETH_USD),
      gasPrice: { unknown: 'gas price not readable: the node did not answer', date: DAY },
    },
  },
};

let t: TestContext;
beforeAll(async () => {
  const dir = await tempDataDir();
  await writeFile(path.join(dir, 'costs.json'), JSON.stringify(COSTS));
  t = await setup({ dir });
});
afterAll(async () => {
  await t.cleanup();
});

const get = async (id: number, amount: number, days: number) =>
  (await t.http.get(`/api/net-yield?id=${id}&amount=${amount}&days=${days}`).expect(200))
    .body as NetYieldAnswer;
const lastApr = async (id: number | string) =>
  ((await t.http.get(`/api/history?id=${id}&range=7D`).expect(200)).body as HistoryResponse)
    .lastApr;

/** (amount − costs) × (1 + APR/100/365)^days, and the first day it reaches the amount. */
function expected(amount: number, costs: number, apr: number, days: number) {
  const grow = (d: number) => (amount - costs) * Math.pow(1 + apr / 100 / 365, d);
  let breakEven = 0;
  while (grow(breakEven) < amount) breakEven++;
  const net = grow(days);
  return { net, netApr: (net / amount - 1) * (365 / days) * 100, breakEven };
}

describe('GET /api/net-yield', () => {
  it('takes the stored fee rates and gas out of a dollar deposit', async () => {
    const body = await get(2, 500, 365);
    const gasIn = ((60_095 * 2e9) / 1e18) * ETH_USD;
    const gasOut = ((55_517 * 2e9) / 1e18) * ETH_USD;
    expect(body).toMatchObject({ id: 2, unit: 'USD', chain: 'ethereum', costsAsOf: DAY });
    expect(body.unitPriceUsd).toBe(1);
    expect(body.costs.entry).toEqual({ amount: 0.5, usd: 0.5, unknown: null });
    expect(body.costs.exit).toEqual({ amount: 1, usd: 1, unknown: null });
    expect(body.costs.gasIn.amount).toBeCloseTo(gasIn, 12);
    expect(body.costs.gasOut.usd).toBeCloseTo(gasOut, 12);
    const total = 1.5 + gasIn + gasOut;
    expect(body.totalCost).toBeCloseTo(total, 12);
    const apr = await lastApr(2);
    expect(body.apr).toBe(apr);
    const e = expected(500, total, apr, 365);
    expect(body.netAmount).toBeCloseTo(e.net, 9);
    expect(body.netApr).toBeCloseTo(e.netApr, 9);
    expect(body.breakEvenDays).toBe(e.breakEven);
    const base = expected(500, 0, await lastApr('base-stablecoin'), 365);
    expect(body.base).toMatchObject({ key: 'base-stablecoin', breakEvenDays: 0 });
    expect(body.base.netAmount).toBeCloseTo(base.net, 9);
  });

  it("puts an ETH source's gas in ETH at the day's ETH price", async () => {
    const body = await get(9, 2, 30);
    expect(body).toMatchObject({ unit: 'ETH', unitPriceUsd: ETH_USD, costsAsOf: DAY });
    expect(body.costs.gasIn.amount).toBeCloseTo((60_095 * 3e9) / 1e18, 15);
    expect(body.costs.gasIn.usd).toBeCloseTo(((60_095 * 3e9) / 1e18) * ETH_USD, 10);
    expect(body.costs.entry.amount).toBeCloseTo(0.002, 15);
  });

  it.each([
    [6, 'Not read from the chain: this source has no contract we read', 'has no contract we read'],
    [4, 'does not preview its fees', 'No measured gas figure for this kind of contract'],
    [7, 'no import has read this contract', 'no import has read this contract'],
    [5, null, 'gas price not readable'],
  ] as const)('source %d: which cost is unknown and why', async (id, fee, gas) => {
    const body = await get(id, 1000, 90);
    if (fee === null) expect(body.costs.entry.unknown).toBeNull();
    else expect(body.costs.entry.unknown).toContain(fee);
    expect(body.costs.gasOut).toEqual({
      amount: null,
      usd: null,
      unknown: expect.stringContaining(gas),
    });
    expect(body).toMatchObject({
      netAmount: null,
      netApr: null,
      breakEvenDays: null,
      totalCost: null,
    });
    expect(body.apr).toBe(await lastApr(id));
  });

  it.each([
    ['id=abc&amount=1&days=30', 'invalid_id'],
    ['id=999&amount=1&days=30', 'invalid_id'],
    ['id=base-defi&amount=1&days=30', 'invalid_id'],
    ['amount=1&days=30', 'invalid_id'],
    ['id=2&amount=0&days=30', 'invalid_amount'],
    ['id=2&amount=1e3&days=30', 'invalid_amount'],
    ['id=2&days=30', 'invalid_amount'],
    ['id=2&amount=1&days=0', 'invalid_days'],
    ['id=2&amount=1&days=1.5', 'invalid_days'],
    [`id=2&amount=1&days=${NET_YIELD_MAX_DAYS + 1}`, 'invalid_days'],
    ['id=2&amount=1', 'invalid_days'],
  ])('%s → 400 %s', async (query, code) => {
    const res = await t.http.get(`/api/net-yield?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
  });
});

describe('GET /api/net-yield/ranking', () => {
  it('ranks every source by net APR, the unknown ones last by gross APR', async () => {
    const res = await t.http.get('/api/net-yield/ranking?amount=500&days=365').expect(200);
    const body = res.body as NetYieldRankingAnswer;
    expect(body).toMatchObject({ amount: 500, days: 365 });
    const sources = (await t.http.get('/api/sources').expect(200)).body as { id: number }[];
    expect(body.items.map((i) => i.id).sort((a, b) => a - b)).toEqual(
      sources
        .map((s) => s.id)
        .filter((id) => id > 0)
        .sort((a, b) => a - b),
    );
    const knownIds = body.items.filter((i) => i.netApr !== null).map((i) => i.id);
    expect(knownIds.sort()).toEqual([2, 9]);
    expect(
      body.items
        .slice(0, 2)
        .map((i) => i.id)
        .sort(),
    ).toEqual([2, 9]);
    expect(body.items[0]!.netApr!).toBeGreaterThanOrEqual(body.items[1]!.netApr!);
    const rest = body.items.slice(2);
    for (let i = 1; i < rest.length; i++)
      expect(rest[i - 1]!.apr).toBeGreaterThanOrEqual(rest[i]!.apr);
    expect(rest.find((i) => i.id === 5)!.unknownCosts).toEqual(['gasIn', 'gasOut']);
    expect(rest.find((i) => i.id === 6)!.unknownCosts).toEqual([
      'entry',
      'exit',
      'gasIn',
      'gasOut',
    ]);
    const two = body.items.find((i) => i.id === 2)!;
    expect(two.netApr).toBeCloseTo((await get(2, 500, 365)).netApr!, 12);
  });

  it.each([
    ['amount=abc&days=30', 'invalid_amount'],
    ['days=30', 'invalid_amount'],
    ['amount=1&days=abc', 'invalid_days'],
    ['amount=1', 'invalid_days'],
  ])('%s → 400 %s', async (query, code) => {
    const res = await t.http.get(`/api/net-yield/ranking?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
  });
});
