/**
 * `pnpm lint:openapi`: generates the OpenAPI document exactly as GET /api/openapi.json serves it
 * (openApiDocument() from the contract), writes it to a temporary file and lints it with the stock
 * rulesets of Redocly CLI ("recommended") and Spectral ("spectral:oas"). Any error or warning of
 * either linter fails (exit 1). Both run offline: Redocly's telemetry is off (REDOCLY_TELEMETRY and
 * its config), and neither ruleset loads anything remote.
 *
 *   pnpm lint:openapi                                           # the document the API serves
 *   pnpm --filter @yield/api lint:openapi -- path/to/openapi.json  # a saved document instead
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../src/modules/docs/openapi.ts';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const configDir = path.join(apiDir, 'openapi-lint');
const bin = (name: string) => path.join(apiDir, 'node_modules', '.bin', name);
const env = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
  CI: process.env.CI ?? 'true',
};

interface RedoclyReport {
  totals: { errors: number; warnings: number };
  problems: {
    ruleId: string;
    severity: string;
    message: string;
    location: { pointer?: string }[];
  }[];
}

function redocly(file: string): boolean {
  const run = spawnSync(
    bin('redocly'),
    [
      'lint',
      file,
      '--config',
      path.join(configDir, 'redocly.yaml'),
      '--extends',
      'recommended',
      '--lint-config',
      'error',
      '--format',
      'json',
      '--max-problems',
      '1000',
    ],
    { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  let report: RedoclyReport;
  try {
    report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as RedoclyReport;
  } catch {
    process.stderr.write(run.stdout + run.stderr);
    console.error(`Redocly (recommended): no report (exit ${run.status})`);
    return false;
  }
  for (const p of report.problems)
    console.log(
      `  ${p.severity.padEnd(7)} ${p.ruleId.padEnd(32)} ${p.location[0]?.pointer ?? ''}\n          ${p.message}`,
    );
  const { errors, warnings } = report.totals;
  console.log(`Redocly (recommended): ${errors} errors, ${warnings} warnings`);
  return run.status === 0 && errors === 0 && warnings === 0;
}

function spectral(file: string): boolean {
  const run = spawnSync(
    bin('spectral'),
    [
      'lint',
      file,
      '--ruleset',
      path.join(configDir, 'spectral.yaml'),
      '--fail-severity',
      'warn',
      '--format',
      'stylish',
    ],
    { env, stdio: 'inherit' },
  );
  console.log(`Spectral (spectral:oas): ${run.status === 0 ? 'no problem' : `exit ${run.status}`}`);
  return run.status === 0;
}

const pkg = JSON.parse(readFileSync(path.join(apiDir, 'package.json'), 'utf8')) as {
  version: string;
};
const given = process.argv.slice(2).find((arg) => arg !== '--');
const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
try {
  const file = given ? path.resolve(given) : path.join(dir, 'openapi.json');
  if (!given) writeFileSync(file, JSON.stringify(openApiDocument(pkg.version), null, 2));
  const ok = [redocly(file), spectral(file)].every(Boolean);
  console.log(ok ? 'OpenAPI lint: passed' : 'OpenAPI lint: FAILED');
  process.exitCode = ok ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
