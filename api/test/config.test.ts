/**
 * The configuration (api/src/platform/config.ts): defaults, every malformed variable reported at once (by
 * loadConfig, createDeps, the API server process and the operator commands), and the table
 * "Environment" of docs/api.md kept equal to the schema.
 */
import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_DATA_DIR,
  ENVIRONMENT,
  loadConfig,
  loadRpcUrls,
  shownDefault,
  shownReaders,
  VARIABLE_NAMES,
  VARIABLE_PATTERNS,
} from '../src/platform/config.ts';
import { API_ROOT, createDeps } from '../src/composition/deps.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { runImportCli } from '../scripts/import-data.ts';
import { tempDataDir } from './helpers.ts';

const run = promisify(execFile);
const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** Several malformed variables of the API at once, and the line each must produce. */
const BAD_API_ENV: Record<string, string> = {
  JWT_SECRET: 'changeme',
  TRUST_PROXY: 'yes',
  DATA_IMPORT_INTERVAL: 'hourly',
  SMTP_URL: 'http://mail.example',
  PUBLIC_URL: 'pigi.finance',
  ALERTS_SECRET: 'short',
  DATABASE_URL: 'mysql://db.example/pigi',
  PG_POOL_MAX: '0',
  API_BODY_TIMEOUT_MS: 'ten seconds',
};
/** In the order of the schema (the order of the table in docs/api.md). */
const BAD_API_LINES = [
  '- JWT_SECRET must be at least 32 bytes long (it has 8); generate one with: openssl rand -base64 48',
  '- TRUST_PROXY must be the number of reverse proxies in front of the server (0 = none, 1 = one load balancer, 2 = a CDN in front of a load balancer, at most 20), got "yes"',
  '- DATA_IMPORT_INTERVAL must be a positive number with a unit s, m, h or d (e.g. 15m, 6h), got "hourly"',
  '- SMTP_URL must start with smtp:// or smtps://, got "http:"',
  '- PUBLIC_URL must be a URL starting with http:// or https:// (https://pigi.finance), got "pigi.finance"',
  '- ALERTS_SECRET must be at least 32 bytes long (it has 5); generate one with: openssl rand -base64 48',
  '- DATABASE_URL must start with postgres:// or postgresql:// or socket://, got "mysql:"',
  '- PG_POOL_MAX must be a positive whole number, got "0"',
  '- API_BODY_TIMEOUT_MS must be a positive whole number, got "ten seconds"',
];

