/**
 * Imports DeFiLlama's `GET https://yields.llama.fi/pools` response into `pools.json`, the
 * scanner's snapshot. For the live-data importer (`data:import`) and the sample generator:
 *
 *   import { importPoolsSnapshot } from './import-pools.ts';
 *   const raw = await (await fetch('https://yields.llama.fi/pools')).json();
 *   const report = await importPoolsSnapshot(raw, { dataDir, fetchedAt: new Date() });
 *   // report: { file, asOf, received, accepted, dropped, droppedByReason, leftOut }
 *
 * Each pool is validated against DeFiLlama's published shape (`poolSchema`: null elements in its
 * token lists and unknown fields are accepted); a malformed pool is dropped, counted under its
 * reason and named in `leftOut` (its id, the field, the reason). The response as a whole is refused, and the file on disk
 * left as it was, when it is not `{status: "success", data: [...]}`, has no valid pool, or more
 * than MAX_DROPPED_SHARE of its pools are malformed (a changed format, not a few bad rows). The
 * file is written atomically (lowdb's writer: temp file + rename, as every store write) and then
 * loaded through the data store, which validates it again and tells its listeners (the scanner
 * index of this process; a running server notices the new file with its poller).
 */
import path from 'node:path';
import { TextFile } from 'lowdb/node';
import { DEFAULT_DATA_DIR } from '../../platform/paths.ts';
import { poolSchema, poolsFileSpec, type Pool, type PoolsFile } from './pools-file.ts';
import {
  DataStore,
  formatJsonPath,
  type FilesView,
  type FileSpec,
} from '../../platform/files/data-store.ts';
import type { LeftOutPool } from '@yield/contract';
import { silentLogger, type Logger } from '../../platform/logger.ts';
import { PoolHistoryStore, type PoolHistory } from './pool-history.ts';

export const POOLS_SOURCE_URL = 'https://yields.llama.fi/pools';
/** More malformed pools than this share and the whole response is refused. */
export const MAX_DROPPED_SHARE = 0.1;

export interface PoolsImportReport {
  /** Path of the file written. */
  file: string;
  asOf: string;
  received: number;
  accepted: number;
  dropped: number;
  /** "tvlUsd: Invalid input: expected number, received string" → how many pools. */
  droppedByReason: Record<string, number>;
  /** Each pool left out, named (its id as sent, the field, why); the first MAX_NAMED_LEFT_OUT. */
  leftOut: LeftOutPool[];
}

/** Pools left out are named up to this many (the count covers all of them). */
export const MAX_NAMED_LEFT_OUT = 100;

export class PoolsImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PoolsImportError';
  }
}

/** The data file the /pools import writes. */
export type PoolsFiles = { pools: FileSpec<PoolsFile> };

export interface PrepareOptions {
  /** When the response was fetched (the snapshot's asOf). Default: now. */
  fetchedAt?: Date;
  /** Marks the snapshot as sample data (the generator); real imports leave it false. */
  sample?: boolean;
  note?: string;
  maxDroppedShare?: number;
}

export interface ImportOptions extends PrepareOptions {
  /** The store to write through (the caller's); default: a store opened on `dataDir`. */
  store?: FilesView<PoolsFiles>;
  /** Default: api/data (pools:generate passes DATA_DIR from the configuration). */
  dataDir?: string;
  logger?: Logger;
  /**
   * Also appends each pool's row of the snapshot's UTC day to this store (pool-history.ts), after
   * pools.json was accepted. Default: the store of the data directory written to, except for a
   * sample snapshot (none); `null`: none.
   */
  history?: PoolHistory | null;
}

function mostCommon(reasons: Record<string, number>): string {
  return Object.entries(reasons)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([reason, count]) => `${count} × ${reason}`)
    .join('; ');
}

