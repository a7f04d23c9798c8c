import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { remoteRegistry, type RemoteName } from '@yield/federation/registry';
import { createSiteServer } from './site-server.ts';
import type { ReleasesSource, ReleasesState, RemoteReleases } from './releases/types.ts';

/** Two releases of mfe-content, and its build folder (which a server with releases never serves). */
const A = 'aaaaaaaaaaa1';
const B = 'bbbbbbbbbbb2';
const UNKNOWN = 'cccccccccccc';

let root: string;
let server: http.Server;
/** mfe_premium, served from another origin (a CDN). */
let cdn: http.Server;
let cdnEntry: string;
let base: string;

/**
 * The release store as the site server reads it, backed by real folders: `releases/<app
 * folder>/<id>/` under the test's root, its snapshot set by each test.
 */
class FolderReleases implements ReleasesSource {
  state: ReleasesState = {};
  loads: string[] = [];

  async start() {}
  snapshot() {
    return this.state;
  }
  localDir(remote: RemoteName, id: string) {
    const dir = path.join(root, 'releases', remoteRegistry[remote].dir, id);
    return fs.existsSync(dir) ? dir : null;
  }
  countLoad(remote: RemoteName, id: string) {
    this.loads.push(`${remote}@${id}`);
  }
  async reportError() {}
  async close() {}
}
const releases = new FolderReleases();

function setReleases(live: string, canary: RemoteReleases['canary'] = null) {
  const record = (id: string) => ({ id, createdAt: '2026-11-29T10:00:00.000Z', from: 'dist' });
  releases.state = {
    mfe_content: {
      live,
      canary,
      previous: [],
      releases: [record(B), record(A)],
      counts: {},
    },
  };
}

function write(file: string, body: string) {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, body);
}

/** One build of mfe-content, its module rendering `text`, its chunk and stylesheet named by `tag`. */
function writeBuild(dir: string, text: string, tag: string, pages: object[]) {
  write(`${dir}/remoteEntry.js`, `var mfe_content = ${JSON.stringify(tag)};`);
  write(`${dir}/pages.json`, JSON.stringify(pages));
  write(`${dir}/risks-${tag}.js`, `/* ${tag} */`);
  write(`${dir}/risks-${tag}.css`, `h1{content:"${tag}"}`);
  write(
    `${dir}/mf-manifest.json`,
    JSON.stringify({
      shared: [],
      exposes: [
        {
          name: 'RisksPage',
          assets: { css: { sync: [`risks-${tag}.css`] }, js: { sync: [`risks-${tag}.js`] } },
        },
      ],
    }),
  );
  write(
    `${dir}/server/render.cjs`,
    `exports.render = (module) => module === 'RisksPage' ? '<h1>${text}</h1>' : null;`,
  );
}

type Manifest = { mfe_content: string };

const RISKS = { path: '/risks', module: './RisksPage', title: 'Risks' };
const WHATS_NEW = { path: '/whats-new', module: './RisksPage', title: 'New' };

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'release-serving-'));
  write(
    'shell/dist/index.html',
    '<!doctype html><html><head></head><body><div id="root"></div><script defer src="/main.js"></script></body></html>',
  );
  write('shell/dist/mf-manifest.json', JSON.stringify({ shared: [], exposes: [] }));
  write(
    'shell/dist/server/render.cjs',
    `exports.renderFrame = (context, modules) => '<div class="app">' + Object.values(modules).join('') + '</div>';`,
  );
  writeBuild('mfe-content/dist', 'Build', 'build', [RISKS, WHATS_NEW]);
  writeBuild(`releases/mfe-content/${A}`, 'Release A', 'a', [RISKS]);
  writeBuild(`releases/mfe-content/${B}`, 'Release B', 'b', [RISKS, WHATS_NEW]);
  cdn = http.createServer((_req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify([{ path: '/pricing', module: './PricingPage', title: 'Pricing' }]));
  });
  await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
  cdnEntry = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}/premium/remoteEntry.js`;
  write(
    'shell/dist/remotes.json',
    JSON.stringify({ mfe_content: '/remotes/mfe-content/remoteEntry.js', mfe_premium: cdnEntry }),
  );
  setReleases(A);
  server = createSiteServer({
    rootDir: root,
    apiHandler: (_req, res) => res.end('{}'),
    settings: () => ({ body: Buffer.from('{"siteTitle":"Pigi"}'), etag: '"s"' }),
    releases,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
  cdn.close();
  fs.rmSync(root, { recursive: true, force: true });
});

beforeEach(() => {
  setReleases(A);
  releases.loads = [];
});

const get = (pathname: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${pathname}`, { headers });

