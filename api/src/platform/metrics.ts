/**
 * Prometheus metrics (prom-client, the standard client for Node): one registry per server
 * process, scraped at `/metrics`. Never public: either on its own port (METRICS_PORT, bound to
 * 127.0.0.1 unless METRICS_HOST says otherwise) or on the site's port with
 * `Authorization: Bearer <METRICS_TOKEN>`; without a token the site's port answers 404 there.
 * Every series is listed in docs/deploy.md ("Logs and metrics"). Label values are bounded: route
 * patterns (never raw paths), source ids of sources.json, fixed outcome names, the registry's
 * remote names and validated release ids.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import client from 'prom-client';
import type { ApiErrorCode } from '@yield/contract/constants';

/** Request latency buckets (seconds): the fast path answers in well under a millisecond. */
const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];

export type EmailKind = 'alert' | 'confirmation';
/** What failed of a remote in a browser: its code did not load, or a boundary caught its render. */
export type RemoteErrorKind = 'load' | 'render';
export type EmailOutcome = 'sent' | 'retried' | 'failed';

/** What the journaled user-data files report (file-user-data.ts). */
export interface JournalState {
  /** Changes written to the journal and not yet folded into the JSON files. */
  pendingEntries: number;
  /** When the journal was last folded into the files (ms since the epoch), else the start. */
  lastCompactionAt: number;
}

/** node-postgres pool counts (pg-user-data.ts). */
export interface PoolState {
  total: number;
  idle: number;
  waiting: number;
}

/** Read at each scrape: values that are states, not events. */
export interface MetricsSources {
  /** Seconds since each imported series was last imported, by source id. */
  seriesAges?: () => Iterable<[string, number]>;
  /** Seconds since the pools snapshot was fetched; null without one. */
  poolsAge?: () => number | null;
  journal?: () => JournalState | null;
  pool?: () => PoolState | null;
}

let processRegistry: client.Registry | null = null;