/** Validates a raw response into the file to write; throws PoolsImportError when it fails as a whole. */
export function preparePoolsSnapshot(
  raw: unknown,
  options: PrepareOptions = {},
): { file: PoolsFile; report: Omit<PoolsImportReport, 'file'> } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new PoolsImportError('the /pools response is not a JSON object');
  }
  const response = raw as { status?: unknown; data?: unknown };
  if (response.status !== 'success') {
    throw new PoolsImportError(
      `the /pools response has status ${JSON.stringify(response.status)}, not "success"`,
    );
  }
  if (!Array.isArray(response.data)) {
    throw new PoolsImportError('the /pools response has no data array');
  }

  const accepted: Pool[] = [];
  const seen = new Set<string>();
  const droppedByReason: Record<string, number> = {};
  const leftOut: LeftOutPool[] = [];
  const drop = (entry: unknown, field: string, reason: string) => {
    const key = `${field}: ${reason}`;
    droppedByReason[key] = (droppedByReason[key] ?? 0) + 1;
    if (leftOut.length >= MAX_NAMED_LEFT_OUT) return;
    const id = (entry as { pool?: unknown } | null)?.pool;
    leftOut.push({ pool: typeof id === 'string' ? id.slice(0, 100) : null, field, reason });
  };
  for (const entry of response.data) {
    const parsed = poolSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      drop(entry, formatJsonPath(issue.path).replace(/^\$\.?/, '') || 'pool', issue.message);
      continue;
    }
    if (seen.has(parsed.data.pool)) {
      drop(entry, 'pool', 'duplicate pool id');
      continue;
    }
    seen.add(parsed.data.pool);
    accepted.push(parsed.data);
  }

  const received = response.data.length;
  const dropped = received - accepted.length;
  if (accepted.length === 0) {
    throw new PoolsImportError(
      received === 0
        ? 'the /pools response has no pools'
        : `none of the ${received} pools is valid (${mostCommon(droppedByReason)})`,
    );
  }
  const maxShare = options.maxDroppedShare ?? MAX_DROPPED_SHARE;
  if (dropped / received > maxShare) {
    throw new PoolsImportError(
      `${dropped} of ${received} pools are malformed, more than ${maxShare * 100}%: ` +
        `the format may have changed (${mostCommon(droppedByReason)})`,
    );
  }

  const asOf = (options.fetchedAt ?? new Date()).toISOString();
  const file: PoolsFile = {
    status: 'success',
    asOf,
    sample: options.sample ?? false,
    source: POOLS_SOURCE_URL,
    ...(options.note === undefined ? {} : { note: options.note }),
    data: accepted,
  };
  return {
    file,
    report: { asOf, received, accepted: accepted.length, dropped, droppedByReason, leftOut },
  };
}

/** The file's text: the header fields, then one pool per line (readable diffs, ~half the size of indented JSON). */
export function formatPoolsFile(file: PoolsFile): string {
  const { data, ...header } = file;
  const head = JSON.stringify(header).slice(0, -1);
  const rows = data.map((pool) => JSON.stringify(pool)).join(',\n');
  return `${head},"data":[\n${rows}\n]}\n`;
}

/** Validates and writes a /pools response as the current snapshot; see the module comment. */
export async function importPoolsSnapshot(
  raw: unknown,
  options: ImportOptions = {},
): Promise<PoolsImportReport> {
  const { file, report } = preparePoolsSnapshot(raw, options);
  const logger = options.logger ?? silentLogger;
  const store =
    options.store ??
    new DataStore(
      path.resolve(options.dataDir ?? DEFAULT_DATA_DIR),
      { pools: poolsFileSpec },
      logger,
    );
  const target = path.join(store.dir, poolsFileSpec.file);
  await new TextFile(target).write(formatPoolsFile(file));
  await store.refreshFile('pools');
  const status = store.status()[poolsFileSpec.file];
  if (status?.error)
    throw new PoolsImportError(`the written snapshot was refused: ${status.error}`);
  const history = options.history === undefined ? new PoolHistoryStore(store.dir) : options.history;
  if (history) {
    const started = performance.now();
    const appended = await history.appendSnapshot(file.asOf!, file.data);
    logger.info('pool histories appended', {
      ...appended,
      ms: Math.round(performance.now() - started),
    });
  }
  logger.info('pools snapshot imported', { ...report, file: target });
  return { file: target, ...report };
}
