/**
 * Everything the Koa app needs, built once per process. Tests build their own (temp data dir,
 * silent logger, high rate limits); the site server and server.ts call createDeps() with defaults.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openStore, SNAPSHOT_FILES, type ApiStore } from './data-files.ts';
import os from 'node:os';
import { FileUserDataStore } from './file-user-data.ts';
import { PgUserDataStore } from './pg-user-data.ts';
import {
  openPublishedData,
  publishedImport,
  PUBLISHED_POLL_MS,
  type PublishedData,
} from './published-data.ts';
import { runExclusive, type UserDataStore } from './user-data.ts';
import { buildSnapshot, type Snapshot } from '../modules/yields/snapshot.ts';
import { AsOfService } from '../modules/yields/as-of-service.ts';
import { createLogger, type LogLevel, type Logger } from '../platform/logger.ts';
import { Metrics } from '../platform/metrics.ts';
import type { BearerCheck } from '../platform/http/bind.ts';
import { premiumBearerCheck } from '../modules/premium/bearer.ts';
import {
  ACCESS_CACHE_MS,
  loadOrCreateSecret,
  PremiumAccess,
  readOrCreateSecretFile,
  TOKEN_TTL_SECONDS,
  type PremiumClaims,
} from '../modules/premium/tokens.ts';
import { ImportSchedule } from '../modules/import/schedule.ts';
import type { ImportStatusFile } from '../modules/import/schemas.ts';
import { PoolHistoryStore, type PoolHistory } from '../modules/import/pool-history.ts';
import { PgPoolHistoryStore } from '../modules/import/pg-pool-history.ts';
import { PgBackfillBudget, PgBackfillTries } from '../modules/import/pg-backfill.ts';
import type { PgConnection } from '../platform/pg/connection.ts';
import {
  PoolBackfill,
  type BackfillClock,
  type PoolHistoryDeps,
} from '../modules/import/pool-backfill.ts';
import { runImport } from '../modules/import/run-import.ts';
import {
  MemoryRateCounter,
  type RateCounter,
  type RateLimitOptions,
} from '../platform/http/rate-limit.ts';
import { parseTrustProxy } from '../platform/http/client-address.ts';
import { AlertService } from '../modules/alerts/evaluate.ts';
import { alertsSecret } from '../platform/email-links/links.ts';
import { createMailer } from '../modules/alerts/mailer.ts';
import { PgMailOutbox, type PgMailOutboxOptions } from '../modules/alerts/pg-outbox.ts';
import { createScannerState, type ScannerState } from '../modules/scanner/scanner-state.ts';
import type { LinkSite } from '../platform/email-links/pages.ts';
import type { RemoteErrorSink } from '../modules/remote-errors/index.ts';
import {
  API_ROOT,
  ENVIRONMENT,
  loadConfig,
  loadRpcUrls,
  metricsToken,
  type Config,
  type VariableName,
} from '../platform/config.ts';

export { API_ROOT, DEFAULT_DATA_DIR } from '../platform/config.ts';

/** Generous for a person (a few sign-up or login attempts), low enough to slow code guessing. */
export const DEFAULT_RATE_LIMIT: RateLimitOptions = {
  max: ENVIRONMENT.RATE_LIMIT_MAX.default,
  windowMs: ENVIRONMENT.RATE_LIMIT_WINDOW_MS.default,
};
export const DEFAULT_POLL_MS = ENVIRONMENT.DATA_POLL_MS.default;
/** Where the alert links' secret is kept when ALERTS_SECRET is unset (git-ignored). */
export const ALERTS_SECRET_FILE = '.alerts-secret';

