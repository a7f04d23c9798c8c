import path from 'node:path';

/** One place for the e2e server's port and data directory (read by config, server and fixtures). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4173);
export const E2E_ROOT = path.resolve(import.meta.dirname, '..');
export const WORKSPACE_ROOT = path.resolve(E2E_ROOT, '..');
export const E2E_DATA_DIR = path.join(E2E_ROOT, '.tmp', `data-${E2E_PORT}`);
export const BASE_URL = `http://localhost:${E2E_PORT}`;
