/**
 * A throwaway PostgreSQL cluster for the tests: initdb into a temporary directory, started by
 * pg_ctl on a free loopback port with its socket in that directory, trust authentication for
 * loopback, removed at the end. Run as the `postgres` user when the tests run as root (initdb
 * refuses root). The binaries are Debian's `postgresql` package (`.ci/run` installs it); without
 * them the tests that need a database fail, they are never skipped.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** The newest installed PostgreSQL's bin directory (Debian: /usr/lib/postgresql/<major>/bin). */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0) {
    throw new Error(
      "PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin: install Debian's postgresql package (apt-get install postgresql; .ci/run does it)",
    );
  }
  return path.join(root, majors[0]!, 'bin');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface PgCluster {
  port: number;
  /** URL of database `db` as the superuser `postgres`. */
  url(db?: string): string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (fast shutdown: connections are cut). */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  destroy(): Promise<void>;
}

/**
 * `durable: true` keeps PostgreSQL's crash safety (fsync, full page writes), for benchmarks that
 * compare it with the fdatasync'd journal of the file store; tests run without it, faster.
 */
export async function startCluster(options: { durable?: boolean } = {}): Promise<PgCluster> {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'yield-pg-'));
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const as = async (cmd: string, args: string[]) => {
    const exe = path.join(bin, cmd);
    return asRoot
      ? run('runuser', ['-u', 'postgres', '--', exe, ...args], { cwd: dir })
      : run(exe, args, { cwd: dir });
  };
  if (asRoot) {
    const { stdout: uid } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(uid), Number(gid));
  }
  await as('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const serverOptions = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    // A test cluster: no crash safety of the server itself is tested, speed matters more.
    ...(options.durable ? [] : ['-c fsync=off', '-c full_page_writes=off']),
    '-c max_connections=200',
  ].join(' ');
  const start = async () => {
    await as('pg_ctl', ['-D', data, '-l', logFile, '-o', serverOptions, '-w', '-t', '60', 'start']);
  };
  const stop = async () => {
    await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  };
  await start();
  const url = (db = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${db}`;
  let n = 0;
  return {
    port,
    url,
    async createDatabase(name = `t${process.pid}_${Date.now()}_${n++}`) {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop,
    start,
    async destroy() {
      await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh empty database on the cluster the test run started (test/pg-global-setup.ts), for
 * suites that do not stop the server.
 */
export async function freshDatabase(baseUrl: string): Promise<string> {
  const name = `t${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
