/**
 * Scanner test fixtures: generated /pools snapshots (api/scripts/generate-pools.ts, fixed seed)
 * written into a test's temp data dir, the safety table of the shipped tiers, and tokens.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { generatePoolsResponse, POOLS_AS_OF } from '../scripts/generate-pools.ts';
import type { PoolsFile } from '../src/modules/import/pools-file.ts';
import type { ProjectTiersFile } from '../src/modules/scanner/schemas.ts';
import type { SourcesFile } from '../src/modules/yields/schemas.ts';
import { signPremiumToken } from '../src/modules/premium/tokens.ts';
import { formatPoolsFile, preparePoolsSnapshot } from '../src/modules/import/import-pools.ts';
import { projectSafetyTable } from '../src/modules/scanner/project-safety.ts';
import { createInvite } from '../src/modules/premium/invite-codes.ts';
import { editFile, TEST_SECRET, type TestContext } from './helpers.ts';

export const BIG_SNAPSHOT = 20_000;

/** Pools whose names a CSV writer must escape (commas, quotes, a line break, a formula). */
export function awkwardPools(): Record<string, unknown>[] {
  const base = generatePoolsResponse({ count: 3, seed: 99 }).data;
  const names = ['USDC,E-"WETH"', '=HYPERLINK("x")-USDC', 'USD\nT'];
  return base.map((p, i) => ({
    ...p,
    project: 'csv-check',
    symbol: names[i],
    poolMeta: i === 0 ? 'Curated, "safe"' : null,
    outlier: false,
  }));
}

/** Generates and writes a snapshot into `dir`; returns the file as the server will load it. */
export async function writeSnapshot(
  dir: string,
  options: { count?: number; seed?: number; extra?: Record<string, unknown>[]; fetchedAt?: Date },
): Promise<PoolsFile> {
  const raw = generatePoolsResponse({ count: options.count ?? 500, seed: options.seed });
  raw.data.push(...(options.extra ?? []));
  const { file } = preparePoolsSnapshot(raw, {
    fetchedAt: options.fetchedAt ?? POOLS_AS_OF,
    sample: true,
  });
  await editFile(path.join(dir, 'pools.json'), formatPoolsFile(file));
  return file;
}

/** The safety score of each project, from the data dir's tiers and sources at the snapshot date. */
export async function safetyOfDir(dir: string, asOf: string | null) {
  const read = async <T>(name: string) =>
    JSON.parse(await readFile(path.join(dir, name), 'utf8')) as T;
  const table = projectSafetyTable(
    await read<ProjectTiersFile>('project-tiers.json'),
    await read<SourcesFile>('sources.json'),
    asOf?.slice(0, 10) ?? null,
  );
  return (project: string) => table.of(project).safety;
}

const user = {
  userId: 'scanner-user',
  email: 'saver@example.com',
  accessLevel: 'premium' as const,
};

/**
 * The token of a real premium member of `t` (an invite redeemed through POST /api/premium): the
 * API honours a token only while its user exists. One per test context.
 */
const members = new WeakMap<TestContext, Promise<string>>();
export function premiumToken(t: TestContext): Promise<string> {
  let token = members.get(t);
  if (!token) {
    token = (async () => {
      const { code } = await createInvite(t.deps.userData, { maxUses: 1, note: 'scanner tests' });
      const res = await t.http
        .post('/api/premium')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ inviteCode: code }))
        .expect(200);
      return res.body.token as string;
    })();
    members.set(t, token);
  }
  return token;
}

/** Tokens refused for what they are (the user they name does not exist either). */
export const tokens = {
  expired: () => signPremiumToken(user, TEST_SECRET, -60),
  wrongSignature: () => signPremiumToken(user, `${TEST_SECRET}-other`),
  notPremium: () =>
    jwt.sign({ sub: 'free-user', userId: 'free-user', accessLevel: 'free' }, TEST_SECRET, {
      algorithm: 'HS256',
      expiresIn: 3600,
    }),
};
