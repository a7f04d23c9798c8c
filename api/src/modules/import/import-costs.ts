/**
 * The costs of every on-chain feed of kind erc4626 read at import and kept in costs.json, dated
 * (GET /api/net-yield reads them; docs/methodology.md "Net yield", docs/decisions.md 55): the
 * vault's entry and exit fee rates from its previews, the measured gas units of its kind, the
 * chain's gas price (eth_feeHistory) and the native token's USD price (the coins API's price
 * imported into prices.json just before). A part that cannot be read is kept with its reason, but
 * a failed read never replaces a part read well before: that one stays, with its own day.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createPublicClient, http, parseAbi, type Address, type PublicClient } from 'viem';
import { DataFileError, type FilesView, type FileSpec } from '../../platform/files/data-store.ts';
import type { Logger } from '../../platform/logger.ts';
import { ETH_COIN, type PricesFile, type SourcesFile } from '../yields/index.ts';
import type { CostsFile, SourceCostsRecord } from '../net-yield/index.ts';
import { readSourceCosts } from './costs.ts';
import { guardedWrite } from './guarded-write.ts';
import { rpcReason, rpcVariable } from './onchain.ts';

/** The coins API's name of each chain's native token, which its gas is paid in. */
export const NATIVE_COINS: Readonly<Record<string, string>> = {
  ethereum: ETH_COIN,
  base: ETH_COIN,
  arbitrum: ETH_COIN,
  optimism: ETH_COIN,
};

/** The kinds of contract whose costs are read (previews and a measured gas figure). */
const COST_KINDS = new Set(['erc4626']);
/** The reference deposit the fee rates are read at: 1,000 whole units of the vault's asset. */
const REFERENCE_UNITS = 1000n;

const DECIMALS_ABI = parseAbi([
  'function asset() view returns (address)',
  'function decimals() view returns (uint8)',
]);

interface CostTarget {
  id: number;
  chain: string;
  kind: string;
  address: Address;
}

/** Every source whose costs are read: an on-chain feed of a kind in COST_KINDS. */
export function costTargets(sources: SourcesFile): CostTarget[] {
  return sources.sources.flatMap((s) =>
    (s.feeds ?? []).flatMap((f) =>
      f.provider === 'onchain' && COST_KINDS.has(f.kind)
        ? [{ id: s.id, chain: f.chain, kind: f.kind, address: f.address as Address }]
        : [],
    ),
  );
}

/** The native tokens to price for the costs (their chains' gas). */
export function costCoins(sources: SourcesFile): string[] {
  const coins = costTargets(sources).flatMap((t) => NATIVE_COINS[t.chain] ?? []);
  return [...new Set(coins)];
}

/** A coin's newest price imported from the coins API on or before `day` (sample prices never count). */
export function importedPriceOn(prices: PricesFile | null, coin: string, day: string) {
  if (!prices?.provenance?.[coin]) return null;
  let found: { date: string; price: number } | null = null;
  for (const r of prices.coins[coin] ?? []) if (r.date <= day) found = r;
  return found;
}

export interface CostOutcome {
  id: number;
  ok: boolean;
  /** Why a part (or the whole read) is unknown; null when every part was read. */
  reason: string | null;
}

/** The vault asset's decimals (its reference amount): 18 when the vault does not say. */
async function assetDecimals(client: PublicClient, vault: Address): Promise<number> {
  try {
    const asset = await client.readContract({
      address: vault,
      abi: DECIMALS_ABI,
      functionName: 'asset',
    });
    return await client.readContract({
      address: asset,
      abi: DECIMALS_ABI,
      functionName: 'decimals',
    });
  } catch {
    return 18;
  }
}

/** One source's costs as read now, every part dated (unknown ones with the reason). */
async function readCosts(
  client: PublicClient,
  target: CostTarget,
  prices: PricesFile | null,
  now: Date,
): Promise<SourceCostsRecord> {
  const base = {
    chain: target.chain,
    address: target.address,
    kind: target.kind,
    readAt: now.toISOString(),
  };
  const today = now.toISOString().slice(0, 10);
  try {
    const decimals = await assetDecimals(client, target.address);
    const read = await readSourceCosts(
      client,
      target.address,
      target.kind,
      REFERENCE_UNITS * 10n ** BigInt(decimals),
    );
    const date = read.date;
    const dated = <T extends object>(part: T) => ({ ...part, date });
    const coin = NATIVE_COINS[target.chain];
    const price = coin ? importedPriceOn(prices, coin, date) : null;
    return {
      ...base,
      block: read.block,
      entry: dated(read.entry),
      exit: dated(read.exit),
      gasUnits: dated(read.gasUnits),
      gasPrice:
        'value' in read.gasPriceWei
          ? { wei: read.gasPriceWei.value, date }
          : dated(read.gasPriceWei),
      nativeUsd:
        price && coin
          ? { coin, usd: price.price, date: price.date }
          : {
              unknown: coin
                ? `no ${coin} price imported from the coins API`
                : `no native token known for chain ${target.chain}`,
              date,
            },
    };
  } catch (err) {
    const unknown = { unknown: `not read: ${rpcReason(err)}`, date: today };
    return {
      ...base,
      block: null,
      entry: unknown,
      exit: unknown,
      gasUnits: unknown,
      gasPrice: unknown,
      nativeUsd: unknown,
    };
  }
}

