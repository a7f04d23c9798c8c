/**
 * GET /api/openapi.json as generated clients and the linters of CI (pnpm lint:openapi) read it:
 * every operation named by a unique, stable operationId (its name in the route table), with its
 * security stated, at least one 4xx answer, and parameter defaults of the parameter's own type.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointName } from '@yield/contract';
import { setup, type TestContext } from './helpers.ts';

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; schema: { type?: string; default?: unknown } }[];
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Document {
  info: { license?: { name: string; identifier?: string }; contact?: object };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes?: Record<string, { type: string; scheme?: string }> };
}

let t: TestContext;
let doc: Document;
beforeAll(async () => {
  t = await setup();
  doc = (await t.http.get('/api/openapi.json').expect(200)).body as Document;
});
afterAll(async () => {
  await t.cleanup();
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([p, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ where: `${method} ${p}`, method, op })),
  );

describe('GET /api/openapi.json for generated clients and the linters', () => {
  it('names every operation with a unique operationId: its name in the route table', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[A-Za-z][A-Za-z0-9]*$/.test(id))).toBe(
      true,
    );
    expect(new Set(ids).size).toBe(ids.length);
    for (const [name, spec] of Object.entries(endpoints) as [
      EndpointName,
      (typeof endpoints)[EndpointName],
    ][])
      expect(doc.paths[spec.path]?.[spec.method]?.operationId, spec.path).toBe(name);
  });

  it('states the security of every operation: none for public ones, the bearer scheme for premium', () => {
    expect(doc.components.securitySchemes?.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    for (const { where, op } of operations()) {
      expect(Array.isArray(op.security), where).toBe(true);
      for (const requirement of op.security!)
        for (const scheme of Object.keys(requirement))
          expect(doc.components.securitySchemes, where).toHaveProperty(scheme);
    }
    const security = (name: EndpointName) =>
      doc.paths[endpoints[name].path]![endpoints[name].method]!.security;
    expect(security('premiumAnalysis')).toEqual([{ bearerAuth: [] }]);
    // A token is optional: the answer differs with one (the whole ranking, a bound email).
    expect(security('scanner')).toEqual([{}, { bearerAuth: [] }]);
    expect(security('premiumLogin')).toEqual([{}, { bearerAuth: [] }]);
    for (const name of ['health', 'sources', 'mailSignup', 'premiumInvite', 'docs'] as const)
      expect(security(name), name).toEqual([]);
  });

  it('lists at least one 4xx answer on every operation, each an error body or page', () => {
    for (const { where, op } of operations()) {
      const clientErrors = Object.keys(op.responses).filter((s) => /^4\d\d$/.test(s));
      expect(clientErrors.length, where).toBeGreaterThan(0);
      // The server's own answers to a request it did not get in time or whose headers are too large.
      expect(clientErrors, where).toEqual(expect.arrayContaining(['408', '431']));
      for (const status of clientErrors)
        expect(Object.keys(op.responses[status]!.content ?? {}), `${where} ${status}`).not.toEqual(
          [],
        );
    }
    // The JSON body reader's answers on the POSTs with a body.
    for (const name of ['mailSignup', 'alertSubscribe', 'premiumInvite', 'premiumLogin'] as const) {
      const op = doc.paths[endpoints[name].path]!.post!;
      expect(Object.keys(op.responses), name).toEqual(
        expect.arrayContaining(['400', '408', '413', '415', '429']),
      );
    }
  });

  it('gives every parameter default the parameter type', () => {
    let defaults = 0;
    for (const { where, op } of operations())
      for (const p of op.parameters ?? []) {
        if (p.schema.default === undefined) continue;
        defaults++;
        expect(typeof p.schema.default, `${where} ${p.name}`).toBe(p.schema.type);
      }
    expect(defaults).toBeGreaterThanOrEqual(5);
  });

  it('has a licence and a contact', () => {
    expect(doc.info.license?.name).toBeTruthy();
    expect(doc.info.license?.identifier).toBeTruthy();
    expect(doc.info.contact).toBeDefined();
  });
});

describe('pnpm lint:openapi', () => {
  it('fails on a document with a problem, naming it for both linters', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'openapi-bad-'));
    try {
      const bad = structuredClone(doc);
      delete bad.paths['/api/health']!.get!.operationId;
      const file = path.join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(bad));
      const script = fileURLToPath(new URL('../scripts/lint-openapi.ts', import.meta.url));
      const run = spawnSync(process.execPath, ['--import', 'tsx', script, file], {
        cwd: path.dirname(path.dirname(script)),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stdout).toMatch(/Redocly \(recommended\): 0 errors, 1 warnings/);
      expect(run.stdout).toMatch(/Spectral \(spectral:oas\): exit 1/);
      // Redocly's rule and Spectral's have the same name.
      expect(run.stdout.match(/operation-operationId/g)).toHaveLength(2);
      expect(run.stdout).toContain('OpenAPI lint: FAILED');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