export interface AppDeps {
  /** The data directory: the operators' yield files (read-only here) and the runtime files. */
  store: ApiStore;
  /**
   * Mailing list, invite codes, premium users and alerts: every write of user data goes through
   * it. The JSON files of the data directory by default, PostgreSQL when DATABASE_URL is set.
   */
  userData: UserDataStore;
  /** Where rate-limit hits are counted: this process's memory, or the database beside userData. */
  rateCounter: RateCounter;
  /** The current precomputed snapshot (rebuilt when a data file is accepted). */
  snapshot(): Snapshot;
  /** The answers of past days (`?asOf`): computed in a worker thread, once per data version. */
  asOf: AsOfService;
  /** Past days not yet computed a client may ask for per window (AS_OF_RATE_LIMIT_MAX). */
  asOfRateLimit: RateLimitOptions;
  jwtSecret: string;
  /** Whether a token's user still exists with an enabled invite (checked at most a minute ago). */
  premiumAccess: PremiumAccess;
  /** The binder's check of premium bearer tokens (signature, algorithm, exp, access). */
  bearer: BearerCheck<PremiumClaims>;
  logger: Logger;
  rateLimit: RateLimitOptions;
  tokenTtlSeconds: number;
  version: string;
  /**
   * The number of reverse proxies in front of the server (TRUST_PROXY): 0 = the socket's peer is
   * the client; N = the client is the N-th X-Forwarded-For entry from the right, the address the
   * outermost proxy saw (platform/http/client-address.ts).
   */
  trustProxy: number;
  now(): Date;
  /** Time a client has to send a JSON request body (API_BODY_TIMEOUT_MS), in ms. */
  bodyTimeoutMs: number;
  /** The DATA_IMPORT_INTERVAL schedule of this process, null when it is off. */
  importSchedule: ImportSchedule | null;
  /** Alert subscriptions and their evaluation (api/src/modules/alerts). */
  alerts: AlertService;
  /** This process's Prometheus series (platform/metrics.ts), served at /metrics. */
  metrics: Metrics;
  /**
   * Where /metrics is served: on its own port (`port`, on `host`) and/or on the site's port with
   * `token` as a bearer token. No token: the site's port answers 404 there.
   */
  metricsEndpoint: { token: string | null; port: number | null; host: string };
  /**
   * Every pool's own daily history (DATA_DIR/pool-history, or the table pool_history with
   * DATABASE_URL) and the queue that backfills it from DeFiLlama's /chart within its rate limits
   * (modules/import/pool-history.ts, pg-pool-history.ts, pool-backfill.ts).
   */
  poolHistory: PoolHistoryDeps;
  /** The scanner's index over pools.json and the pools' histories (modules/scanner). */
  scanner: ScannerState;
  /** The site the pages of e-mailed links link back to (platform/email-links/pages.ts). */
  linkSite: LinkSite;
  /**
   * With DATABASE_URL: the published yield data this process serves (composition/published-data.ts);
   * null or absent with the files.
   */
  published?: PublishedData | null;
  /** Where browsers' error reports of the remotes go besides the metric (the site server's releases). */
  remoteErrors: RemoteErrorSink | null;
  /** Stops watching the data directory and the import schedule; finishes pending user-data work. */
  close(): Promise<void>;
}

export type { PoolHistoryDeps } from '../modules/import/pool-backfill.ts';