const PARTS = ['entry', 'exit', 'gasUnits', 'gasPrice', 'nativeUsd'] as const;

/** The new read, except that a part read well before and not now keeps its last good value. */
export function mergeCosts(
  old: SourceCostsRecord | undefined,
  next: SourceCostsRecord,
): SourceCostsRecord {
  if (!old) return next;
  const merged = { ...next, block: next.block ?? old.block };
  for (const part of PARTS)
    if ('unknown' in next[part] && !('unknown' in old[part]))
      (merged as Record<string, unknown>)[part] = old[part];
  return merged;
}

/** Why the parts of a read are unknown (null when none is). */
function reasonOf(rec: SourceCostsRecord): string | null {
  const reasons = PARTS.flatMap((p) => {
    const part = rec[p];
    return 'unknown' in part ? [`${p}: ${part.unknown}`] : [];
  });
  return reasons.length ? reasons.join('; ') : null;
}

export interface CostsImportOptions {
  store: FilesView<{ costs: FileSpec<CostsFile>; prices: FileSpec<PricesFile> }>;
  rpcUrls?: Readonly<Record<string, string>> | undefined;
  timeoutMs: number;
  dryRun: boolean;
  now: Date;
  logger: Logger;
}

/**
 * prices.json as the import just wrote it: read from the file, since with published data the store
 * keeps serving the published version until the import is published.
 */
async function pricesOnDisk(store: CostsImportOptions['store']): Promise<PricesFile | null> {
  const spec = store.spec('prices');
  try {
    const text = await readFile(path.join(store.dir, spec.file), 'utf8');
    const parsed = spec.schema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // No file, or not JSON: the store's copy below.
  }
  return store.get('prices');
}

/** Reads every erc4626 feed's costs and (unless a dry run) merges them into costs.json; never throws. */
export async function importCosts(
  sources: SourcesFile,
  options: CostsImportOptions,
): Promise<CostOutcome[]> {
  const { store, now, logger } = options;
  const prices = await pricesOnDisk(store);
  const reads = await Promise.all(
    costTargets(sources).map(async (target) => {
      const rpcUrl = options.rpcUrls?.[target.chain];
      if (!rpcUrl)
        return {
          target,
          record: null,
          reason: `${rpcVariable(target.chain)} is not set: costs not read`,
        };
      const client = createPublicClient({
        transport: http(rpcUrl, { timeout: options.timeoutMs, retryCount: 1 }),
      }) as PublicClient;
      const record = await readCosts(client, target, prices, now);
      return { target, record, reason: reasonOf(record) };
    }),
  );
  const writeError = options.dryRun ? null : await writeCosts(store, reads);
  return reads.map(({ target, reason }) => {
    const why = reason ?? (writeError ? `not written: ${writeError}` : null);
    const outcome: CostOutcome = { id: target.id, ok: why === null, reason: why };
    if (outcome.ok) logger.info('costs imported', { ...outcome });
    else logger.warn('costs not all read, keeping the last good ones', { ...outcome });
    return outcome;
  });
}

/** Merges the reads into costs.json; the error that kept it from being written, else null. */
async function writeCosts(
  store: CostsImportOptions['store'],
  reads: { target: CostTarget; record: SourceCostsRecord | null }[],
): Promise<string | null> {
  const records = reads.filter((r) => r.record !== null);
  if (records.length === 0) return null;
  try {
    await store.refreshFile('costs');
    const spec = store.spec('costs');
    await guardedWrite({
      file: path.join(store.dir, spec.file),
      schema: spec.schema,
      empty: spec.empty,
      update: (current) => {
        const sources = { ...current.sources };
        for (const { target, record } of records)
          sources[String(target.id)] = mergeCosts(sources[String(target.id)], record!);
        return { ...current, sources };
      },
    });
    await store.refreshFile('costs');
    return null;
  } catch (err) {
    return err instanceof DataFileError ? err.message : `costs.json: ${(err as Error).message}`;
  }
}
