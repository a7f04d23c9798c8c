/**
 * The connection to PostgreSQL shared by the user-data modules (pg-user-data.ts). Client:
 * node-postgres (`pg`) with its pool, the most used and maintained PostgreSQL client for Node
 * (pure JavaScript, no native build, parameterised queries, a pool that replaces lost connections
 * by itself).
 *
 * Faults: an error that means "the database cannot be reached" (refused, lost, shutting down,
 * connect timeout) becomes UserDataUnavailableError (the routes answer 503 with Retry-After).
 * Nothing is half-written: a lost connection rolls its transaction back. The pool opens new
 * connections on the next request, so the process recovers by itself when the database returns;
 * migrations not yet applied (the database was down at start) are applied then.
 */
import pg from 'pg';
import type { PoolClient, QueryResultRow } from 'pg';
import type { Logger } from '../logger.ts';
import { UserDataUnavailableError, type UserDataHealth } from '../store-health.ts';
import { migrate } from './migrate.ts';

/** After a failed attempt to reach the database, requests fail fast for this long. */
const RETRY_AFTER_FAILURE_MS = 1000;

const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Whether `err` means the database could not be reached (as opposed to a bug or a bad query). */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECTION_ERRNOS.has(code)) return true;
    // SQLSTATE classes 08 (connection exception), 57P (operator intervention: shutdown, cannot
    // connect now), 53 (insufficient resources: too many connections).
    if (/^(08|57P|53)/.test(code)) return true;
  }
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout|connection is not open|Client was closed/i.test(
    err.message,
  );
}

export interface PgUserDataOptions {
  /** postgres://user:password@host:port/database (DATABASE_URL). */
  connectionString: string;
  logger: Logger;
  /** Connections of this process (PG_POOL_MAX, default 10). */
  poolMax?: number;
  /** Apply pending migrations when the database is first reached (default true). */
  migrate?: boolean;
}

export class PgConnection {
  readonly pool: pg.Pool;
  private readonly logger: Logger;
  private readonly runMigrations: boolean;
  private ready = false;
  private readying: Promise<void> | null = null;
  private lastFailureAt = 0;
  /** Why the database could not be reached the last time, until it answers again. */
  lastError: string | null = null;
  private closed = false;

  constructor(options: PgUserDataOptions) {
    this.logger = options.logger;
    this.runMigrations = options.migrate ?? true;
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolMax ?? 10,
      // A database that does not answer is reported within seconds, not after the OS's timeout.
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30_000,
      query_timeout: 15_000,
      application_name: 'yield-api',
    });
    // An idle connection lost (the database restarted) must not take the process down; the pool
    // drops it and opens a new one on demand.
    this.pool.on('error', (err) => this.noteFailure(err));
  }

  private noteFailure(err: Error): void {
    this.lastFailureAt = Date.now();
    const code = (err as { code?: unknown }).code;
    const wasDown = this.lastError !== null;
    this.lastError = `database unreachable (${typeof code === 'string' ? code : err.message})`;
    if (!wasDown)
      this.logger.error('database unreachable: writes answer 503 until it is back', {
        error: this.lastError,
      });
  }

  private noteSuccess(): void {
    if (this.lastError === null) return;
    this.lastError = null;
    this.logger.info('database reachable again');
  }

  /** Applies migrations once the database answers; fails fast right after a failed attempt. */
  async ensureReady(): Promise<void> {
    if (this.ready) return;
    if (this.closed) throw new UserDataUnavailableError('the user-data store is closed');
    if (!this.readying) {
      if (Date.now() - this.lastFailureAt < RETRY_AFTER_FAILURE_MS)
        throw new UserDataUnavailableError(this.lastError ?? 'database unreachable');
      this.readying = (async () => {
        try {
          if (this.runMigrations) await migrate(this.pool, this.logger);
          else await this.pool.query('SELECT 1');
          this.ready = true;
          this.noteSuccess();
        } finally {
          this.readying = null;
        }
      })();
    }
    try {
      await this.readying;
    } catch (err) {
      throw this.translate(err);
    }
  }

  /** A connection failure becomes UserDataUnavailableError; anything else is passed on. */
  translate(err: unknown): unknown {
    if (err instanceof UserDataUnavailableError) return err;
    if (!isConnectionError(err)) return err;
    this.noteFailure(err as Error);
    return new UserDataUnavailableError(this.lastError!);
  }

  async query<R extends QueryResultRow>(
    text: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<R>> {
    await this.ensureReady();
    try {
      const result = await this.pool.query<R>(text, values);
      this.noteSuccess();
      return result;
    } catch (err) {
      throw this.translate(err);
    }
  }

  /** A connection of the pool for several statements (release it). */
  private async connection(): Promise<PoolClient> {
    await this.ensureReady();
    try {
      return await this.pool.connect();
    } catch (err) {
      throw this.translate(err);
    }
  }

  /**
   * A connection of the pool for `fn`, released after it (discarded when it failed). The pool
   * listens for errors of idle connections only, and a promise resolves a turn after its answer
   * arrived: a server shutting down while a connection is checked out would be an unhandled
   * 'error' event of that connection, which ends the process. So the connection has its own
   * listener from checkout to release.
   */
  async withConnection<T>(fn: (client: PoolClient, discard: () => void) => Promise<T>): Promise<T> {
    const client = await this.connection();
    let broken = false;
    const discard = () => {
      broken = true;
    };
    const onError = (err: Error) => {
      broken = true;
      this.noteFailure(err);
    };
    client.on('error', onError);
    try {
      return await fn(client, discard);
    } finally {
      // release() puts the pool's own listener back (or discards the connection) first.
      client.release(broken);
      client.off('error', onError);
    }
  }

  /** Runs `fn` in one transaction on one connection: committed entirely or not at all. */
  transaction<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.withConnection(async (client, discard) => {
      try {
        await client.query('BEGIN');
        const result = await fn(client);
        await client.query('COMMIT');
        this.noteSuccess();
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(discard);
        if (isConnectionError(err)) discard();
        throw this.translate(err);
      }
    });
  }

  async health(): Promise<UserDataHealth> {
    try {
      await this.query('SELECT 1');
      return { store: 'postgres', available: true, error: null };
    } catch (err) {
      const message =
        err instanceof UserDataUnavailableError ? err.message : 'database query failed';
      return { store: 'postgres', available: false, error: message };
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.readying?.catch(() => undefined);
    await this.pool.end();
  }
}
