/**
 * The configuration of the API, its operator commands and the site server: every environment
 * variable they read is declared once here (type, default, a one-line description, the processes
 * that read it), in one zod schema parsed at start by `loadConfig()`. Nothing else in api/src,
 * api/scripts or packages/site-server/src looks into `process.env`: they hand it to loadConfig().
 *
 * An empty (or blank) value counts as unset. Every malformed variable is reported at once:
 *
 *   Invalid configuration:
 *   - JWT_SECRET must be at least 32 bytes long (it has 8); generate one with: …
 *   - TRUST_PROXY must be the number of reverse proxies in front of the server (…), got "yes"
 *
 * and the servers stop with `Cannot start: ` and that text (stopOnStartError, composition/deps.ts). The table
 * "Environment" of docs/api.md lists the same variables with the same defaults and readers
 * (checked by api/test/config.test.ts).
 *
 * Not here: variables of the test and benchmark harnesses only (E2E_PORT, E2E_DATA_FROM, CI,
 * CHROMIUM_PATH, LH_DUMP, BENCH_*) and of the front-end build (PROFILE_MAPS); the tests set the
 * variables below on the processes they start, they read none of their own.
 */
import path from 'node:path';
import { z } from 'zod';
import { parseTrustProxy } from './http/client-address.ts';
import { parseInterval } from './interval.ts';
import { parseLogLevel, type LogLevel } from './logger.ts';
import { assertStrongSecret } from './secrets.ts';
import { DEFAULT_DATA_DIR } from './paths.ts';

export { API_ROOT, DEFAULT_DATA_DIR } from './paths.ts';

/** DeFiLlama's yields API, where the importer reads pools and charts. */
export const DEFAULT_DEFILLAMA_API_URL = 'https://yields.llama.fi';
/** DeFiLlama's coins API, where the importer reads token prices. */
export const DEFAULT_COINS_API_URL = 'https://coins.llama.fi';

/**
 * The processes that read the environment: `api` is createDeps() (the API in the standalone
 * server and in the site server), `api-server` the standalone server (src/server.ts),
 * `site-server` packages/site-server/src/main.ts, the others the operator commands of the same
 * name (`db` is db:migrate, db:import-files and db:export-files).
 */
export const READERS = [
  'api',
  'api-server',
  'site-server',
  'data:import',
  'data:generate',
  'pools:generate',
  'invite:create',
  'invite:disable',
  'db',
] as const;
export type Reader = (typeof READERS)[number];

interface VariableSpec<T> {
  /** One line for operators (the docs table says more). */
  description: string;
  readBy: readonly Reader[];
  /** The value when unset or blank. */
  default: T;
  /** How the docs table shows the default; else the default value in backticks. */
  shownDefault?: string;
  /** The value of a set variable; throws an Error whose message names the variable. */
  parse: (text: string, name: string) => T;
}

interface Variable<T> extends VariableSpec<T> {
  schema: z.ZodType<T, string | undefined>;
}

const isBlank = (raw: string | undefined): raw is undefined =>
  raw === undefined || raw.trim() === '';

function variable<T>(spec: VariableSpec<T>): (name: string) => Variable<T> {
  return (name) => ({
    ...spec,
    schema: z
      .string()
      .optional()
      .transform((raw, ctx): T => {
        if (isBlank(raw)) return spec.default;
        try {
          return spec.parse(raw, name);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
          return z.NEVER;
        }
      })
      .describe(spec.description),
  });
}

// ---- the value types ----------------------------------------------------------------------

/** A whole number in digits (`30000`), from `min` up. */
function wholeNumber(min: 0 | 1, max = Number.MAX_SAFE_INTEGER) {
  return (text: string, name: string): number => {
    const digits = text.trim();
    const n = /^\d{1,15}$/.test(digits) ? Number(digits) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      const range =
        max === Number.MAX_SAFE_INTEGER
          ? min === 0
            ? 'a whole number, 0 or more'
            : 'a positive whole number'
          : `a whole number from ${min} to ${max}`;
      throw new Error(`${name} must be ${range}, got "${text}"`);
    }
    return n;
  };
}

const port = wholeNumber(0, 65_535);

/** An absolute URL whose scheme is one of `protocols` (without the colon). */
function url(protocols: readonly string[], example: string) {
  const schemes = protocols.map((p) => `${p}://`).join(' or ');
  return (text: string, name: string): string => {
    const value = text.trim();
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new Error(`${name} must be a URL starting with ${schemes} (${example}), got "${text}"`);
    }
    if (!protocols.includes(parsed.protocol.slice(0, -1)))
      throw new Error(`${name} must start with ${schemes}, got "${parsed.protocol}"`);
    return value;
  };
}

const httpUrl = (example: string) => url(['http', 'https'], example);

