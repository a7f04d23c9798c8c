/** GET /api/earnings against the served history: the formula of api/src/engine/earnings.ts. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EARNINGS_MAX_AMOUNT, type EarningsAnswer, type HistoryResponse } from '@yield/contract';
import { setup, type TestContext } from './helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await setup();
});
afterAll(async () => {
  await t.cleanup();
});

/** amount × (∏(1 + apr/100/365) − 1), written out again from the history the site shows. */
async function expected(id: string, amount: number, range: string): Promise<number> {
  const history = (await t.http.get(`/api/history?id=${id}&range=${range}`).expect(200))
    .body as HistoryResponse;
  return amount * (history.data.reduce((f, p) => f * (1 + p.apr / 100 / 365), 1) - 1);
}

describe('GET /api/earnings', () => {
  it.each([
    ['3', 1000, '30D', 'USD', 'base-stablecoin'],
    ['13', 2.5, '180D', 'ETH', 'base-defi'],
    ['5', 10_000, '7D', 'USD', 'base-defi'],
  ] as const)('source %s, %d over %s', async (id, amount, range, unit, baseKey) => {
    const res = await t.http.get(`/api/earnings?id=${id}&amount=${amount}&range=${range}`);
    expect(res.status).toBe(200);
    const body = res.body as EarningsAnswer;
    expect(body).toMatchObject({ id: Number(id), amount, unit, range, base: { key: baseKey } });
    expect(body.earned).toBeCloseTo(await expected(id, amount, range), 9);
    expect(body.base.earned).toBeCloseTo(await expected(baseKey, amount, range), 9);
    expect(body.difference).toBeCloseTo(body.earned - body.base.earned, 9);
    const days = { '7D': 7, '30D': 30, '180D': 180 }[range];
    expect(body.days).toBe(days);
    expect(body.base.days).toBe(days);
    expect(Date.parse(body.to!) - Date.parse(body.from!)).toBe((days - 1) * 86_400_000);
    expect(body.earned).toBeGreaterThan(0);
  });

  it('scales with the amount', async () => {
    const one = (await t.http.get('/api/earnings?id=2&amount=1&range=90D')).body as EarningsAnswer;
    const many = (await t.http.get('/api/earnings?id=2&amount=5000&range=90D'))
      .body as EarningsAnswer;
    expect(many.earned).toBeCloseTo(one.earned * 5000, 8);
  });

  it.each([
    ['id=abc&amount=1&range=30D', 'invalid_id'],
    ['id=999&amount=1&range=30D', 'invalid_id'],
    ['id=base-defi&amount=1&range=30D', 'invalid_id'],
    ['amount=1&range=30D', 'invalid_id'],
    ['id=3&amount=0&range=30D', 'invalid_amount'],
    ['id=3&amount=-5&range=30D', 'invalid_amount'],
    ['id=3&amount=abc&range=30D', 'invalid_amount'],
    ['id=3&amount=NaN&range=30D', 'invalid_amount'],
    ['id=3&amount=1e3&range=30D', 'invalid_amount'],
    ['id=3&range=30D', 'invalid_amount'],
    [`id=3&amount=${EARNINGS_MAX_AMOUNT + 1}&range=30D`, 'invalid_amount'],
    ['id=3&amount=1&range=1Y', 'invalid_range'],
    ['id=3&amount=1', 'invalid_range'],
  ])('%s → 400 %s', async (query, code) => {
    const res = await t.http.get(`/api/earnings?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code, message: expect.any(String) } });
  });

  it('takes the largest amount allowed', async () => {
    await t.http.get(`/api/earnings?id=3&amount=${EARNINGS_MAX_AMOUNT}&range=7D`).expect(200);
  });
});