export interface CreateDepsOptions {
  /** Default: env DATA_DIR, else api/data. */
  dataDir?: string;
  /** Default: env JWT_SECRET, else a secret generated once into the data dir. */
  jwtSecret?: string;
  logger?: Logger;
  /** Default: env RATE_LIMIT_MAX / RATE_LIMIT_WINDOW_MS, else 30 per 60 s. */
  rateLimit?: Partial<RateLimitOptions>;
  /** How often hand edits are looked for; 0 turns polling off. Default: env DATA_POLL_MS, else 1000. */
  watchIntervalMs?: number;
  /**
   * The answers of past days: `rateLimitMax` (default env AS_OF_RATE_LIMIT_MAX, else 20 per
   * rate-limit window), the bytes kept (default 64 MB) and whether every day is precomputed
   * behind the first request of a data version (default true).
   */
  asOf?: { rateLimitMax?: number; maxBytes?: number; precompute?: boolean };
  tokenTtlSeconds?: number;
  /** How long a token's check against the store is reused (ms). Default 60 000. */
  accessCacheMs?: number;
  /** Proxies in front of the server. Default: env TRUST_PROXY, else 0 (none). */
  trustProxy?: number;
  now?: () => Date;
  /** Import from DeFiLlama every this many ms; null = off. Default: env DATA_IMPORT_INTERVAL, else off. */
  importIntervalMs?: number | null;
  /** Default: env DEFILLAMA_API_URL, else https://yields.llama.fi. */
  defillamaApiUrl?: string;
  /** Alert e-mails go through this SMTP server. Default: env SMTP_URL, else the outbox folder. */
  smtpUrl?: string;
  /** Base of e-mailed links. Default: env PUBLIC_URL, else settings.json's siteUrl. */
  publicUrl?: string;
  /** Signs e-mailed links. Default: env ALERTS_SECRET, else DATA_DIR/.alerts-secret (made once). */
  alertsSecret?: string;
  /** From address of alert e-mails. Default: env MAIL_FROM, else from settings.json. */
  mailFrom?: string;
  /** Default: env COINS_API_URL, else https://coins.llama.fi. */
  coinsApiUrl?: string;
  /** JSON-RPC endpoints of the on-chain feeds by chain. Default: env RPC_URL_<CHAIN>. */
  rpcUrls?: Record<string, string>;
  /**
   * Pool history backfill. Default: env POOL_BACKFILL_TOP / _RPM / _CONCURRENCY / _QUEUE_MAX /
   * _CLIENT_MAX; `clock` (tests): the time of its budget and of its 24-hour memory.
   */
  poolBackfill?: {
    top?: number;
    requestsPerMinute?: number;
    concurrency?: number;
    backoffMs?: number;
    queueMax?: number;
    clientMax?: number;
    clock?: BackfillClock;
  };
  /** User data in PostgreSQL at this URL; null = the files. Default: env DATABASE_URL, else files. */
  databaseUrl?: string | null;
  /** With DATABASE_URL: how often new published versions are looked for (ms; 0: never). Default 2000. */
  publishedPollMs?: number;
  /** Time a client has to send a JSON body (ms). Default: env API_BODY_TIMEOUT_MS, else 10 000. */
  bodyTimeoutMs?: number;
  /** Database connections of this process. Default: env PG_POOL_MAX, else 10. */
  pgPoolMax?: number;
  /** Lowest level logged when no logger is given. Default: env LOG_LEVEL, else info. */
  logLevel?: LogLevel;
  /** Default: a registry of this process with the default process metrics. */
  metrics?: Metrics;
  /** Bearer token of /metrics. Default: env METRICS_TOKEN, else none. */
  metricsToken?: string | null;
  /** Port of a separate /metrics server; null = none. Default: env METRICS_PORT, else none. */
  metricsPort?: number | null;
  /** Address the separate /metrics server binds. Default: env METRICS_HOST, else 127.0.0.1. */
  metricsHost?: string;
  /**
   * The e-mail outbox with DATABASE_URL (modules/alerts/pg-outbox.ts): its backoff, lease, drain
   * interval and clock (tests). Default: 30 s / 2 min / 10 min, 2 min, 1 s, this machine's clock.
   */
  mailOutbox?: Pick<PgMailOutboxOptions, 'retryDelaysMs' | 'leaseMs' | 'drainIntervalMs' | 'now'>;
  /**
   * Where POST /api/remote-errors hands each report (the site server's releases of the remotes).
   * Default: none, the reports are counted in the metric only.
   */
  remoteErrors?: RemoteErrorSink | null;
}

