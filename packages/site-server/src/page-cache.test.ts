/**
 * The page cache under URLs made unique on purpose (`/?utm=<n>`, `/compare?ids=…&x=<n>`,
 * `/options/<n>`): one render per page and the parameters it reads, least recently used pages
 * dropped first, and pages sent without their first paint while the server is busy rendering.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { createSiteServer, type SiteServerOptions } from './site-server.ts';

let root: string;
const servers: http.Server[] = [];

/** Renders counted per path the shell's renderer was given (the frame renders once per paint). */
const renders = (): Record<string, number> =>
  ((globalThis as Record<string, unknown>).pageCacheRenders ??= {}) as Record<string, number>;
const renderCount = () => Object.values(renders()).reduce((a, b) => a + b, 0);

const SHELL_RENDERER = `exports.renderFrame = (context, modules) => {
  const counts = (globalThis.pageCacheRenders ??= {});
  counts[context.path] = (counts[context.path] ?? 0) + 1;
  return '<div class="app" data-path="' + context.path.replace(/&/g, '&amp;') + '">' +
    Object.values(modules).join('') + '</div>';
};`;

/** `SlowPage` takes 150 ms to render and paints 1 MB, as a heavy page would. */
const CONTENT_RENDERER = `
const filler = Array.from({ length: 40000 }, (_, i) => ((i * 2654435761) >>> 0).toString(36)).join(' ');
exports.render = (module, context) => {
  if (module === 'SlowPage') {
    const end = Date.now() + 150;
    while (Date.now() < end) {}
    return '<h1>Slow</h1><p>' + filler + '</p>';
  }
  return '<h1 data-module="' + module + '">' + module + '</h1>';
};`;

function write(file: string, body: string, dir = root) {
  const full = path.join(dir, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, body);
}

async function start(options: Partial<SiteServerOptions> = {}): Promise<string> {
  const server = createSiteServer({
    rootDir: root,
    apiHandler: (_req, res) => res.end('{}'),
    settings: () => ({ body: Buffer.from('{"siteTitle":"Pigi"}'), etag: '"s1"' }),
    ...options,
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'page-cache-'));
  write(
    'shell/dist/index.html',
    '<!doctype html><html><head><script defer src="/main.js"></script></head><body><div id="root"></div></body></html>',
  );
  write('shell/dist/mf-manifest.json', JSON.stringify({ shared: [], exposes: [] }));
  write('shell/dist/server/render.cjs', SHELL_RENDERER);
  write(
    'shell/dist/remotes.json',
    JSON.stringify({ mfe_content: '/remotes/mfe-content/remoteEntry.js' }),
  );
  write('mfe-content/dist/remoteEntry.js', 'var mfe_content = {};');
  write('mfe-content/dist/server/render.cjs', CONTENT_RENDERER);
  write(
    'mfe-content/dist/pages.json',
    JSON.stringify([
      { path: '/', module: './LandingHero', title: 'Home' },
      { path: '/compare', module: './ComparePage', title: 'Compare' },
      { path: '/risks', module: './RisksPage', title: 'Risks' },
      { path: '/options/:id', module: './StrategyDetailPage', title: 'Strategy' },
      { path: '/slow/:id', module: './SlowPage', title: 'Slow' },
    ]),
  );
});