function secret(text: string, name: string): string {
  assertStrongSecret(name, text);
  return text;
}

/** METRICS_TOKEN: at least 16 characters (it guards the process's figures). */
export function metricsToken(text: string, name = 'METRICS_TOKEN'): string {
  const value = text.trim();
  if (value.length < 16) throw new Error(`${name} must be at least 16 characters`);
  return value;
}

/** `0` turns a feature off, `1` on. */
function flag(text: string, name: string): boolean {
  const value = text.trim();
  if (value !== '0' && value !== '1')
    throw new Error(`${name} must be 0 (off) or 1 (on), got "${text}"`);
  return value === '1';
}

const text = (value: string): string => value.trim();
const filePath = (value: string): string => path.resolve(value.trim());

const COMMANDS_WITH_DATA_DIR: readonly Reader[] = [
  'data:import',
  'data:generate',
  'pools:generate',
  'invite:create',
  'invite:disable',
  'db',
];
const HTTP_SERVERS: readonly Reader[] = ['api-server', 'site-server'];

/** Every variable: name -> declaration (the docs table lists them in this order). */
const VARIABLES = {
  API_PORT: variable({
    description: 'port of the standalone API server',
    readBy: ['api-server'],
    default: 8787,
    parse: port,
  }),
  PORT: variable({
    description: 'port of the site server',
    readBy: ['site-server'],
    default: 8080,
    parse: port,
  }),
  DATA_DIR: variable({
    description: 'the data directory (yield files, runtime files, user data without a database)',
    readBy: ['api', ...COMMANDS_WITH_DATA_DIR],
    default: DEFAULT_DATA_DIR,
    shownDefault: '`api/data`',
    parse: filePath,
  }),
  JWT_SECRET: variable<string | undefined>({
    description: 'HS256 secret of premium tokens, at least 32 bytes',
    readBy: ['api'],
    default: undefined,
    shownDefault: 'generated',
    parse: secret,
  }),
  RATE_LIMIT_MAX: variable({
    description: 'requests per client per window on each rate-limited call',
    readBy: ['api'],
    default: 30,
    parse: wholeNumber(0),
  }),
  RATE_LIMIT_WINDOW_MS: variable({
    description: 'the rate-limit window in milliseconds',
    readBy: ['api'],
    default: 60_000,
    parse: wholeNumber(1),
  }),
  AS_OF_RATE_LIMIT_MAX: variable({
    description: 'past days not yet computed a client may ask for per rate-limit window',
    readBy: ['api'],
    default: 20,
    parse: wholeNumber(0),
  }),
  DATA_POLL_MS: variable({
    description: 'how often data files are checked for hand edits (0 = never)',
    readBy: ['api'],
    default: 1000,
    parse: wholeNumber(0),
  }),
  TRUST_PROXY: variable({
    description: 'the number of reverse proxies in front of the server (0-20)',
    readBy: ['api'],
    default: 0,
    parse: (value) => parseTrustProxy(value),
  }),
  DATA_IMPORT_INTERVAL: variable<number | null>({
    description: 'import from DeFiLlama every 30s, 15m, 6h, 1d (milliseconds after parsing)',
    readBy: ['api'],
    default: null,
    shownDefault: 'unset',
    parse: (value) => parseInterval(value),
  }),
  DEFILLAMA_API_URL: variable({
    description: "DeFiLlama's yields API",
    readBy: ['api', 'data:import'],
    default: DEFAULT_DEFILLAMA_API_URL,
    parse: httpUrl('https://yields.llama.fi'),
  }),
  COINS_API_URL: variable({
    description: "DeFiLlama's coins API (token prices)",
    readBy: ['api', 'data:import'],
    default: DEFAULT_COINS_API_URL,
    parse: httpUrl('https://coins.llama.fi'),
  }),
  ONCHAIN_MAX_DAYS: variable({
    description: 'days an on-chain feed is backfilled on its first import',
    readBy: ['api', 'data:import'],
    default: 365,
    parse: wholeNumber(1, 10_000),
  }),
  RPC_CHAIN_DEADLINE_MS: variable({
    description: "milliseconds one chain's on-chain feeds may take in all in an import",
    readBy: ['api', 'data:import'],
    default: 300_000,
    // At most a day (a timer of more than 2^31 - 1 ms would fire at once).
    parse: wholeNumber(1, 86_400_000),
  }),
  SMTP_URL: variable<string | undefined>({
    description: 'SMTP server of alert e-mails; unset = .eml files in DATA_DIR/outbox',
    readBy: ['api'],
    default: undefined,
    shownDefault: 'unset',
    parse: url(['smtp', 'smtps'], 'smtp://user:pass@host:587'),
  }),
  PUBLIC_URL: variable<string | undefined>({
    description: "the site's public address, the base of e-mailed links",
    readBy: ['api'],
    default: undefined,
    shownDefault: '`siteUrl` of settings.json',
    parse: httpUrl('https://pigi.finance'),
  }),
  ALERTS_SECRET: variable<string | undefined>({
    description: 'HMAC key of the alert links, at least 32 bytes',
    readBy: ['api'],
    default: undefined,
    shownDefault: 'kept in `DATA_DIR`',
    parse: secret,
  }),
  MAIL_FROM: variable<string | undefined>({
    description: 'sender of alert e-mails',
    readBy: ['api'],
    default: undefined,
    shownDefault: 'from settings.json',
    parse: text,
  }),
  DATABASE_URL: variable<string | undefined>({
    description: 'user data in this PostgreSQL database instead of the JSON files',
    readBy: ['api', 'data:import', 'invite:create', 'invite:disable', 'db'],
    default: undefined,
    shownDefault: 'unset',
    parse: url(['postgres', 'postgresql', 'socket'], 'postgres://user:pass@host:5432/db'),
  }),
  POOL_BACKFILL_TOP: variable({
    description: 'pools by TVL whose daily history the server backfills from DeFiLlama /chart',
    readBy: ['api'],
    default: 500,
    parse: wholeNumber(0, 100_000),
  }),
  POOL_BACKFILL_RPM: variable({
    description: 'most /chart requests of the pool history backfill in any 60 seconds',
    readBy: ['api'],
    default: 30,
    parse: wholeNumber(1, 10_000),
  }),
  POOL_BACKFILL_CONCURRENCY: variable({
    description: '/chart requests of the pool history backfill at once',
    readBy: ['api'],
    default: 2,
    parse: wholeNumber(1, 64),
  }),
  POOL_BACKFILL_QUEUE_MAX: variable({
    description: 'pools whose page was opened that wait at most for a pool history backfill',
    readBy: ['api'],
    default: 200,
    parse: wholeNumber(0, 100_000),
  }),
  POOL_BACKFILL_CLIENT_MAX: variable({
    description: 'pool history backfills one client may queue per hour by opening pool pages',
    readBy: ['api'],
    default: 20,
    parse: wholeNumber(0, 100_000),
  }),
  PG_POOL_MAX: variable({
    description: 'database connections per process',
    readBy: ['api'],
    default: 10,
    parse: wholeNumber(1),
  }),
  API_BODY_TIMEOUT_MS: variable({
    description: 'milliseconds a client has to send a JSON request body',
    readBy: ['api'],
    default: 10_000,
    parse: wholeNumber(1),
  }),
  HEADERS_TIMEOUT_MS: variable({
    description: "milliseconds a client has to send a request's headers",
    readBy: HTTP_SERVERS,
    default: 10_000,
    parse: wholeNumber(1),
  }),
  REQUEST_TIMEOUT_MS: variable({
    description: 'milliseconds a client has to send a whole request',
    readBy: HTTP_SERVERS,
    default: 30_000,
    parse: wholeNumber(1),
  }),
  LOG_LEVEL: variable<LogLevel>({
    description: 'lowest level logged (debug, info, warn, error, silent)',
    readBy: ['api'],
    default: 'info',
    parse: (text) => parseLogLevel(text),
  }),
  METRICS_TOKEN: variable<string | null>({
    description:
      "bearer token of /metrics on the site's port (unset: /metrics is not served there)",
    readBy: ['api'],
    default: null,
    shownDefault: 'unset',
    parse: metricsToken,
  }),
  METRICS_PORT: variable<number | null>({
    description: 'port of a separate /metrics server (unset: none)',
    readBy: ['api'],
    default: null,
    shownDefault: 'unset',
    parse: wholeNumber(1, 65_535),
  }),
  METRICS_HOST: variable({
    description: 'address the separate /metrics server binds',
    readBy: ['api'],
    default: '127.0.0.1',
    parse: (text) => text.trim(),
  }),
  REMOTES_MANIFEST: variable<string | undefined>({
    description: "the remotes' manifest to serve instead of the build's",
    readBy: ['site-server'],
    default: undefined,
    shownDefault: "the build's `remotes.json`",
    parse: filePath,
  }),
  SITE_RESOURCE_HINTS: variable({
    description: "0 sends pages without their modules' preload hints",
    readBy: ['site-server'],
    default: true,
    parse: flag,
  }),
  SITE_FIRST_PAINT: variable({
    description: '0 sends pages without their server-rendered first paint',
    readBy: ['site-server'],
    default: true,
    parse: flag,
  }),
  SITE_FIRST_PAINT_DATA: variable({
    description: '0 paints pages without their data',
    readBy: ['site-server'],
    default: true,
    parse: flag,
  }),
  SITE_MAX_RENDERS: variable({
    description: 'first paints rendered at once',
    readBy: ['site-server'],
    default: 4,
    parse: wholeNumber(1),
  }),
  SITE_RENDER_BUDGET_MS: variable({
    description: 'milliseconds of each second spent rendering first paints, at most',
    readBy: ['site-server'],
    default: 200,
    parse: wholeNumber(1),
  }),
};