/** The variable each option stands for: an option that is given wins, its variable is not read. */
const OPTION_VARIABLES: [
  keyof CreateDepsOptions | 'rateLimit.max' | 'rateLimit.windowMs' | 'asOf.rateLimitMax',
  VariableName,
][] = [
  ['dataDir', 'DATA_DIR'],
  ['jwtSecret', 'JWT_SECRET'],
  ['rateLimit.max', 'RATE_LIMIT_MAX'],
  ['rateLimit.windowMs', 'RATE_LIMIT_WINDOW_MS'],
  ['asOf.rateLimitMax', 'AS_OF_RATE_LIMIT_MAX'],
  ['watchIntervalMs', 'DATA_POLL_MS'],
  ['trustProxy', 'TRUST_PROXY'],
  ['importIntervalMs', 'DATA_IMPORT_INTERVAL'],
  ['defillamaApiUrl', 'DEFILLAMA_API_URL'],
  ['smtpUrl', 'SMTP_URL'],
  ['publicUrl', 'PUBLIC_URL'],
  ['alertsSecret', 'ALERTS_SECRET'],
  ['mailFrom', 'MAIL_FROM'],
  ['coinsApiUrl', 'COINS_API_URL'],
  ['databaseUrl', 'DATABASE_URL'],
  ['bodyTimeoutMs', 'API_BODY_TIMEOUT_MS'],
  ['pgPoolMax', 'PG_POOL_MAX'],
  ['logLevel', 'LOG_LEVEL'],
  ['metricsToken', 'METRICS_TOKEN'],
  ['metricsPort', 'METRICS_PORT'],
  ['metricsHost', 'METRICS_HOST'],
];

/** The environment without the variables of the options given. */
function environmentFor(options: CreateDepsOptions, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const rest = { ...env };
  const nested: Record<string, unknown> = {
    'rateLimit.max': options.rateLimit?.max,
    'rateLimit.windowMs': options.rateLimit?.windowMs,
    'asOf.rateLimitMax': options.asOf?.rateLimitMax,
  };
  for (const [option, name] of OPTION_VARIABLES) {
    const given = option in nested ? nested[option] : options[option as keyof CreateDepsOptions];
    if (given !== undefined) delete rest[name];
  }
  return rest;
}

/** Seconds from `from` (ms since the epoch) to `now`, never negative. */
const ageSeconds = (now: Date, from: number) => Math.max(0, (now.getTime() - from) / 1000);

/**
 * The user-data store of this process: PostgreSQL when a database URL is given (rate limits
 * counted there too), else the journaled JSON files (rate limits in memory).
 */
