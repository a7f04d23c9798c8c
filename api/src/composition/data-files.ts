/**
 * The data directory's files: name → schema. The order is the order /api/health lists them.
 * `personal` files (addresses) are created on first use, written owner-only (0600) and kept out
 * of git (.gitignore); the operators' yield files are shipped in the repository.
 */
import { alertsFileSchema, type AlertsFile } from '../modules/alerts/schemas.ts';
import {
  historyFileSchema,
  liquidityFileSchema,
  pricesFileSchema,
  settingsFileSchema,
  sourcesFileSchema,
  strategyContentFileSchema,
  type HistoryFile,
  type LiquidityFile,
  type PricesFile,
  type SettingsFile,
  type SourcesFile,
  type StrategyContentFile,
} from '../modules/yields/schemas.ts';
import { importStatusFileSchema, type ImportStatusFile } from '../modules/import/schemas.ts';
import {
  invitesFileSchema,
  usersFileSchema,
  type InvitesFile,
  type UsersFile,
} from '../modules/premium/schemas.ts';
import { mailingListFileSchema, type MailingListFile } from '../modules/mailing-list/schemas.ts';
import { poolsFileSpec } from '../modules/import/index.ts';
import { costsFileSchema, type CostsFile } from '../modules/net-yield/index.ts';
import { projectTiersFileSchema, type ProjectTiersFile } from '../modules/scanner/schemas.ts';
import type { FileSpec } from '../platform/files/data-store.ts';
import { DataStore } from '../platform/files/data-store.ts';
import type { Logger } from '../platform/logger.ts';

export const dataFiles = {
  settings: { file: 'settings.json', schema: settingsFileSchema } as FileSpec<SettingsFile>,
  sources: { file: 'sources.json', schema: sourcesFileSchema } as FileSpec<SourcesFile>,
  history: { file: 'history.json', schema: historyFileSchema } as FileSpec<HistoryFile>,
  strategyContent: {
    file: 'strategy-content.json',
    schema: strategyContentFileSchema,
  } as FileSpec<StrategyContentFile>,
  liquidity: { file: 'liquidity.json', schema: liquidityFileSchema } as FileSpec<LiquidityFile>,
  /** Daily token prices (depeg warnings); written by the importer, shipped as sample data. */
  prices: {
    file: 'prices.json',
    schema: pricesFileSchema,
    empty: () => ({ sample: false, coins: {} }),
  } as FileSpec<PricesFile>,
  /** Each on-chain source's deposit and withdrawal costs, read by the importer (GET /api/net-yield). */
  costs: {
    file: 'costs.json',
    schema: costsFileSchema,
    empty: () => ({ sources: {} }),
  } as FileSpec<CostsFile>,
  invites: {
    file: 'invites.json',
    schema: invitesFileSchema,
    personal: true,
    empty: () => ({ invites: [] }),
  } as FileSpec<InvitesFile>,
  users: {
    file: 'users.json',
    schema: usersFileSchema,
    personal: true,
    empty: () => ({ users: [] }),
  } as FileSpec<UsersFile>,
  mailingList: {
    file: 'mailing-list.json',
    schema: mailingListFileSchema,
    personal: true,
    empty: () => ({ entries: [] }),
  } as FileSpec<MailingListFile>,
  alerts: {
    file: 'alerts.json',
    schema: alertsFileSchema,
    personal: true,
    empty: () => ({ subscriptions: [], deliveries: [] }),
  } as FileSpec<AlertsFile>,
  /** Written by the importer (api/src/modules/import), absent until the first import. */
  importStatus: {
    file: 'import-status.json',
    schema: importStatusFileSchema,
    empty: () => ({ lastRun: null }),
  } as FileSpec<ImportStatusFile>,
  // The scanner's input (api/src/modules/scanner): DeFiLlama's /pools snapshot, written by the
  // import (no file yet = no snapshot: the scanner answers an empty result), and the operators'
  // tiers.
  pools: poolsFileSpec,
  projectTiers: {
    file: 'project-tiers.json',
    schema: projectTiersFileSchema,
  } as FileSpec<ProjectTiersFile>,
};

export type DataFiles = typeof dataFiles;

const PERSONAL_FILES = new Set(
  Object.values(dataFiles as Record<string, FileSpec<unknown>>)
    .filter((spec) => spec.personal)
    .map((spec) => spec.file),
);

/**
 * Whether a data directory entry belongs to this installation alone and is never copied into
 * another data directory nor committed (.gitignore): the files of personal data, the user-data
 * journal, the lock of the directory, the secrets (dot files), the outbox of alert e-mails, the
 * pools' daily histories (`pool-history/`, gathered by this installation's imports), the cache of
 * the published data (`published/`, composition/published-data.ts), the remotes' releases
 * (`releases/`, packages/site-server/src/releases) and
 * write-file-atomic's temp files. Tests, e2e and bench copy the shipped data without them.
 */
export function isInstallationFile(name: string): boolean {
  return (
    PERSONAL_FILES.has(name) ||
    name.startsWith('user-data.') ||
    name.startsWith('.') ||
    name === 'outbox' ||
    name === 'pool-history' ||
    name === 'published' ||
    name === 'releases' ||
    /\.json\.[^.]+$/.test(name)
  );
}
export type ApiStore = DataStore<DataFiles>;

export function openStore(dir: string, logger: Logger): ApiStore {
  return new DataStore(dir, dataFiles, logger);
}

/** Files the read-only snapshot is built from (the runtime-written ones do not affect it). */
export const SNAPSHOT_FILES: (keyof DataFiles)[] = [
  'settings',
  'sources',
  'history',
  'strategyContent',
  'liquidity',
  'prices',
];
