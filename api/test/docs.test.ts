/** GET /api/docs: the self-hosted reference page, its policy and its script. */
import { gzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_CSP, DOCS_TITLE } from '../src/modules/docs/routes.ts';
import { setup, type TestContext } from './helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await setup();
});
afterAll(async () => {
  await t.cleanup();
});

describe('GET /api/docs', () => {
  it('is an HTML page that renders /api/openapi.json with the script served here', async () => {
    const res = await t.http
      .get('/api/docs')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect(res.text).toContain(`<title>${DOCS_TITLE}</title>`);
    expect(res.text).toMatch(/<redoc spec-url="\/api\/openapi.json"/);
    const scripts = [...res.text.matchAll(/<script\b([^>]*)>([^<]*)<\/script>/g)];
    // One script, from this origin, and nothing inline (the policy allows no inline script).
    expect(scripts.map((m) => m[1]!.trim())).toEqual(['src="/api/docs/redoc.standalone.js"']);
    expect(scripts.every((m) => m[2] === '')).toBe(true);
    expect(res.text).not.toMatch(/https?:\/\//);
  });

  it('has its own policy: scripts and data from this origin only, nothing from elsewhere', async () => {
    const res = await t.http.get('/api/docs').expect(200);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toBe(DOCS_CSP);
    const directives = new Map(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values];
      }),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp).not.toMatch(/unsafe-eval|\*|https?:/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Every other answer keeps the API's JSON-only policy.
    const json = await t.http.get('/api/openapi.json').expect(200);
    expect(json.headers['content-security-policy']).toContain("default-src 'none'");
    expect(json.headers['content-security-policy']).not.toContain('script-src');
  });

  it('serves the installed Redoc bundle, gzipped when accepted, with an ETag', async () => {
    const file = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
    const original = await readFile(file);
    const gz = await t.http
      .get('/api/docs/redoc.standalone.js')
      .set('Accept-Encoding', 'gzip')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200)
      .expect('Content-Type', /text\/javascript/)
      .expect('Content-Encoding', 'gzip');
    // supertest inflates the body; the bytes sent were the gzipped file.
    expect((gz.body as Buffer).equals(original)).toBe(true);
    expect(Number(gz.headers['content-length'])).toBe(gzipSync(original, { level: 9 }).length);
    expect(gz.headers['cache-control']).toBe('public, max-age=60');
    await t.http
      .get('/api/docs/redoc.standalone.js')
      .set('Accept-Encoding', 'gzip')
      .set('If-None-Match', gz.headers.etag as string)
      .expect(304);
    const plain = await t.http
      .get('/api/docs/redoc.standalone.js')
      .set('Accept-Encoding', 'identity')
      .expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(original.length);
  });
});
