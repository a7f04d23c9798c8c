/** Every source's exit (kind, days, note, link, verified) from sources.json in GET /api/sources. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_KINDS, type YieldSource } from '@yield/contract';
import { setup, type TestContext } from './helpers.ts';

let t: TestContext;
let rows: YieldSource[];
beforeAll(async () => {
  t = await setup();
  rows = (await t.http.get('/api/sources').expect(200)).body as YieldSource[];
});
afterAll(async () => {
  await t.cleanup();
});

const exitOf = (id: number) => rows.find((r) => r.id === id && !r.isBaseRate)!.exit;

describe('exit in GET /api/sources', () => {
  it('every source carries a researched, dated exit; a base rate none', () => {
    for (const row of rows) {
      if (row.isBaseRate) {
        expect(row.exit).toBeNull();
        continue;
      }
      expect(EXIT_KINDS).toContain(row.exit.kind);
      expect(row.exit.link).toMatch(/^https:\/\//);
      expect(row.exit.verified).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(row.exit.note.length).toBeGreaterThan(20);
      expect(row.exit.kind === 'instant').toBe(row.exit.days === 0);
    }
  });

  it("names sUSDe's cooldown, the stETH withdrawal queue, USD0++'s lock and instant savings", () => {
    expect(exitOf(5)).toMatchObject({ kind: 'cooldown', days: 7 });
    expect(exitOf(13)).toMatchObject({ kind: 'queue', days: 5 });
    expect(exitOf(6)).toMatchObject({ kind: 'lock' });
    expect(exitOf(2)).toMatchObject({ kind: 'instant', days: 0 });
  });
});

describe('deposits in GET /api/sources', () => {
  it('a source whose provider closed deposits has no deposit link and says why', () => {
    const resolv = rows.find((r) => r.id === 8 && !r.isBaseRate);
    if (!resolv || resolv.isBaseRate) throw new Error('source 8 missing');
    expect(resolv.depositUrl).toBeNull();
    expect(resolv.depositsPaused).toMatchObject({
      since: '2026-03-22',
      link: 'https://resolv.xyz/blog/resolv-postmortem-march-22-2026-incident',
    });
    const lido = rows.find((r) => r.id === 13 && !r.isBaseRate);
    if (!lido || lido.isBaseRate) throw new Error('source 13 missing');
    expect(lido.depositUrl).toBe('https://stake.lido.fi/');
    expect(lido).not.toHaveProperty('depositsPaused');
  });
});
