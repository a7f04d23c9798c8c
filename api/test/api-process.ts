/** The API run as its own process (src/server.ts), as an operator starts it, for the kill tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { API_ROOT } from '../src/composition/deps.ts';
import { TEST_SECRET } from './helpers.ts';

/** Starts the API on `port` with `dataDir`; resolves once it listens. */
export async function startApi(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join('src', 'server.ts')], {
    cwd: API_ROOT,
    env: {
      ...process.env,
      API_PORT: String(port),
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_SECRET,
      RATE_LIMIT_MAX: '1000000',
      // The files unless the test gives a database.
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Keep the pipes flowing (a full pipe would block the process); the last of stderr explains a
  // start that fails.
  let stderr = '';
  proc.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the API did not start')), 60_000);
    proc.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('api listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.on('exit', (code) =>
      reject(new Error(`the API exited with ${code}: ${stderr.trim() || '(nothing on stderr)'}`)),
    );
  });
  return proc;
}

export const exited = (proc: ChildProcess) =>
  proc.exitCode !== null || proc.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => proc.once('exit', () => r()));

/** POST a JSON body to the API on `port`. */
export function post(port: number, apiPath: string, body: unknown): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}${apiPath}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}