async function openUserData(
  store: ApiStore,
  databaseUrl: string | null,
  poolMax: number,
  logger: Logger,
  metrics: Metrics,
): Promise<{
  userData: UserDataStore;
  rateCounter: RateCounter;
  files: FileUserDataStore | null;
  pg: PgConnection | null;
}> {
  if (databaseUrl) {
    const pgStore = await PgUserDataStore.open({
      connectionString: databaseUrl,
      logger,
      poolMax,
    });
    const pool = pgStore.pool;
    metrics.track({
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    });
    return { userData: pgStore, rateCounter: pgStore, files: null, pg: pgStore.connection };
  }
  const files = await FileUserDataStore.open(store, { logger, owner: true, metrics });
  metrics.track({ journal: () => files.journalState() });
  return { userData: files, rateCounter: new MemoryRateCounter(), files, pg: null };
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(path.join(API_ROOT, 'package.json'), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * The lock of the scheduled imports. With the files, each machine keeps its own copy of the yield
 * files and imports into it: processes sharing one data directory on one machine take turns, and
 * machines do not wait for each other. With published data (DATABASE_URL) the fleet has one copy:
 * one lock for every process of every machine.
 */
export const importLockName = (dataDir: string, fleet: boolean) =>
  fleet ? FLEET_IMPORT_LOCK : `data-import:${os.hostname()}:${dataDir}`;
export const FLEET_IMPORT_LOCK = 'data-import:fleet';

/**
 * With published data: whether the fleet's last published import started less than 90% of the
 * interval ago (another process's schedule already ran this round; the 10% absorbs the timers'
 * drift), so this process skips its round instead of importing the same hour again.
 */
export function fleetImportedRecently(
  status: ImportStatusFile | null,
  now: Date,
  intervalMs: number,
): boolean {
  const started = status?.lastRun ? Date.parse(status.lastRun.startedAt) : NaN;
  return Number.isFinite(started) && now.getTime() - started < intervalMs * 0.9;
}

/**
 * The secret of the alert links: ALERTS_SECRET when set (at least 32 bytes). Else the one kept in
 * DATA_DIR/.alerts-secret, written at the first start with the value links were signed with
 * until then (derived from the JWT secret of that moment): rotating JWT_SECRET afterwards leaves
 * the links already sent working.
 */
async function loadAlertsSecret(
  dataDir: string,
  jwtSecret: string,
  explicit: string | undefined,
  logger: Logger,
): Promise<string> {
  if (explicit !== undefined && explicit.trim() !== '') return alertsSecret(jwtSecret, explicit);
  try {
    return await readOrCreateSecretFile(path.join(dataDir, ALERTS_SECRET_FILE), () =>
      alertsSecret(jwtSecret, undefined),
    );
  } catch (err) {
    // A data directory that cannot be written (read-only, full): sign as before the file existed.
    const code = (err as NodeJS.ErrnoException).code;
    if (!['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'ENOENT'].includes(code ?? '')) throw err;
    logger.warn('alert links secret not kept: set ALERTS_SECRET', {
      file: ALERTS_SECRET_FILE,
      error: (err as Error).message,
    });
    return alertsSecret(jwtSecret, undefined);
  }
}

/**
 * Builds the process: the configuration and what it opens (data files, user data, published
 * data), then the read model, the alerts, the pools' histories, the scanner, the scheduled
 * import and the metrics, each a step below; then the dependencies the modules take.
 */
export async function createDeps(options: CreateDepsOptions = {}): Promise<AppDeps> {
  const opened = await openStores(options);
  const readModel = watchReadModel(opened);
  const alerts = startAlerts(opened, readModel.current);
  const poolHistory = openPoolHistory(opened);
  // The scanner's index: built now from the data loaded above, rebuilt on each accepted change.
  const scanner = createScannerState({ store: opened.store, poolHistory, logger: opened.logger });
  const importSchedule = scheduleImports(opened, alerts, poolHistory);
  trackAges(opened, readModel.current);
  return assemble(opened, { readModel, alerts, poolHistory, scanner, importSchedule });
}

/** What the first step opens and reads, for the steps after it. */
interface Opened {
  options: CreateDepsOptions;
  config: Config;
  trustProxy: number;
  metricsEndpoint: AppDeps['metricsEndpoint'];
  dataDir: string;
  jwtSecret: string;
  /** The key of the e-mailed links (loadAlertsSecret). */
  linksSecret: string;
  logger: Logger;
  metrics: Metrics;
  now: () => Date;
  store: ApiStore;
  userData: UserDataStore;
  rateCounter: RateCounter;
  pg: PgConnection | null;
  published: PublishedData | null;
}

/**
 * The configuration (read before opening anything: malformed variables, all of them at once, or
 * secrets too short stop the start with a clear message; options win over the environment), the
 * secrets, the data files, the user data and, with a database, the published yield files.
 */
async function openStores(options: CreateDepsOptions): Promise<Opened> {
  const config = loadConfig(environmentFor(options, process.env), ['api']);
  const trustProxy =
    options.trustProxy !== undefined
      ? parseTrustProxy(String(options.trustProxy))
      : config.TRUST_PROXY;
  const metricsEndpoint = metricsEndpointOf(options, config);
  const dataDir = path.resolve(options.dataDir ?? config.DATA_DIR);
  const jwtSecret = await loadOrCreateSecret(dataDir, options.jwtSecret ?? config.JWT_SECRET);
  const logger = options.logger ?? createLogger({ level: options.logLevel ?? config.LOG_LEVEL });
  const metrics = options.metrics ?? new Metrics();
  const linksSecret = await loadAlertsSecret(
    dataDir,
    jwtSecret,
    options.alertsSecret ?? config.ALERTS_SECRET,
    logger,
  );
  const store = openStore(dataDir, logger);
  const databaseUrl =
    options.databaseUrl !== undefined ? options.databaseUrl || null : (config.DATABASE_URL ?? null);
  const { userData, rateCounter, files, pg } = await openUserData(
    store,
    databaseUrl,
    options.pgPoolMax ?? config.PG_POOL_MAX,
    logger,
    metrics,
  );
  await store.loadAll();
  files?.start();
  // With a database the yield files served are the published ones, loaded before the first answer.
  const published =
    userData instanceof PgUserDataStore
      ? await openPublishedData(
          store,
          userData.connection,
          logger,
          options.publishedPollMs ?? PUBLISHED_POLL_MS,
        ).catch(async (err: unknown) => {
          await userData.close();
          throw err;
        })
      : null;
  const now = options.now ?? (() => new Date());
  return {
    ...{ options, config, trustProxy, metricsEndpoint, dataDir, jwtSecret, linksSecret },
    ...{ logger, metrics, now, store },
    ...{ userData, rateCounter, pg, published },
  };
}

/**
 * The read model: the snapshot, rebuilt once per accepted change of the files it reads and when
 * an imported series turns stale with time alone; the store polls for hand edits from here on.
 */
function watchReadModel({ store, logger, now, options, config }: Opened) {
  const inputs = () => ({
    settings: store.get('settings'),
    sources: store.get('sources'),
    history: store.get('history'),
    strategyContent: store.get('strategyContent'),
    liquidity: store.get('liquidity'),
    prices: store.get('prices'),
  });
  let snapshot = buildSnapshot(inputs(), now());
  store.onChange((changed) => {
    if (!changed.some((k) => SNAPSHOT_FILES.includes(k))) return;
    try {
      snapshot = buildSnapshot(inputs(), now());
      logger.info('data reloaded', { files: changed });
    } catch (err) {
      logger.error('recomputing metrics failed, keeping previous numbers', {
        error: (err as Error).message,
      });
    }
  });
  store.startWatching(options.watchIntervalMs ?? config.DATA_POLL_MS);
  // An imported series turns stale with time alone: rebuild when that moment has passed.
  const current = (): Snapshot => {
    if (snapshot.staleAt !== null && now().getTime() >= snapshot.staleAt) {
      snapshot = buildSnapshot(inputs(), now());
    }
    return snapshot;
  };
  return { current };
}

/**
 * The alert service: e-mails through the mailer (SMTP or the outbox folder), with DATABASE_URL
 * through the outbox table every process drains. Evaluated after every import (this process's
 * schedule, or data:import seen as a new history.json) and every accepted edit of the yield data
 * (token prices and the warning thresholds too: they open detected warnings); at start for what
 * happened while the server was down.
 */
function startAlerts(opened: Opened, snapshot: () => Snapshot): AlertService {
  const { options, config, dataDir, userData, logger, metrics, store, now, published } = opened;
  const mailer = createMailer({ smtpUrl: options.smtpUrl ?? config.SMTP_URL, dataDir });
  const outgoing =
    userData instanceof PgUserDataStore
      ? new PgMailOutbox({
          db: userData.connection,
          mailer,
          logger,
          metrics,
          ...options.mailOutbox,
        }).start()
      : undefined;
  const alerts = new AlertService({
    ...(outgoing ? { outgoing } : {}),
    userData,
    snapshot,
    sources: () => store.get('sources'),
    settings: () => store.get('settings'),
    mailer,
    secret: opened.linksSecret,
    publicUrl: options.publicUrl ?? config.PUBLIC_URL,
    from: options.mailFrom ?? config.MAIL_FROM,
    logger,
    metrics,
    now,
    // With published data: the fleet's versions only, never this directory's files (decision 45).
    ...(published ? { ready: () => published.installed() } : {}),
  });
  const ALERT_INPUTS = ['history', 'sources', 'prices', 'settings'] as const;
  store.onChange((changed) => {
    if (ALERT_INPUTS.some((file) => changed.includes(file))) alerts.trigger('data changed');
  });
  alerts.trigger('start');
  // Started while the database was unreachable: evaluated once the fleet's versions are read.
  if (published && !published.installed())
    void published.whenInstalled().then(() => alerts.trigger('published data installed'));
  return alerts;
}

/**
 * Every pool's daily history and the queue that backfills it from DeFiLlama's /chart: the one
 * PoolHistoryStore of the process, the files of DATA_DIR/pool-history or, with DATABASE_URL, the
 * tables shared in PostgreSQL (the histories, the 24-hour memory and the budget).
 */
function openPoolHistory({ options, config, dataDir, pg, logger }: Opened): PoolHistoryDeps {
  const apiUrl = options.defillamaApiUrl ?? config.DEFILLAMA_API_URL;
  const given = options.poolBackfill ?? {};
  const store: PoolHistory = pg ? new PgPoolHistoryStore(pg) : new PoolHistoryStore(dataDir);
  const shared = pg
    ? {
        tries: new PgBackfillTries(pg, given.clock?.now ?? Date.now),
        budget: new PgBackfillBudget(pg, apiUrl),
      }
    : {};
  return {
    store,
    backfill: new PoolBackfill(store, {
      ...shared,
      apiUrl,
      requestsPerMinute: given.requestsPerMinute ?? config.POOL_BACKFILL_RPM,
      concurrency: given.concurrency ?? config.POOL_BACKFILL_CONCURRENCY,
      ...(given.backoffMs === undefined ? {} : { backoffMs: given.backoffMs }),
      ...(given.clock === undefined ? {} : { clock: given.clock }),
      pageQueueMax: given.queueMax ?? config.POOL_BACKFILL_QUEUE_MAX,
      logger,
    }),
    top: given.top ?? config.POOL_BACKFILL_TOP,
    clientMax: given.clientMax ?? config.POOL_BACKFILL_CLIENT_MAX,
  };
}

/** The DATA_IMPORT_INTERVAL schedule of this process, started; null when it is off. */
function scheduleImports(
  opened: Opened,
  alerts: AlertService,
  poolHistory: PoolHistoryDeps,
): ImportSchedule | null {
  const { options, config, logger } = opened;
  const intervalMs =
    options.importIntervalMs !== undefined ? options.importIntervalMs : config.DATA_IMPORT_INTERVAL;
  if (intervalMs === null) return null;
  const schedule = new ImportSchedule(
    intervalMs,
    async (signal) => {
      const result = await scheduledImport(opened, poolHistory, intervalMs, signal);
      // Also when nothing changed: a source may have turned stale meanwhile.
      alerts.trigger('scheduled import');
      return result;
    },
    logger,
  );
  schedule.start();
  return schedule;
}

/**
 * One round of the schedule. Skipped (null) while another process imports into this directory
 * (with published data: anywhere in the fleet), or when the fleet's import of this round is
 * published; with published data, imported into the published versions, then published.
 */
function scheduledImport(
  opened: Opened,
  poolHistory: PoolHistoryDeps,
  intervalMs: number,
  signal: AbortSignal,
) {
  const { options, config, store, logger, metrics, now, userData, published, dataDir } = opened;
  const rpcUrls = options.rpcUrls ?? loadRpcUrls(process.env);
  const lock = importLockName(dataDir, published !== null);
  return runExclusive(userData, lock, async () => {
    if (published) {
      await published.sync();
      if (fleetImportedRecently(store.get('importStatus'), now(), intervalMs)) {
        logger.info('scheduled import skipped: the fleet imported this round');
        return null;
      }
    }
    const run = () =>
      runImport({
        store,
        logger,
        metrics,
        now,
        signal,
        apiUrl: options.defillamaApiUrl ?? config.DEFILLAMA_API_URL,
        coinsApiUrl: options.coinsApiUrl ?? config.COINS_API_URL,
        rpcUrls,
        onchainMaxDays: config.ONCHAIN_MAX_DAYS,
        onchainDeadlineMs: config.RPC_CHAIN_DEADLINE_MS,
        poolHistory,
      });
    return published ? publishedImport(published, run) : run();
  });
}

/** Ages read at each scrape: since each imported series' last import, since the pools fetch. */
function trackAges({ metrics, store, now }: Opened, snapshot: () => Snapshot): void {
  metrics.track({
    seriesAges: function* () {
      const t = now();
      const seen = new Set<string>();
      for (const s of snapshot().series.values()) {
        for (const p of s.provenance.components ?? [s.provenance]) {
          const id = p.series ?? String(s.id);
          if ((p.kind !== 'defillama' && p.kind !== 'onchain') || seen.has(id)) continue;
          seen.add(id);
          const at = p.importedAt ? Date.parse(p.importedAt) : NaN;
          if (Number.isFinite(at)) yield [id, ageSeconds(t, at)] as [string, number];
        }
      }
    },
    poolsAge: () => {
      const asOf = store.get('pools')?.asOf;
      const at = asOf ? Date.parse(asOf) : NaN;
      return Number.isFinite(at) ? ageSeconds(now(), at) : null;
    },
  });
}

/** Where /metrics is served (METRICS_TOKEN, METRICS_PORT, METRICS_HOST or their options). */
function metricsEndpointOf(options: CreateDepsOptions, config: Config): AppDeps['metricsEndpoint'] {
  return {
    token:
      options.metricsToken === undefined
        ? config.METRICS_TOKEN
        : options.metricsToken === null
          ? null
          : metricsToken(options.metricsToken),
    port: options.metricsPort !== undefined ? options.metricsPort : config.METRICS_PORT,
    host: options.metricsHost ?? config.METRICS_HOST,
  };
}

/** The site e-mailed links' pages link back to: PUBLIC_URL, else settings.json's siteUrl. */
function linkSiteOf({ options, config, store }: Opened): LinkSite {
  const publicUrl = options.publicUrl ?? config.PUBLIC_URL;
  return () => {
    const settings = store.get('settings');
    return { url: publicUrl ?? settings?.siteUrl ?? '/', title: settings?.siteTitle ?? 'Pigi' };
  };
}

/** The dependencies every module takes its own part of, and how the process closes. */
function assemble(
  opened: Opened,
  built: {
    readModel: { current: () => Snapshot };
    alerts: AlertService;
    poolHistory: PoolHistoryDeps;
    scanner: ScannerState;
    importSchedule: ImportSchedule | null;
  },
): AppDeps {
  const { options, config, store, userData, logger, now, published } = opened;
  const { alerts, poolHistory, importSchedule } = built;
  const rateLimitWindowMs = options.rateLimit?.windowMs ?? config.RATE_LIMIT_WINDOW_MS;
  const asOf = new AsOfService({
    logger,
    ...(options.asOf?.maxBytes === undefined ? {} : { maxBytes: options.asOf.maxBytes }),
    ...(options.asOf?.precompute === undefined ? {} : { precompute: options.asOf.precompute }),
  });
  const premiumAccess = new PremiumAccess(
    async (userId) => (await userData.activePremiumUser(userId)) !== null,
    options.accessCacheMs ?? ACCESS_CACHE_MS,
    () => now().getTime(),
  );
  const deps: Omit<AppDeps, 'bearer'> = {
    ...{ store, userData, rateCounter: opened.rateCounter, snapshot: built.readModel.current },
    asOf,
    asOfRateLimit: {
      max: options.asOf?.rateLimitMax ?? config.AS_OF_RATE_LIMIT_MAX,
      windowMs: rateLimitWindowMs,
    },
    ...{ jwtSecret: opened.jwtSecret, premiumAccess, logger },
    rateLimit: {
      max: options.rateLimit?.max ?? config.RATE_LIMIT_MAX,
      windowMs: rateLimitWindowMs,
    },
    tokenTtlSeconds: options.tokenTtlSeconds ?? TOKEN_TTL_SECONDS,
    version: packageVersion(),
    trustProxy: opened.trustProxy,
    now,
    bodyTimeoutMs: options.bodyTimeoutMs ?? config.API_BODY_TIMEOUT_MS,
    ...{ importSchedule, alerts, metrics: opened.metrics },
    metricsEndpoint: opened.metricsEndpoint,
    ...{ poolHistory, scanner: built.scanner, linkSite: linkSiteOf(opened), published },
    remoteErrors: options.remoteErrors ?? null,
    close: async () => {
      store.stopWatching();
      await asOf.close();
      await published?.close();
      await importSchedule?.stop();
      poolHistory.backfill.stop();
      await poolHistory.backfill.idle();
      await alerts.settled();
      alerts.close();
      await userData.close();
    },
  };
  return Object.assign(deps, { bearer: premiumBearerCheck(deps) });
}

/**
 * Ends a server process whose start failed (a bad variable, a short secret, a data directory
 * another server holds): the message, which names what to change, and exit code 1, no stack.
 */
export function stopOnStartError(error: unknown): never {
  console.error(`Cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
