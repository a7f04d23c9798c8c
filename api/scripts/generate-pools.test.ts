import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { poolsFileSchema, poolSchema } from '../src/modules/import/pools-file.ts';
import { DEFAULT_DATA_DIR } from '../src/composition/deps.ts';
import { generatePoolsResponse, sampleSnapshotText, SAMPLE_POOL_COUNT } from './generate-pools.ts';

describe('/pools sample generator', () => {
  it('is deterministic: the shipped pools.json is exactly its output, marked sample', async () => {
    const shipped = await readFile(path.join(DEFAULT_DATA_DIR, 'pools.json'), 'utf8');
    expect(sampleSnapshotText()).toBe(shipped);
    const file = poolsFileSchema.parse(JSON.parse(shipped));
    expect(file.sample).toBe(true);
    expect(file.note).toMatch(/^Sample data/);
    expect(file.data).toHaveLength(SAMPLE_POOL_COUNT);
  });

  it("gives DeFiLlama's shape: every column, every pool valid, sorted by TVL, unique ids", () => {
    const { status, data } = generatePoolsResponse({ count: 2000, seed: 5 });
    expect(status).toBe('success');
    const columns = Object.keys(poolSchema.shape).sort();
    for (const p of data) {
      expect(Object.keys(p).sort()).toEqual(columns);
      expect(poolSchema.safeParse(p).success).toBe(true);
    }
    const tvl = data.map((p) => p.tvlUsd as number);
    expect(tvl).toEqual([...tvl].sort((a, b) => b - a));
    expect(new Set(data.map((p) => p.pool)).size).toBe(2000);
  });

  it("flags outliers by DeFiLlama's rule: mu or sigma outside median ± 1.5·IQR", () => {
    const { data } = generatePoolsResponse({ count: 2000, seed: 5 });
    const outliers = data.filter((p) => p.outlier);
    expect(outliers.length).toBeGreaterThan(0);
    expect(outliers.length).toBeLessThan(data.length / 2);
    // An interval rule: every outlier lies outside the range of mu or of sigma of the others.
    const kept = data.filter((p) => !p.outlier);
    const range = (key: 'mu' | 'sigma') => {
      const values = kept.map((p) => p[key] as number);
      return [Math.min(...values), Math.max(...values)] as const;
    };
    const [muLo, muHi] = range('mu');
    const [sigmaLo, sigmaHi] = range('sigma');
    for (const p of outliers) {
      const mu = p.mu as number;
      const sigma = p.sigma as number;
      expect(mu < muLo || mu > muHi || sigma < sigmaLo || sigma > sigmaHi).toBe(true);
    }
  });

  it('a different seed gives different pools', () => {
    expect(generatePoolsResponse({ count: 5, seed: 1 }).data[0]!.pool).not.toBe(
      generatePoolsResponse({ count: 5, seed: 2 }).data[0]!.pool,
    );
  });
});