/**
 * Families of variables named by a pattern: `RPC_URL_<CHAIN>` is the JSON-RPC endpoint of a chain
 * (RPC_URL_ETHEREUM for the feeds of chain `ethereum`), read by the on-chain feeds of the import.
 * docs/api.md's Environment table lists each pattern as a row of its own.
 */
export const VARIABLE_PATTERNS = {
  'RPC_URL_<CHAIN>': {
    prefix: 'RPC_URL_',
    description: "a chain's JSON-RPC endpoint (e.g. RPC_URL_ETHEREUM) for the on-chain feeds",
    readBy: ['api', 'data:import'] as readonly Reader[],
    shownDefault: 'unset',
    parse: httpUrl('https://ethereum-rpc.example'),
  },
} as const;

/**
 * The JSON-RPC endpoints set in the environment, by chain name in lower case
 * (RPC_URL_ETHEREUM → ethereum). Throws a ConfigError listing every malformed one.
 */
export function loadRpcUrls(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const { prefix, parse } = VARIABLE_PATTERNS['RPC_URL_<CHAIN>'];
  const out: Record<string, string> = {};
  const problems: { variable: string; message: string }[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(prefix) || isBlank(value)) continue;
    const chain = name.slice(prefix.length);
    if (!/^[A-Z][A-Z0-9_]{0,39}$/.test(chain)) {
      problems.push({
        variable: name,
        message: `${name}: the chain after ${prefix} must be letters, digits and _ (e.g. ${prefix}ETHEREUM)`,
      });
      continue;
    }
    try {
      out[chain.toLowerCase()] = parse(value, name);
    } catch (err) {
      problems.push({ variable: name, message: (err as Error).message });
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out;
}

type Declarations = typeof VARIABLES;
export type VariableName = keyof Declarations;
type ValueOf<N extends VariableName> =
  ReturnType<Declarations[N]> extends Variable<infer T> ? T : never;

/** The parsed configuration: every variable, its value or its default. */
export type Config = { [N in VariableName]: ValueOf<N> };

/** The declarations, by name (for the docs table and its check). */
export const ENVIRONMENT: { [N in VariableName]: Variable<ValueOf<N>> } = Object.fromEntries(
  Object.entries(VARIABLES).map(([name, declare]) => [name, declare(name)]),
) as { [N in VariableName]: Variable<ValueOf<N>> };

export const VARIABLE_NAMES = Object.keys(ENVIRONMENT) as VariableName[];

/** The whole schema: environment in, Config out. */
export const configSchema = z.object(
  Object.fromEntries(VARIABLE_NAMES.map((name) => [name, ENVIRONMENT[name].schema])) as {
    [N in VariableName]: z.ZodType<ValueOf<N>, string | undefined>;
  },
);

/** A configuration that cannot be used; `problems` has one line per malformed variable. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(`Invalid configuration:\n${problems.map((p) => `- ${p.message}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment. With `readers`, only the variables those processes read are looked
 * at (the others keep their defaults), so an operator command does not stop over a variable of
 * the servers. Throws a ConfigError listing every malformed variable.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  readers: readonly Reader[] = READERS,
): Config {
  const input: Record<string, string | undefined> = {};
  for (const name of VARIABLE_NAMES) {
    if (ENVIRONMENT[name].readBy.some((r) => readers.includes(r))) input[name] = env[name];
  }
  const parsed = configSchema.safeParse(input);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({
        variable: String(issue.path[0]),
        message: issue.message,
      }));
  if (VARIABLE_PATTERNS['RPC_URL_<CHAIN>'].readBy.some((r) => readers.includes(r))) {
    try {
      loadRpcUrls(env);
    } catch (err) {
      problems.push(...(err as ConfigError).problems);
    }
  }
  if (problems.length === 0 && parsed.success) return parsed.data as Config;
  throw new ConfigError(problems);
}

/** How the docs table shows a variable's default. */
export function shownDefault(name: VariableName): string {
  const v = ENVIRONMENT[name];
  if (v.shownDefault !== undefined) return v.shownDefault;
  const value = v.default as unknown;
  return `\`${typeof value === 'boolean' ? (value ? '1' : '0') : String(value)}\``;
}

/** How the docs table names the processes reading a variable. */
export function shownReaders(name: VariableName): string {
  return ENVIRONMENT[name].readBy.map((r) => `\`${r}\``).join(', ');
}
