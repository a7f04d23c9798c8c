/**
 * The figures of docs/methodology.md ("Pools: rapool-v2") and of the /methodology page are those
 * method:fit computes from the real histories, and RAPOOL_V2 holds the fitted coefficients.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { POOL_CATEGORIES, RAPOOL_V2 } from '../src/engine/rapool2.ts';
import {
  BEGIN_MARKER,
  DOCS_FILE,
  END_MARKER,
  PAGE_FIT_FILE,
  reportMarkdown,
  runFit,
} from '../scripts/method-fit.ts';
import { REAL_LLAMA, requireRealLlama } from './real-llama.ts';

describe('method:fit', () => {
  it(
    'reproduces the figures published in docs/methodology.md and on /methodology',
    { timeout: 240_000 },
    async () => {
      await requireRealLlama();
      const report = await runFit(REAL_LLAMA, path.join(REAL_LLAMA, 'pools.json'));

      const doc = await readFile(DOCS_FILE, 'utf8');
      const start = doc.indexOf(BEGIN_MARKER);
      const end = doc.indexOf(END_MARKER);
      expect(start, 'docs/methodology.md has the method:fit markers').toBeGreaterThan(0);
      expect(
        doc.slice(start, end + END_MARKER.length),
        'docs/methodology.md is not current: run pnpm --filter @yield/api method:fit -- --charts ../../shared/real-llama --pools ../../shared/real-llama/pools.json --write',
      ).toBe(reportMarkdown(report));
      expect(JSON.parse(await readFile(PAGE_FIT_FILE, 'utf8'))).toEqual(report);

      // The method runs with the coefficients the fit found.
      const c = report.coefficients;
      expect({
        trim: RAPOOL_V2.trim,
        rewardKeep: RAPOOL_V2.rewardKeep,
        beta: RAPOOL_V2.beta,
        ageHalfDays: RAPOOL_V2.ageHalfDays,
        priors: { ...RAPOOL_V2.priors },
      }).toEqual({
        trim: c.trim,
        rewardKeep: c.rewardKeep,
        beta: c.beta,
        ageHalfDays: c.ageHalfDays,
        priors: Object.fromEntries(POOL_CATEGORIES.map((k) => [k, c.priors[k]])),
      });

      // Out of time, expected ranks better than the raw APY, its top 10 disappoint less often and
      // are rarely understated; riskAdjusted ranks no worse than the raw APY.
      expect(report.spearman.expected).toBeGreaterThan(report.spearman.apy);
      expect(report.top10.expected.disappoint).toBeLessThan(report.top10.apy.disappoint);
      expect(report.top10.expected.understated).toBeLessThan(0.1);
      expect(report.spearman.riskAdjusted).toBeGreaterThanOrEqual(report.spearman.apy);
    },
  );
});