/** Default process metrics (CPU, memory, event loop lag, GC), collected once per process. */
function processMetrics(): client.Registry {
  if (!processRegistry) {
    processRegistry = new client.Registry();
    client.collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Release ids of one remote given their own label of remote_errors_total (later ones: other). */
export const REMOTE_RELEASE_LABELS = 20;

export class Metrics {
  readonly registry = new client.Registry();
  private sources: MetricsSources = {};
  private readonly requests = new RequestSeries();
  private readonly imports: client.Counter<'feed' | 'outcome'>;
  private readonly emails: client.Counter<'kind' | 'outcome'>;
  private readonly journalFailures: client.Counter;
  private readonly remoteErrors: client.Counter<'remote' | 'release' | 'kind'>;
  private readonly releaseLabels = new Map<string, Set<string>>();
  private readonly includeProcess: boolean;
  private journalGauges = false;
  private poolGauge = false;

  /** `processMetrics` (default true): include the default process metrics in the scrape. */
  constructor(options: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.includeProcess = options.processMetrics ?? true;
    // Started now: the process counters count from here.
    if (this.includeProcess) processMetrics();
    this.registry.registerMetric(this.requests.counter as unknown as client.Metric);
    this.registry.registerMetric(this.requests.histogram as unknown as client.Metric);
    this.imports = new client.Counter({
      name: 'yield_import_feed_runs_total',
      help: 'Imports of a feed (a series, price:<coin>, pools) by this process, by outcome (ok, failed)',
      labelNames: ['feed', 'outcome'],
      registers,
    });
    this.emails = new client.Counter({
      name: 'yield_emails_total',
      help: 'E-mail send attempts by kind (alert, confirmation) and outcome (sent, retried, failed)',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.journalFailures = new client.Counter({
      name: 'yield_journal_write_failures_total',
      help: 'Failed writes of the user-data journal or of a file it is folded into',
      registers,
    });
    this.remoteErrors = new client.Counter({
      name: 'remote_errors_total',
      help: "Errors of a remote reported by visitors' browsers, by remote, release (id; external: served from elsewhere; other: past the first 20 ids) and kind (load, render)",
      labelNames: ['remote', 'release', 'kind'],
      registers,
    });
    const sources = () => this.sources;
    new client.Gauge({
      name: 'yield_import_series_age_seconds',
      help: 'Seconds since each imported series was last imported, by source id',
      labelNames: ['source'],
      registers,
      collect() {
        this.reset();
        for (const [source, age] of sources().seriesAges?.() ?? []) this.set({ source }, age);
      },
    });
    new client.Gauge({
      name: 'yield_pools_snapshot_age_seconds',
      help: 'Seconds since the pools snapshot (scanner) was fetched',
      registers,
      collect() {
        // NaN while the server has no pools snapshot.
        this.set(sources().poolsAge?.() ?? NaN);
      },
    });
  }

  /**
   * Adds state readers (each replaces the one of its name). The journal's and the pool's series
   * exist only once their store is tracked: a server has one or the other.
   */
  track(sources: MetricsSources): void {
    this.sources = { ...this.sources, ...sources };
    if (sources.journal && !this.journalGauges) {
      this.journalGauges = true;
      this.addJournalGauges();
    }
    if (sources.pool && !this.poolGauge) {
      this.poolGauge = true;
      this.addPoolGauge();
    }
  }

  private addJournalGauges(): void {
    const registers = [this.registry];
    const sources = () => this.sources;
    new client.Gauge({
      name: 'yield_journal_pending_entries',
      help: 'User-data changes in the journal not yet folded into the JSON files',
      registers,
      collect() {
        this.reset();
        const j = sources().journal?.();
        if (j) this.set(j.pendingEntries);
      },
    });
    new client.Gauge({
      name: 'yield_journal_last_compaction_age_seconds',
      help: 'Seconds since the journal was last folded into the JSON files (or since the start)',
      registers,
      collect() {
        this.reset();
        const j = sources().journal?.();
        if (j) this.set(Math.max(0, (Date.now() - j.lastCompactionAt) / 1000));
      },
    });
  }

  private addPoolGauge(): void {
    const registers = [this.registry];
    const sources = () => this.sources;
    new client.Gauge({
      name: 'yield_pg_pool_connections',
      help: 'PostgreSQL pool: connections open (total), idle, and checkouts waiting (waiting)',
      labelNames: ['state'],
      registers,
      collect() {
        this.reset();
        const p = sources().pool?.();
        if (!p) return;
        this.set({ state: 'total' }, p.total);
        this.set({ state: 'idle' }, p.idle);
        this.set({ state: 'waiting' }, p.waiting);
      },
    });
  }

  /** One answered request: `route` is its pattern (`/api/alerts/:id`), never the raw path. */
  request(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe(method, route, status, seconds);
  }

  importOutcome(feed: string, ok: boolean): void {
    this.imports.inc({ feed, outcome: ok ? 'ok' : 'failed' });
  }

  email(kind: EmailKind, outcome: EmailOutcome): void {
    this.emails.inc({ kind, outcome });
  }

  journalWriteFailure(): void {
    this.journalFailures.inc();
  }

  /**
   * An error of a remote reported by a browser: `remote` a registry name and `release` a release
   * id or null (served from elsewhere: `external`), both validated by the caller (bounded labels).
   */
  remoteError(remote: string, release: string | null, kind: RemoteErrorKind): void {
    this.remoteErrors.inc({ remote, release: this.releaseLabel(remote, release), kind });
  }

  /**
   * The release label: `external` for null; an id among the first REMOTE_RELEASE_LABELS ids seen
   * of the remote (more than it keeps: the live one, a canary and the kept ones), any later id
   * `other`, so that ids made up by a client cannot grow the series without bound.
   */
  private releaseLabel(remote: string, release: string | null): string {
    if (release === null) return 'external';
    let seen = this.releaseLabels.get(remote);
    if (!seen) this.releaseLabels.set(remote, (seen = new Set()));
    if (seen.has(release)) return release;
    if (seen.size >= REMOTE_RELEASE_LABELS) return 'other';
    seen.add(release);
    return release;
  }

  /** The exposition text of every series, process metrics included. */
  async text(): Promise<{ contentType: string; body: string }> {
    const registry = this.includeProcess
      ? client.Registry.merge([processMetrics(), this.registry])
      : this.registry;
    return { contentType: registry.contentType, body: await registry.metrics() };
  }
}

interface RequestCell {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); the last one is +Inf. */
  buckets: Float64Array;
}

type Sample = { labels: Record<string, string | number>; value: number; metricName?: string };

/**
 * The request series, `http_requests_total` and `http_request_duration_seconds`: counted in
 * plain numbers per label set (a map lookup and a few additions per request, about a tenth of
 * prom-client's own label handling) and handed to the registry as prom-client metric objects.
 */
class RequestSeries {
  private readonly cells = new Map<string, RequestCell>();

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let cell = this.cells.get(key);
    if (!cell) {
      cell = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        buckets: new Float64Array(LATENCY_BUCKETS.length + 1),
      };
      this.cells.set(key, cell);
    }
    cell.count++;
    cell.sum += seconds;
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
    cell.buckets[i]!++;
  }

  readonly counter = {
    name: 'http_requests_total',
    help: 'API requests answered, by method, route pattern and status',
    type: 'counter',
    aggregator: 'sum',
    get: () => ({
      ...this.counter,
      values: [...this.cells.values()].map((c): Sample => ({ labels: c.labels, value: c.count })),
    }),
    reset: () => this.cells.clear(),
  };

  readonly histogram = {
    name: 'http_request_duration_seconds',
    help: 'Time to answer an API request, by method, route pattern and status',
    type: 'histogram',
    aggregator: 'sum',
    get: () => {
      const name = this.histogram.name;
      const values: Sample[] = [];
      for (const c of this.cells.values()) {
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((le, i) => {
          cumulative += c.buckets[i]!;
          values.push({
            labels: { ...c.labels, le },
            value: cumulative,
            metricName: `${name}_bucket`,
          });
        });
        values.push({
          labels: { ...c.labels, le: '+Inf' },
          value: c.count,
          metricName: `${name}_bucket`,
        });
        values.push({ labels: c.labels, value: c.sum, metricName: `${name}_sum` });
        values.push({ labels: c.labels, value: c.count, metricName: `${name}_count` });
      }
      return { ...this.histogram, values };
    },
    reset: () => this.cells.clear(),
  };
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether the request carries `Authorization: Bearer <token>` (compared in constant time). */
export function hasBearer(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

function sendJson(res: ServerResponse, status: number, code: ApiErrorCode, message: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  if (status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
  res.end(JSON.stringify({ error: { code, message } }));
}

export interface MetricsEndpointOptions {
  /** Required as a bearer token; null = none asked (only for the separate, private port). */
  token: string | null;
  /** Without a token: answer 404, as if there were no such path (the public port). */
  requireToken: boolean;
}

/** Serves GET /metrics (the caller routes only that path here). */
export function metricsHandler(
  metrics: Metrics,
  options: MetricsEndpointOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (options.token === null && options.requireToken) {
      return sendJson(res, 404, 'not_found', 'Not found');
    }
    if (options.token !== null && !hasBearer(req, options.token)) {
      return sendJson(res, 401, 'unauthorized', 'A bearer token is required');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return sendJson(res, 405, 'method_not_allowed', 'Method not allowed');
    }
    metrics.text().then(
      ({ contentType, body }) => {
        res.statusCode = 200;
        res.setHeader('Content-Type', contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => sendJson(res, 500, 'internal_error', 'Metrics could not be collected'),
    );
  };
}

/** The path of the endpoint, without a query string: `/metrics`. */
export function isMetricsPath(url: string | undefined): boolean {
  if (!url) return false;
  const q = url.indexOf('?');
  return (q === -1 ? url : url.slice(0, q)) === '/metrics';
}

/**
 * The separate metrics server (METRICS_PORT on METRICS_HOST, 127.0.0.1 by default): /metrics
 * only, with METRICS_TOKEN asked when one is set. Resolves once it listens.
 */
export async function startMetricsServer(
  metrics: Metrics,
  options: { port: number; host: string; token: string | null },
): Promise<http.Server> {
  const handle = metricsHandler(metrics, { token: options.token, requireToken: false });
  const server = http.createServer((req, res) => {
    if (isMetricsPath(req.url)) return handle(req, res);
    sendJson(res, 404, 'not_found', 'Not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