afterAll(() => {
  for (const server of servers) server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('page cache', () => {
  it('renders a page once whatever parameters it does not read (utm and the like)', async () => {
    const base = await start();
    const before = renderCount();
    const etags = new Set<string | null>();
    for (let n = 0; n < 30; n++) {
      const response = await fetch(`${base}/?utm=${n}&fbclid=x${n}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('<div class="app" data-path="/">');
      expect(html).not.toContain('utm');
      etags.add(response.headers.get('etag'));
    }
    expect(renderCount() - before).toBe(1);
    expect(etags.size).toBe(1);
  });

  it('renders /compare once per normalised list of ids, in its order', async () => {
    const base = await start();
    const before = renderCount();
    for (const [n, query] of [
      'ids=3,2,13&x=1',
      'ids=3,2,13&x=2',
      'x=3&ids=3,%202,13',
      'ids=3&ids=2,13&utm=4',
      'ids=,3,2,,13,',
    ].entries()) {
      const html = await (await fetch(`${base}/compare?${query}`)).text();
      expect(html, `${n}`).toContain('data-path="/compare?ids=3%2C2%2C13"');
      expect(html).toContain('data-module="ComparePage"');
    }
    expect(renderCount() - before).toBe(1);
    // Another order is another comparison.
    expect(await (await fetch(`${base}/compare?ids=2,3,13`)).text()).toContain(
      'data-path="/compare?ids=2%2C3%2C13"',
    );
    expect(renderCount() - before).toBe(2);
  });

  it('keeps the pages in use when unique paths flood it, dropping the least recently used', async () => {
    // Room for a handful of pages only.
    const base = await start({ pageCacheBytes: 12_000 });
    const count = (p: string) => renders()[p] ?? 0;
    await fetch(`${base}/risks`);
    await fetch(`${base}/options/cold`);
    const hot = count('/risks');
    const cold = count('/options/cold');
    for (let n = 0; n < 300; n++) {
      expect((await fetch(`${base}/options/flood-${n}`)).status).toBe(200);
      // The hot page is asked for all along: it stays cached.
      if (n % 2 === 0) expect((await fetch(`${base}/risks`)).status).toBe(200);
    }
    expect(count('/risks')).toBe(hot);
    // A page nobody asked for again was dropped and is rendered anew.
    await fetch(`${base}/options/cold`);
    expect(count('/options/cold')).toBe(cold + 1);
  });

  it('sends pages without their first paint while renders are busy, and paints them later', async () => {
    const base = await start({ maxConcurrentRenders: 1, renderBudgetMs: 60_000 });
    const responses = await Promise.all(
      [1, 2, 3, 4].map(async (n) => {
        const response = await fetch(`${base}/slow/${n}`);
        return { n, status: response.status, html: await response.text() };
      }),
    );
    expect(responses.map(({ status }) => status)).toEqual([200, 200, 200, 200]);
    const painted = responses.filter(({ html }) => html.includes('<h1>Slow</h1>'));
    const unpainted = responses.filter(({ html }) => html.includes('<div id="root"></div>'));
    expect(painted.length).toBeGreaterThanOrEqual(1);
    expect(unpainted.length).toBeGreaterThanOrEqual(1);
    expect(painted.length + unpainted.length).toBe(4);
    // The unpainted page is the template with the page's title and hints, and its start script.
    expect(unpainted[0]!.html.includes('Slow | Pigi')).toBe(true);
    expect(unpainted[0]!.html.includes('<script defer src="/main.js"></script>')).toBe(true);
    // Sent unpainted while busy is not cached as the page: once idle it is painted.
    const later = await (await fetch(`${base}/slow/${unpainted[0]!.n}`)).text();
    expect(later.includes('<h1>Slow</h1>')).toBe(true);
  });

  it('spends at most its render budget per second on first paints, then sends pages unpainted', async () => {
    // 100 ms per second: one 150 ms render spends it.
    const base = await start({ renderBudgetMs: 100 });
    const first = await (await fetch(`${base}/slow/budget-1`)).text();
    expect(first.includes('<h1>Slow</h1>')).toBe(true);
    const before = renderCount();
    for (const n of [2, 3, 4]) {
      const html = await (await fetch(`${base}/slow/budget-${n}`)).text();
      expect(html.includes('<div id="root"></div>'), `${n}`).toBe(true);
      expect(html.includes('Slow | Pigi')).toBe(true);
    }
    expect(renderCount()).toBe(before);
    // Cached pages are still sent painted.
    expect((await (await fetch(`${base}/slow/budget-1`)).text()).includes('<h1>Slow</h1>')).toBe(
      true,
    );
    // A second later the budget is back.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const later = await (await fetch(`${base}/slow/budget-2`)).text();
    expect(later.includes('<h1>Slow</h1>')).toBe(true);
  });

  it('does not count loading a renderer (once per build) against the render budget', async () => {
    const slowRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'page-cache-load-'));
    try {
      for (const file of [
        'shell/dist/index.html',
        'shell/dist/mf-manifest.json',
        'shell/dist/remotes.json',
        'mfe-content/dist/remoteEntry.js',
        'mfe-content/dist/pages.json',
      ]) {
        write(file, fs.readFileSync(path.join(root, file), 'utf8'), slowRoot);
      }
      // Each renderer takes 300 ms to load (a large bundle), its renders a moment.
      const slowLoad = 'const loaded = Date.now() + 300; while (Date.now() < loaded) {}\n';
      write('shell/dist/server/render.cjs', slowLoad + SHELL_RENDERER, slowRoot);
      write('mfe-content/dist/server/render.cjs', slowLoad + CONTENT_RENDERER, slowRoot);
      const base = await start({ rootDir: slowRoot, renderBudgetMs: 100 });
      for (const page of ['/risks', '/options/a', '/options/b', '/compare?ids=1,2']) {
        const html = await (await fetch(`${base}${page}`)).text();
        expect(html.includes('<div class="app"'), page).toBe(true);
      }
    } finally {
      fs.rmSync(slowRoot, { recursive: true, force: true });
    }
  });
});
