/**
 * The site server's configuration (@yield/api's loadConfig, read by main.ts): its defaults are
 * the server's own, and a start with malformed variables stops with every one of them listed.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '@yield/api';
import { SITE_PORT } from '@yield/federation/registry';
import { DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './site-server.ts';

const run = promisify(execFile);

describe('the site server configuration', () => {
  it('defaults to the site port and the server’s own timeouts', () => {
    const config = loadConfig({}, ['site-server']);
    expect(config.PORT).toBe(SITE_PORT);
    expect(config.HEADERS_TIMEOUT_MS).toBe(DEFAULT_HEADERS_TIMEOUT_MS);
    expect(config.REQUEST_TIMEOUT_MS).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
    expect(config.SITE_FIRST_PAINT).toBe(true);
  });

  it('a start with malformed variables exits 1 listing each of them, the API’s too', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-config-'));
    try {
      const failure = (await run(
        process.execPath,
        ['--import', 'tsx', path.join(import.meta.dirname, 'main.ts')],
        {
          cwd: path.resolve(import.meta.dirname, '..'),
          env: {
            ...process.env,
            PORT: '0',
            DATA_DIR: dataDir,
            JWT_SECRET: 'x'.repeat(32),
            SITE_FIRST_PAINT: 'false',
            SITE_MAX_RENDERS: 'many',
            TRUST_PROXY: 'yes',
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
        '- TRUST_PROXY must be the number of reverse proxies in front of the server (0 = none, 1 = one load balancer, 2 = a CDN in front of a load balancer, at most 20), got "yes"',
        '- SITE_FIRST_PAINT must be 0 (off) or 1 (on), got "false"',
        '- SITE_MAX_RENDERS must be a positive whole number, got "many"',
      ]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 45_000);
});