describe('loadConfig', () => {
  it('gives every variable its default when the environment is empty, and blank counts as unset', () => {
    const expected = {
      API_PORT: 8787,
      PORT: 8080,
      DATA_DIR: DEFAULT_DATA_DIR,
      JWT_SECRET: undefined,
      RATE_LIMIT_MAX: 30,
      RATE_LIMIT_WINDOW_MS: 60_000,
      AS_OF_RATE_LIMIT_MAX: 20,
      DATA_POLL_MS: 1000,
      TRUST_PROXY: 0,
      DATA_IMPORT_INTERVAL: null,
      DEFILLAMA_API_URL: 'https://yields.llama.fi',
      COINS_API_URL: 'https://coins.llama.fi',
      ONCHAIN_MAX_DAYS: 365,
      RPC_CHAIN_DEADLINE_MS: 300_000,
      SMTP_URL: undefined,
      PUBLIC_URL: undefined,
      ALERTS_SECRET: undefined,
      MAIL_FROM: undefined,
      DATABASE_URL: undefined,
      POOL_BACKFILL_TOP: 500,
      POOL_BACKFILL_RPM: 30,
      POOL_BACKFILL_CONCURRENCY: 2,
      POOL_BACKFILL_QUEUE_MAX: 200,
      POOL_BACKFILL_CLIENT_MAX: 20,
      PG_POOL_MAX: 10,
      API_BODY_TIMEOUT_MS: 10_000,
      HEADERS_TIMEOUT_MS: 10_000,
      REQUEST_TIMEOUT_MS: 30_000,
      LOG_LEVEL: 'info',
      METRICS_TOKEN: null,
      METRICS_PORT: null,
      METRICS_HOST: '127.0.0.1',
      REMOTES_MANIFEST: undefined,
      SITE_RESOURCE_HINTS: true,
      SITE_FIRST_PAINT: true,
      SITE_FIRST_PAINT_DATA: true,
      SITE_MAX_RENDERS: 4,
      SITE_RENDER_BUDGET_MS: 200,
    };
    expect(loadConfig({})).toEqual(expected);
    const blank = Object.fromEntries(VARIABLE_NAMES.map((name) => [name, '  ']));
    expect(loadConfig(blank)).toEqual(expected);
    // Every declared variable is in the list above.
    expect(Object.keys(expected).sort()).toEqual([...VARIABLE_NAMES].sort());
  });

  it('parses set values', () => {
    const config = loadConfig({
      API_PORT: '0',
      PORT: '4173',
      DATA_DIR: 'some/dir',
      TRUST_PROXY: ' 2 ',
      DATA_IMPORT_INTERVAL: '15m',
      SMTP_URL: 'smtps://user:pass@mail.example:465',
      DATABASE_URL: 'postgres://pigi@127.0.0.1:5432/pigi',
      PG_POOL_MAX: '3',
      RATE_LIMIT_MAX: '0',
      REQUEST_TIMEOUT_MS: '5000',
      SITE_FIRST_PAINT: '0',
      SITE_RESOURCE_HINTS: '1',
      REMOTES_MANIFEST: 'remotes.json',
    });
    expect(config).toMatchObject({
      API_PORT: 0,
      PORT: 4173,
      DATA_DIR: path.resolve('some/dir'),
      TRUST_PROXY: 2,
      DATA_IMPORT_INTERVAL: 15 * 60_000,
      SMTP_URL: 'smtps://user:pass@mail.example:465',
      DATABASE_URL: 'postgres://pigi@127.0.0.1:5432/pigi',
      PG_POOL_MAX: 3,
      RATE_LIMIT_MAX: 0,
      REQUEST_TIMEOUT_MS: 5000,
      SITE_FIRST_PAINT: false,
      SITE_RESOURCE_HINTS: true,
      REMOTES_MANIFEST: path.resolve('remotes.json'),
    });
  });

  it('takes a chain deadline of 1 ms to a day, and refuses one a timer cannot hold', () => {
    expect(loadConfig({ RPC_CHAIN_DEADLINE_MS: '1500' }).RPC_CHAIN_DEADLINE_MS).toBe(1500);
    expect(loadConfig({ RPC_CHAIN_DEADLINE_MS: '86400000' }).RPC_CHAIN_DEADLINE_MS).toBe(
      86_400_000,
    );
    for (const bad of ['0', '86400001', '2147483648', '5m'])
      expect(() => loadConfig({ RPC_CHAIN_DEADLINE_MS: bad })).toThrow(
        `RPC_CHAIN_DEADLINE_MS must be a whole number from 1 to 86400000, got "${bad}"`,
      );
  });

  it('lists every malformed variable, not just the first', () => {
    const env = {
      ...BAD_API_ENV,
      API_PORT: '80808',
      REQUEST_TIMEOUT_MS: '-1',
      HEADERS_TIMEOUT_MS: '1.5',
      SITE_FIRST_PAINT: 'false',
      SITE_MAX_RENDERS: 'many',
      DEFILLAMA_API_URL: 'ftp://yields.example',
    };
    let error: unknown;
    try {
      loadConfig(env);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { message, problems } = error as ConfigError;
    expect(message.split('\n')[0]).toBe('Invalid configuration:');
    for (const line of [
      ...BAD_API_LINES,
      '- API_PORT must be a whole number from 0 to 65535, got "80808"',
      '- REQUEST_TIMEOUT_MS must be a positive whole number, got "-1"',
      '- HEADERS_TIMEOUT_MS must be a positive whole number, got "1.5"',
      '- SITE_FIRST_PAINT must be 0 (off) or 1 (on), got "false"',
      '- SITE_MAX_RENDERS must be a positive whole number, got "many"',
      '- DEFILLAMA_API_URL must start with http:// or https://, got "ftp:"',
    ]) {
      expect(message.split('\n')).toContain(line);
    }
    expect(problems.map((p) => p.variable).sort()).toEqual(Object.keys(env).sort());
    expect(message.split('\n')).toHaveLength(1 + Object.keys(env).length);
  });

  it('looks only at the variables of the processes asked for', () => {
    const env = { SITE_MAX_RENDERS: 'many', JWT_SECRET: 'changeme', DATA_DIR: '/srv/pigi' };
    expect(loadConfig(env, ['data:import']).DATA_DIR).toBe('/srv/pigi');
    expect(() => loadConfig(env, ['api'])).toThrow(/^Invalid configuration:\n- JWT_SECRET must/);
    expect(() => loadConfig(env, ['site-server'])).toThrow(
      'Invalid configuration:\n- SITE_MAX_RENDERS must be a positive whole number, got "many"',
    );
  });
});

describe('the start with several malformed variables', () => {
  it('createDeps refuses with every malformed variable of the API listed', async () => {
    const dir = await tempDataDir();
    dirs.push(dir);
    const saved = { ...process.env };
    Object.assign(process.env, BAD_API_ENV);
    try {
      const error = await createDeps({
        dataDir: dir,
        logger: silentLogger,
        watchIntervalMs: 0,
      }).then(
        () => null,
        (err: unknown) => err as Error,
      );
      expect(error).toBeInstanceOf(ConfigError);
      expect(error!.message.split('\n')).toEqual(['Invalid configuration:', ...BAD_API_LINES]);
    } finally {
      for (const name of Object.keys(BAD_API_ENV)) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });

  it('options win: a variable whose option is given is not read', async () => {
    const dir = await tempDataDir();
    dirs.push(dir);
    const saved = process.env.TRUST_PROXY;
    process.env.TRUST_PROXY = 'yes';
    try {
      const deps = await createDeps({
        dataDir: dir,
        logger: silentLogger,
        watchIntervalMs: 0,
        trustProxy: 1,
        jwtSecret: 'x'.repeat(32),
        databaseUrl: null,
      });
      expect(deps.trustProxy).toBe(1);
      await deps.close();
    } finally {
      if (saved === undefined) delete process.env.TRUST_PROXY;
      else process.env.TRUST_PROXY = saved;
    }
  });

  it('the API server process exits 1 with "Cannot start: " and the whole list, no stack', async () => {
    const dir = await tempDataDir();
    dirs.push(dir);
    const failure = (await run(
      process.execPath,
      ['--import', 'tsx', path.join('src', 'server.ts')],
      {
        cwd: API_ROOT,
        env: {
          ...process.env,
          API_PORT: '0',
          DATA_DIR: dir,
          ...BAD_API_ENV,
          REQUEST_TIMEOUT_MS: 'soon',
        },
        timeout: 30_000,
      },
    ).then(
      () => null,
      (err: unknown) => err,
    )) as { code?: number; stderr?: string; killed?: boolean } | null;
    expect(failure).not.toBeNull();
    expect(failure!.killed).toBeFalsy();
    expect(failure!.code).toBe(1);
    expect(failure!.stderr!.trimEnd().split('\n')).toEqual([
      'Cannot start: Invalid configuration:',
      ...BAD_API_LINES,
      '- REQUEST_TIMEOUT_MS must be a positive whole number, got "soon"',
    ]);
  }, 45_000);

  it('data:import names every malformed variable it reads and exits 2', async () => {
    const result = await runImportCli(['--dry-run'], {
      DEFILLAMA_API_URL: 'yields.example',
      COINS_API_URL: 'ftp://coins.example',
      // Not read by data:import.
      JWT_SECRET: 'changeme',
    });
    expect(result.exitCode).toBe(2);
    expect(result.output).toBe(
      [
        'Invalid configuration:',
        '- DEFILLAMA_API_URL must be a URL starting with http:// or https:// (https://yields.llama.fi), got "yields.example"',
        '- COINS_API_URL must start with http:// or https://, got "ftp:"',
      ].join('\n'),
    );
  });
});

/** The rows of the table under "### Environment" in docs/api.md: name -> cells. */
function environmentTable(markdown: string): Map<string, { default: string; readBy: string }> {
  const start = markdown.indexOf('\n### Environment\n');
  if (start < 0) throw new Error('docs/api.md has no "### Environment" section');
  const lines = markdown.slice(start).split('\n').slice(2);
  const rows = new Map<string, { default: string; readBy: string }>();
  let inTable = false;
  for (const line of lines) {
    if (!line.startsWith('|')) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    const cells = line
      .slice(1, -1)
      .split(' | ')
      .map((c) => c.trim());
    const name = /^`([A-Z0-9_]+)`$/.exec(cells[0] ?? '')?.[1];
    if (name) rows.set(name, { default: cells[1] ?? '', readBy: cells[2] ?? '' });
  }
  return rows;
}

/** What differs between the docs table and the schema; empty when they agree. */
function tableProblems(markdown: string): string[] {
  const rows = environmentTable(markdown);
  const problems: string[] = [];
  for (const name of VARIABLE_NAMES) {
    const row = rows.get(name);
    if (!row) {
      problems.push(`${name} is in the schema but not in the table`);
      continue;
    }
    if (row.default !== shownDefault(name))
      problems.push(
        `${name}: the table says default ${row.default}, the schema ${shownDefault(name)}`,
      );
    if (row.readBy !== shownReaders(name))
      problems.push(
        `${name}: the table says read by ${row.readBy}, the schema ${shownReaders(name)}`,
      );
  }
  for (const name of rows.keys()) {
    if (!(name in ENVIRONMENT)) problems.push(`${name} is in the table but not in the schema`);
  }
  return problems;
}

describe('docs/api.md, "Environment"', () => {
  const docs = () => readFile(path.join(API_ROOT, '..', 'docs', 'api.md'), 'utf8');

  it('lists exactly the variables of the schema, with their defaults and readers', async () => {
    expect(tableProblems(await docs())).toEqual([]);
  });

  it('the check notices a missing row, an unknown row and a changed default', async () => {
    const markdown = await docs();
    const rows = markdown.split('\n');
    const row = (name: string) => rows.findIndex((l) => l.startsWith(`| \`${name}\` `));
    const dropped = rows.filter((_, i) => i !== row('PG_POOL_MAX'));
    expect(tableProblems(dropped.join('\n'))).toEqual([
      'PG_POOL_MAX is in the schema but not in the table',
    ]);
    const extra = [...rows];
    extra.splice(
      row('API_PORT') + 1,
      0,
      '| `API_HOST` | `0.0.0.0` | `api-server` | where to listen |',
    );
    expect(tableProblems(extra.join('\n'))).toEqual([
      'API_HOST is in the table but not in the schema',
    ]);
    const changed = [...rows];
    changed[row('RATE_LIMIT_MAX')] = changed[row('RATE_LIMIT_MAX')]!.replace('`30`', '`50`');
    expect(tableProblems(changed.join('\n'))).toEqual([
      'RATE_LIMIT_MAX: the table says default `50`, the schema `30`',
    ]);
  });
});

describe('RPC_URL_<CHAIN>: a family of variables named by a pattern', () => {
  it('gives each chain its JSON-RPC endpoint, by chain name in lower case; blank counts as unset', () => {
    expect(
      loadRpcUrls({
        RPC_URL_ETHEREUM: 'http://127.0.0.1:8545',
        RPC_URL_BASE: ' ',
        RPC_URL_ARBITRUM_ONE: 'https://arb.example/rpc',
        PORT: '1',
      }),
    ).toEqual({ ethereum: 'http://127.0.0.1:8545', arbitrum_one: 'https://arb.example/rpc' });
    expect(loadRpcUrls({})).toEqual({});
  });

  it('a malformed endpoint stops loadConfig and data:import with the others, naming the variable', async () => {
    expect(() =>
      loadConfig({ RPC_URL_ETHEREUM: 'ws://node.example', PG_POOL_MAX: '0' }, ['api']),
    ).toThrow(
      new ConfigError([
        {
          variable: 'PG_POOL_MAX',
          message: 'PG_POOL_MAX must be a positive whole number, got "0"',
        },
        {
          variable: 'RPC_URL_ETHEREUM',
          message: 'RPC_URL_ETHEREUM must start with http:// or https://, got "ws:"',
        },
      ]),
    );
    // Read by the API and data:import only.
    expect(() => loadConfig({ RPC_URL_ETHEREUM: 'nonsense' }, ['site-server'])).not.toThrow();
    const result = await runImportCli([], { RPC_URL_ETHEREUM: 'nonsense' });
    expect(result.exitCode).toBe(2);
    expect(result.output).toContain(
      '- RPC_URL_ETHEREUM must be a URL starting with http:// or https:// (https://ethereum-rpc.example), got "nonsense"',
    );
  });

  it('docs/api.md lists each pattern in the Environment table, with its default and readers', async () => {
    const markdown = await readFile(path.join(API_ROOT, '..', 'docs', 'api.md'), 'utf8');
    const table = markdown.slice(markdown.indexOf('\n### Environment\n')).split('\n\n| ')[1]!;
    for (const [pattern, spec] of Object.entries(VARIABLE_PATTERNS)) {
      const row = ('| ' + table).split('\n').find((l) => l.startsWith(`| \`${pattern}\` `));
      expect(row, `${pattern} has a row`).toBeDefined();
      const cells = row!
        .slice(1, -1)
        .split(' | ')
        .map((c) => c.trim());
      expect(cells[1]).toBe(spec.shownDefault);
      expect(cells[2]).toBe(spec.readBy.map((r) => `\`${r}\``).join(', '));
    }
  });
});
