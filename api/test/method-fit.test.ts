/**
 * The figures of docs/methodology.md ("Pools: rapool-v2") and of the /methodology page are those
 * method:fit computes from the real histories, and RAPOOL_V2 holds the fitted coefficients.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { POOL_CATEGORIES, RAPOOL_V3 } from '../src/engine/rapool2.ts';
import {
  BEGIN_MARKER,
  DOCS_FILE,
  END_MARKER,
  PAGE_FIT_FILE,
  reportMarkdown,
  runFit,
  type FitReport,
} from '../scripts/method-fit.ts';
import { REAL_LLAMA, requireRealLlama } from './real-llama.ts';

describe('method:fit', () => {
  let once: Promise<FitReport> | undefined;
  const fitReport = () => (once ??= runFit(REAL_LLAMA, path.join(REAL_LLAMA, 'pools.json')));

  it(
    'reproduces the figures published in docs/methodology.md and on /methodology',
    { timeout: 240_000 },
    async () => {
      await requireRealLlama();
      const report = await fitReport();

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
        trim: RAPOOL_V3.trim,
        rewardKeep: RAPOOL_V3.rewardKeep,
        beta: RAPOOL_V3.beta,
        ageHalfDays: RAPOOL_V3.ageHalfDays,
        volShare: RAPOOL_V3.volShare,
        priors: { ...RAPOOL_V3.priors },
      }).toEqual({
        trim: c.trim,
        rewardKeep: c.rewardKeep,
        beta: c.beta,
        ageHalfDays: c.ageHalfDays,
        volShare: c.volShare,
        priors: Object.fromEntries(POOL_CATEGORIES.map((k) => [k, c.priors[k]])),
      });

      // Out of time, judged against the APR paid: expected ranks better than the raw APY, its top
      // 10 disappoint less often and are rarely understated; riskAdjusted's top 10 disappoint less
      // often than the raw APY's.
      expect(report.method).toBe('rapool-v3');
      expect(report.spearman.expected).toBeGreaterThan(report.spearman.apy);
      expect(report.top10.expected.disappoint).toBeLessThan(report.top10.apy.disappoint);
      expect(report.top10.expected.understated).toBeLessThan(0.1);
      expect(report.top10.riskAdjusted.disappoint).toBeLessThan(report.top10.apy.disappoint);
    },
  );

  it(
    "the published forecast's top 10 disappoint, out of time, no more often than the baseline's",
    { timeout: 240_000 },
    async () => {
      await requireRealLlama();
      const report = await fitReport();
      // Fit on days before the cut date, judged on the days from it on, against the APR paid:
      // the share of each day's top 10 that paid under half the figure.
      expect(report.test.from >= report.cutDate && report.fit.to < report.cutDate).toBe(true);
      expect(report.test.days).toBeGreaterThan(100);
      expect(report.top10.baseline.disappoint).toBeGreaterThan(0);
      expect(report.top10.expected.disappoint).toBeLessThanOrEqual(
        report.top10.baseline.disappoint,
      );
    },
  );
});
