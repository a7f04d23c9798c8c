import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { depositLinkProblem, reportLinkProblem } from '../src/platform/links.ts';
import { sourcesFileSchema, strategyContentFileSchema } from '../src/modules/yields/schemas.ts';

const shipped = async () =>
  JSON.parse(
    await readFile(path.join(import.meta.dirname, '..', 'data', 'sources.json'), 'utf8'),
  ) as {
    sources: {
      id: number;
      depositUrl: string | null;
      depositsPaused?: { since: string; note: string; link: string; verified: string };
      incidents: { link: string }[];
    }[];
  };

describe('outbound links of sources.json', () => {
  it('a deposit link opens the vault or pool itself, never a listing', () => {
    for (const generic of [
      'https://app.morpho.org/ethereum/earn',
      'https://app.morpho.org/base/earn',
      'https://app.morpho.org/',
      'https://app.morpho.org/ethereum/vault/not-an-address',
      'https://app.example.com/vaults',
      'https://app.example.com/ethereum/markets/',
    ])
      expect(depositLinkProblem(generic), generic).not.toBeNull();
    expect(
      depositLinkProblem(
        'https://app.morpho.org/ethereum/vault/0x9a8bC3B04b7f3D87cfC09ba407dCED575f2d61D8/mev-capital-weth',
      ),
    ).toBeNull();
    expect(depositLinkProblem('https://app.gauntlet.xyz/vaults/gtusda')).toBeNull();
  });

  it('an incident link opens a report, never a profile or a front page', () => {
    for (const generic of [
      'https://x.com/ResolvLabs',
      'https://twitter.com/ResolvLabs/',
      'https://resolv.xyz/',
    ])
      expect(reportLinkProblem(generic), generic).not.toBeNull();
    expect(reportLinkProblem('https://x.com/ResolvLabs/status/1903000000000000000')).toBeNull();
    expect(
      reportLinkProblem('https://resolv.xyz/blog/resolv-postmortem-march-22-2026-incident'),
    ).toBeNull();
  });

  it('the shipped sources.json passes; a generic link in it is refused with the reason', async () => {
    const file = await shipped();
    expect(sourcesFileSchema.safeParse(file).success).toBe(true);

    const listing = structuredClone(file);
    listing.sources[0]!.depositUrl = 'https://app.morpho.org/ethereum/earn';
    const refused = sourcesFileSchema.safeParse(listing);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({
      path: ['sources', 0, 'depositUrl'],
      message: expect.stringContaining('vault itself'),
    });

    const profile = structuredClone(file);
    const withIncident = profile.sources.find((source) => source.incidents.length > 0)!;
    withIncident.incidents[0]!.link = 'https://x.com/ResolvLabs';
    const refusedProfile = sourcesFileSchema.safeParse(profile);
    expect(refusedProfile.success).toBe(false);
    expect(refusedProfile.error?.issues[0]?.message).toContain('not a profile');
  });

  it('a source whose provider closed deposits sends no saver there: no link, a dated reason', async () => {
    const file = await shipped();
    // Resolv - USR Staking: staking paused by Resolv since the exploit of 2026-03-22.
    const resolv = file.sources.find((source) => source.id === 8)!;
    expect(resolv.depositUrl).toBeNull();
    expect(resolv.depositsPaused).toMatchObject({ since: '2026-03-22' });
    expect(reportLinkProblem(resolv.depositsPaused!.link)).toBeNull();

    const neither = structuredClone(file);
    delete neither.sources.find((source) => source.id === 8)!.depositsPaused;
    const refusedNeither = sourcesFileSchema.safeParse(neither);
    expect(refusedNeither.success).toBe(false);
    expect(refusedNeither.error?.issues[0]?.message).toContain(
      'depositUrl may be null only while depositsPaused',
    );

    const both = structuredClone(file);
    both.sources.find((source) => source.id === 8)!.depositUrl = 'https://app.resolv.xyz/';
    const refusedBoth = sourcesFileSchema.safeParse(both);
    expect(refusedBoth.success).toBe(false);
    expect(refusedBoth.error?.issues[0]?.message).toContain('has no depositUrl');

    // Every other source opens its vault or pool.
    for (const source of file.sources.filter((s) => s.id !== 8)) {
      expect(source.depositUrl, String(source.id)).not.toBeNull();
      expect(source.depositsPaused).toBeUndefined();
    }
  });

  it('every deposit and incident link carries the day it was verified', async () => {
    const file = (await shipped()) as unknown as {
      sources: { depositUrlVerified?: string; incidents: { linkVerified?: string }[] }[];
    };
    for (const source of file.sources) {
      expect(source.depositUrlVerified).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      for (const incident of source.incidents)
        expect(incident.linkVerified).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });
});

describe('invest links of strategy-content.json', () => {
  it('are held to the same rule as deposit links', async () => {
    const file = JSON.parse(
      await readFile(path.join(import.meta.dirname, '..', 'data', 'strategy-content.json'), 'utf8'),
    ) as { strategies: { investUrl: string }[] };
    expect(strategyContentFileSchema.safeParse(file).success).toBe(true);
    file.strategies[0]!.investUrl = 'https://app.morpho.org/base/earn';
    const refused = strategyContentFileSchema.safeParse(file);
    expect(refused.error?.issues[0]?.path).toEqual(['strategies', 0, 'investUrl']);
  });
});
