/**
 * GET /api/scanner on DeFiLlama's real /pools answer of 2025-03-08 (high-APY pools only): with
 * rapool-v3 (as rapool-v2 before it) the top picks no longer keep 200%+ "risk-adjusted" (rapool-v1 ranked a 258.98% and a
 * 217.42% pair first).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scannerAnswerSchema } from '@yield/contract';
import { formatPoolsFile, preparePoolsSnapshot } from '../src/modules/import/import-pools.ts';
import { editFile, setup, tempDataDir, type TestContext } from './helpers.ts';
import { premiumToken } from './scanner-fixtures.ts';
import { REAL_LLAMA, requireRealLlama } from './real-llama.ts';

let t: TestContext;

beforeAll(async () => {
  await requireRealLlama();
  const raw = JSON.parse(await readFile(path.join(REAL_LLAMA, 'pools.json'), 'utf8')) as unknown;
  const dir = await tempDataDir();
  const { file } = preparePoolsSnapshot(raw, {
    fetchedAt: new Date('2025-03-08T11:33:56Z'),
    sample: false,
  });
  await editFile(path.join(dir, 'pools.json'), formatPoolsFile(file));
  t = await setup({ dir });
}, 120_000);
afterAll(async () => t?.cleanup());

describe('GET /api/scanner on the real /pools answer of 2025-03-08', () => {
  it('ranks by rapool-v3 and its top picks are no longer 200%+', async () => {
    const res = await t.http.get('/api/scanner').expect(200);
    const answer = scannerAnswerSchema.parse(res.body);
    expect(answer.method).toBe('rapool-v3');
    expect(answer.items).toHaveLength(10);
    const top = answer.items[0]!;
    expect(top.riskAdjustedApr).toBeLessThan(100);
    for (const item of answer.items) {
      expect(item.riskAdjustedApr).toBeLessThan(100);
      expect(item.riskAdjustedApr).toBeLessThanOrEqual(item.expected);
      // Every pool of the store takes the snapshot path, pulled hard to its category's prior.
      expect(item.inputs.basis).toBe('snapshot');
    }
  });

  it('the 258.98% and 217.42% pairs of rapool-v1 keep well under half of their APY', async () => {
    const token = await premiumToken(t);
    const items = [];
    for (const project of ['jones-dao', 'thorchain']) {
      const res = await t.http
        .get(`/api/scanner?project=${project}&limit=500`)
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      items.push(...scannerAnswerSchema.parse(res.body).items);
    }
    const pairs = items.filter(
      (i) =>
        i.apy > 200 &&
        ((i.project === 'jones-dao' && i.symbol === 'ETH-USDC') ||
          (i.project === 'thorchain' && i.symbol === 'ETH-RUNE')),
    );
    expect(pairs).toHaveLength(2);
    for (const p of pairs) {
      expect(p.expected).toBeLessThan(p.apy / 2);
      expect(p.riskAdjustedApr).toBeLessThan(p.apy / 4);
    }
  });
});
