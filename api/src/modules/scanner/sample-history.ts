/**
 * A generated daily history for a pool of the shipped sample snapshot (a fresh clone has no
 * DeFiLlama history): `days` days ending on the snapshot's day, wandering around the pool's
 * current APY and TVL, the same for the same pool id. Served marked `sample: true`, like the rest
 * of the sample data; never written to the store and never used for the scanner's figures.
 */
import type { PoolDay } from '../import/index.ts';

function seedOf(id: string): number {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** mulberry32 */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sampleHistory(
  pool: { pool: string; apy: number; apyReward?: number | null | undefined; tvlUsd: number },
  lastDay: string,
  days = 90,
): PoolDay[] {
  const next = random(seedOf(pool.pool));
  const end = Date.parse(`${lastDay}T00:00:00Z`);
  const rewardShare = pool.apy > 0 && pool.apyReward ? Math.min(1, pool.apyReward / pool.apy) : 0;
  const out: PoolDay[] = [];
  let apyFactor = 1;
  let tvlFactor = 1;
  for (let k = 0; k < days; k++) {
    const date = new Date(end - k * 86_400_000).toISOString().slice(0, 10);
    // Walk backwards from today's values so that the last day equals the snapshot.
    const apy = Math.max(0, pool.apy * apyFactor);
    const apyReward = rewardShare > 0 ? apy * rewardShare : null;
    out.unshift({
      date,
      apy: Math.round(apy * 1e4) / 1e4,
      apyBase: Math.round((apy - (apyReward ?? 0)) * 1e4) / 1e4,
      apyReward: apyReward === null ? null : Math.round(apyReward * 1e4) / 1e4,
      tvlUsd: Math.round(pool.tvlUsd * tvlFactor),
    });
    apyFactor *= 1 + (next() - 0.5) * 0.08;
    tvlFactor *= 1 + (next() - 0.5) * 0.04;
  }
  return out;
}
