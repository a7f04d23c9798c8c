import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyFileSchema, liquidityFileSchema } from '../src/modules/yields/schemas.ts';
import { DEFAULT_DATA_DIR } from '../src/composition/deps.ts';
import {
  DEFAULT_AS_OF,
  formatHistory,
  formatLiquidity,
  generateHistory,
  generateLiquidity,
} from './generate-data.ts';

describe('sample-data generator', () => {
  it('is deterministic: the shipped files are exactly its output', async () => {
    expect(formatHistory(generateHistory())).toBe(
      await readFile(path.join(DEFAULT_DATA_DIR, 'history.json'), 'utf8'),
    );
    expect(formatLiquidity(generateLiquidity())).toBe(
      await readFile(path.join(DEFAULT_DATA_DIR, 'liquidity.json'), 'utf8'),
    );
  });

  it('a different seed gives different data', () => {
    expect(generateHistory({ seed: 1 }).series['ethena-susde']).not.toEqual(
      generateHistory().series['ethena-susde'],
    );
  });

  it('every series has at least 400 days ending on the as-of date, marked sample, valid by schema', () => {
    const h = generateHistory();
    expect(h.sample).toBe(true);
    expect(historyFileSchema.safeParse(h).success).toBe(true);
    for (const rows of Object.values(h.series)) {
      expect(rows.length).toBeGreaterThanOrEqual(400);
      expect(rows[rows.length - 1]!.date).toBe(DEFAULT_AS_OF);
    }
  });

  it('gives each market its own behaviour: Resolv collapses after 2026-03-22, Sky moves in steps, USD0++ has a sharp outflow', () => {
    const h = generateHistory();
    const usr = h.series['resolv-stusr']!;
    const cut = usr.findIndex((r) => r.date === '2026-03-22');
    expect(usr.slice(0, cut).every((r) => r.apy >= 8 && r.apy <= 10)).toBe(true);
    expect(usr.slice(cut).every((r) => r.apy < 1)).toBe(true);
    expect(usr[usr.length - 1]!.tvlUsd).toBeLessThan(usr[cut - 1]!.tvlUsd * 0.35);
    expect(new Set(h.series['sky-susds']!.map((r) => r.apy))).toEqual(new Set([6.5, 4.5, 4]));
    const usd0 = h.series['usd0pp-pool']!.map((r) => r.tvlUsd);
    const weekly = usd0.slice(7).map((v, i) => v / usd0[i]!);
    expect(Math.min(...weekly)).toBeLessThan(0.65);
    for (const r of h.series['lido-steth']!)
      expect(r.apy === 5.8 || (r.apy >= 2.6 && r.apy <= 3.2)).toBe(true);
  });

  it("liquidity series respect the panel's clamps", () => {
    const l = generateLiquidity();
    expect(liquidityFileSchema.safeParse(l).success).toBe(true);
    expect(Object.keys(l.series).sort()).toEqual(['gauntlet', 'lido', 'liquity', 'sky-spark']);
  });
});