/** The visitor's cookie header, as a browser sends it back. */
const cookie = (visitor: string) => ({ cookie: `release_visitor=${visitor}` });

/** The bucket rel-common's rule gives: first 4 bytes of sha256(`visitor:remote`), mod 100. */
const bucket = (visitor: string, remote: string) =>
  createHash('sha256').update(`${visitor}:${remote}`).digest().readUInt32BE(0) % 100;

/** A visitor id whose bucket for mfe_content is below `percent` (inside) or not. */
function visitorInside(percent: number, inside: boolean): string {
  for (;;) {
    const visitor = randomBytes(16).toString('base64url');
    if (bucket(visitor, 'mfe_content') < percent === inside) return visitor;
  }
}

const visitorFrom = (response: Response) =>
  /^release_visitor=([A-Za-z0-9_-]{22});/.exec(response.headers.get('set-cookie') ?? '')?.[1];

describe('serving releases', () => {
  it("serves a release's files from its path, each kept a year, never its server renderer", async () => {
    const entry = await get(`/remotes/mfe-content/${A}/remoteEntry.js`);
    expect(await entry.text()).toBe('var mfe_content = "a";');
    expect(entry.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(entry.headers.get('access-control-allow-origin')).toBe('*');
    expect(entry.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    // A release that is not live is served all the same (open tabs load its chunks).
    const chunk = await get(`/remotes/mfe-content/${B}/risks-b.js`);
    expect([chunk.status, await chunk.text()]).toEqual([200, '/* b */']);
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const missing of [
      `/remotes/mfe-content/${A}/server/render.cjs`,
      `/remotes/mfe-content/${A}/%73erver/render.cjs`,
      `/remotes/mfe-content/${UNKNOWN}/remoteEntry.js`,
      `/remotes/mfe-content/${A}/risks-b.js`,
      `/remotes/mfe-leaderboard/${A}/remoteEntry.js`,
    ]) {
      expect((await get(missing)).status, missing).toBe(404);
    }
  });

  it('serves a path without an id from the live release, revalidated, never from the build', async () => {
    const entry = await get('/remotes/mfe-content/remoteEntry.js');
    expect(await entry.text()).toBe('var mfe_content = "a";');
    expect(entry.headers.get('cache-control')).toBe('no-cache');
    expect((await get('/remotes/mfe-content/risks-build.js')).status).toBe(404);
    setReleases(B);
    expect(await (await get('/remotes/mfe-content/remoteEntry.js')).text()).toBe(
      'var mfe_content = "b";',
    );
  });

  it('answers /remotes.json with the live release and the CDN entry as written, no cookie without a canary', async () => {
    const response = await get('/remotes.json');
    expect(await response.json()).toEqual({
      mfe_content: `/remotes/mfe-content/${A}/remoteEntry.js`,
      mfe_premium: cdnEntry,
    });
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('vary')).toBe('Cookie');
    expect(response.headers.get('set-cookie')).toBeNull();
    const etag = response.headers.get('etag')!;
    expect((await get('/remotes.json', { 'if-none-match': etag })).status).toBe(304);
    // The switch is seen by the next answer, without a restart.
    setReleases(B);
    const switched = await get('/remotes.json', { 'if-none-match': etag });
    expect(switched.status).toBe(200);
    expect(((await switched.json()) as Manifest).mfe_content).toBe(
      `/remotes/mfe-content/${B}/remoteEntry.js`,
    );
  });

  it("sets the visitor's cookie once while a canary runs, and keeps the visitor's release", async () => {
    setReleases(A, { id: B, percent: 50 });
    const first = await get('/remotes.json');
    const visitor = visitorFrom(first)!;
    expect(first.headers.get('set-cookie')).toMatch(
      /^release_visitor=[A-Za-z0-9_-]{22}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/,
    );
    const expected = `/remotes/mfe-content/${bucket(visitor, 'mfe_content') < 50 ? B : A}/remoteEntry.js`;
    expect(((await first.json()) as Manifest).mfe_content).toBe(expected);
    for (let i = 0; i < 5; i++) {
      const again = await get('/remotes.json', cookie(visitor));
      expect(again.headers.get('set-cookie')).toBeNull();
      expect(((await again.json()) as Manifest).mfe_content).toBe(expected);
    }
  });

  it('gives the canary to its share of 200 fresh visitors, as their cookies decide', async () => {
    setReleases(A, { id: B, percent: 50 });
    let canary = 0;
    for (let i = 0; i < 200; i++) {
      const response = await get('/remotes.json');
      const visitor = visitorFrom(response)!;
      const inside = bucket(visitor, 'mfe_content') < 50;
      const entry = ((await response.json()) as Manifest).mfe_content;
      expect(entry).toBe(`/remotes/mfe-content/${inside ? B : A}/remoteEntry.js`);
      if (inside) canary++;
    }
    // 100 expected; the bounds are more than five standard deviations (7.1) away.
    expect(canary).toBeGreaterThan(60);
    expect(canary).toBeLessThan(140);
  });

  it("paints each visitor's page, hints and stylesheets from the visitor's release, cached apart", async () => {
    setReleases(A, { id: B, percent: 30 });
    const inside = visitorInside(30, true);
    const outside = visitorInside(30, false);
    // Alternately, twice: a cached page of one release is never sent to the other's visitor.
    for (let i = 0; i < 2; i++) {
      const canaryPage = await get('/risks', cookie(inside));
      const livePage = await get('/risks', cookie(outside));
      const [canaryHtml, liveHtml] = [await canaryPage.text(), await livePage.text()];
      expect(canaryHtml).toContain('<h1>Release B</h1>');
      expect(canaryHtml).toContain(`/remotes/mfe-content/${B}/risks-b.js`);
      expect(canaryHtml).toContain('h1{content:"b"}');
      expect(liveHtml).toContain('<h1>Release A</h1>');
      expect(liveHtml).toContain(`/remotes/mfe-content/${A}/risks-a.js`);
      expect(liveHtml).toContain('h1{content:"a"}');
      for (const html of [canaryHtml, liveHtml]) expect(html).not.toMatch(/Build|build/);
      expect(canaryPage.headers.get('vary')).toBe('Accept-Encoding, Cookie');
      expect(canaryPage.headers.get('set-cookie')).toBeNull();
    }
    expect(releases.loads).toEqual([
      `mfe_content@${B}`,
      `mfe_content@${A}`,
      `mfe_content@${B}`,
      `mfe_content@${A}`,
    ]);
  });

  it("reads the visitor's release's page list, and sets the cookie on a first page", async () => {
    setReleases(A, { id: B, percent: 30 });
    expect((await get('/whats-new', cookie(visitorInside(30, true)))).status).toBe(200);
    expect((await get('/whats-new', cookie(visitorInside(30, false)))).status).toBe(404);
    const fresh = await get('/risks');
    const visitor = visitorFrom(fresh)!;
    const html = await fresh.text();
    expect(html).toContain(bucket(visitor, 'mfe_content') < 30 ? 'Release B' : 'Release A');
  });

  it('serves nothing of a new build until it is released', async () => {
    const visitor = visitorInside(100, true);
    const before = await (await get('/risks', cookie(visitor))).text();
    writeBuild('mfe-content/dist', 'Rebuilt', 'rebuilt', [RISKS, WHATS_NEW]);
    expect(await (await get('/risks', cookie(visitor))).text()).toBe(before);
    expect(await (await get('/remotes/mfe-content/remoteEntry.js')).text()).toBe(
      'var mfe_content = "a";',
    );
    expect((await get('/whats-new', cookie(visitor))).status).toBe(404);
  });

  it('serves the new live release on the next page once the snapshot changes, counting its loads', async () => {
    const visitor = visitorInside(100, true);
    expect(await (await get('/risks', cookie(visitor))).text()).toContain('Release A');
    setReleases(B);
    const page = await get('/risks', cookie(visitor));
    expect(await page.text()).toContain('Release B');
    expect(page.headers.get('set-cookie')).toBeNull();
    // A page of no remote's module (not found) counts no load.
    await get('/nowhere');
    expect(releases.loads).toEqual([`mfe_content@${A}`, `mfe_content@${B}`]);
  });
});
