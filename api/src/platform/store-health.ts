/** The lifecycle part of the user-data port: health for GET /api/health, and close. */

/**
 * The database holding the user data cannot be reached right now (connection refused or lost,
 * server shutting down). Nothing was written; the caller may retry after `retryAfterSeconds`.
 */
export class UserDataUnavailableError extends Error {
  readonly retryAfterSeconds = 5;
  constructor(message: string) {
    super(message);
    this.name = 'UserDataUnavailableError';
  }
}

/** What GET /api/health reports about the user data. */
export interface UserDataHealth {
  store: 'files' | 'postgres';
  /** Whether writes can be served right now. */
  available: boolean;
  /** Why not (no secrets: the database URL is never shown), else null. */
  error: string | null;
}

export interface StoreHealth {
  /** Whether the store can serve writes now (the database answers; the journal is writable). */
  health(): Promise<UserDataHealth>;

  /** Finishes pending work (the file store folds its journal into the JSON files). */
  close(): Promise<void>;
}
