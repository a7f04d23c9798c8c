import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import { createHash } from 'node:crypto';
import { AFTER_PAINT_SCRIPT } from '@yield/platform/first-paint';
import { createSiteServer } from './site-server.ts';

let root: string;
let server: http.Server;
/** mfe_premium, served from another origin. */
let premium: http.Server;
let base: string;
let settings = { siteTitle: 'Pigi', siteDescription: 'Ranked </script> yields' };
let settingsEtag = '"1"';

function write(file: string, body: string) {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, body);
  // A later write must look like a new build to the server, even within the same millisecond.
  const later = new Date(Date.now() + Math.random() * 10_000);
  fs.utimesSync(full, later, later);
}

const manifest = (name: string, css: string, js: string) =>
  JSON.stringify({
    shared: [],
    exposes: [{ name, assets: { css: { sync: [css] }, js: { sync: [js] } } }],
  });

/**
 * The shell's renderer: the frame of the page it is given, with each module's markup in a slot
 * (and the modules the browser hydrates named, when there are any).
 */
const SHELL_RENDERER = `exports.renderFrame = (context, modules, page, hydrate) =>
  '<div class="app" data-path="' + context.path + '" data-title="' + context.settings.siteTitle +
  '" data-page="' + (page ? page.modules.map((m) => m.remote + '/' + m.module).join(',') : 'not found') + '"' +
  (hydrate && hydrate.length > 0 ? ' data-hydrate="' + hydrate.join(',') + '"' : '') + '>' +
  Object.entries(modules).map(([key, html]) => '<div data-first-paint="' + key + '">' + html + '</div>').join('') +
  '</div>';`;

/** A remote's renderer: hoisted head tags first, as React renders them, then the markup. */
const CONTENT_RENDERER = `exports.render = (module, context) => module === 'RisksPage'
  ? '<title>Risks | ' + context.settings.siteTitle + '</title><meta name="description" content="d"/><h1>Understanding the Risks</h1>'
  : module === 'GuidePage'
  ? '<h1>' + (context.data ? context.data['/api/guide/' + context.path.split('/')[2].split('?')[0]].name : 'no data') + ' at ' + context.pattern + '</h1>'
  : module === 'AdoptedPage'
  ? '<h1>Adopted</h1>'
  : null;
exports.render.withData = ['GuidePage'];
exports.render.hydrate = ['AdoptedPage'];`;

/** What the API answers now for the guide pages' data (the site server reads it in-process). */
let guide = { body: '{"name":"Seven </script>"}', etag: '"g1"' };

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'first-paint-'));
  write(
    'shell/dist/index.html',
    '<!doctype html><html><head><link rel="preload" href="/remotes.json" as="fetch" crossorigin><script defer src="/main.js"></script></head><body><div id="root"></div></body></html>',
  );
  write('shell/dist/bootstrap.1a2b3c4d.js', 'bootstrap');
  write('shell/dist/bootstrap.1a2b3c4d.css', '.app{}');
  write('shell/dist/mf-manifest.json', JSON.stringify({ shared: [], exposes: [] }));
  write('shell/dist/server/render.cjs', SHELL_RENDERER);
  write('mfe-content/dist/remoteEntry.js', 'var mfe_content = {};');
  write('mfe-content/dist/risks.1111aaaa.css', 'h1{color:navy}');
  write(
    'mfe-content/dist/mf-manifest.json',
    manifest('RisksPage', 'risks.1111aaaa.css', 'risks.2222bbbb.js'),
  );
  write('mfe-content/dist/server/render.cjs', CONTENT_RENDERER);
  write(
    'mfe-content/dist/pages.json',
    JSON.stringify([
      { path: '/risks', module: './RisksPage', title: 'Risks' },
      { path: '/vault', module: './VaultPage', title: 'Vault' },
      { path: '/learn', module: './LearnPage', title: 'Learn' },
      { path: '/guide/:id', module: './GuidePage', title: 'Guide', data: ['/api/guide/:id'] },
      { path: '/risks-data', module: './RisksPage', title: 'Risks', data: ['/api/guide/7'] },
      { path: '/adopted', module: './AdoptedPage', title: 'Adopted' },
    ]),
  );
  premium = http.createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(
      JSON.stringify([{ path: '/pricing', module: './PricingPage', title: 'Premium Access' }]),
    );
  });
  await new Promise<void>((resolve) => premium.listen(0, resolve));
  write(
    'shell/dist/remotes.json',
    JSON.stringify({
      mfe_content: '/remotes/mfe-content/remoteEntry.js',
      mfe_premium: `http://127.0.0.1:${(premium.address() as AddressInfo).port}/remoteEntry.js`,
    }),
  );
  server = createSiteServer({
    rootDir: root,
    apiHandler: (_req, res) => res.end('{}'),
    settings: () => ({ body: Buffer.from(JSON.stringify(settings)), etag: settingsEtag }),
    data: (apiPath) =>
      apiPath === '/api/guide/7' ? { body: Buffer.from(guide.body), etag: guide.etag } : undefined,
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
  premium.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const page = async (pathname: string) => (await fetch(`${base}${pathname}`)).text();

describe('first paint', () => {
  it("puts the shell's frame and the first module's markup in the page", async () => {
    const html = await page('/risks');
    expect(html).toContain(
      '<div id="root"><div class="app" data-path="/risks" data-title="Pigi" data-page="mfe_content/RisksPage"><div data-first-paint="mfe_content/RisksPage"><h1>Understanding the Risks</h1></div></div></div>',
    );
  });

  it('asks the shell to frame a module its remote lists in `hydrate` for the browser to hydrate', async () => {
    expect(await page('/adopted')).toContain(
      'data-page="mfe_content/AdoptedPage" data-hydrate="mfe_content/AdoptedPage"><div data-first-paint="mfe_content/AdoptedPage"><h1>Adopted</h1></div>',
    );
    // Any other module is rendered over by the browser.
    expect(await page('/risks')).not.toContain('data-hydrate');
  });

  it("moves the module's title and description into <head>, marked for the app to replace", async () => {
    const html = await page('/risks');
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<title data-first-paint-head="">Risks | Pigi</title>');
    expect(head).toContain('<meta data-first-paint-head="" name="description" content="d"/>');
    expect(html.slice(html.indexOf('<body>'))).not.toContain('<title');
  });

  it('inlines the stylesheets the paint needs and fetches and runs nothing ahead of it', async () => {
    const response = await fetch(`${base}/risks`);
    const html = await response.text();
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<style data-href="/bootstrap.1a2b3c4d.css">.app{}</style>');
    expect(head).toContain(
      '<style data-href="/remotes/mfe-content/risks.1111aaaa.css">h1{color:navy}</style>',
    );
    // No request leaves ahead of the paint and no script runs before it: the template's read,
    // its entry script and the page's hints are started by the after-paint script.
    expect(html).not.toMatch(/<link rel="(?:preload|stylesheet)"/);
    expect(html).not.toContain('<script defer');
    expect(html).toContain(
      `<script data-after-paint="" data-src="/main.js">${AFTER_PAINT_SCRIPT}</script></body>`,
    );
    const data = JSON.parse(
      /<script type="application\/json" id="yield-first-paint">(.*?)<\/script>/.exec(html)![1]!,
    ) as { settings: typeof settings; preload: string[]; fetch: string[]; styles: string[] };
    expect(data.preload).toEqual([
      '/bootstrap.1a2b3c4d.js',
      '/remotes/mfe-content/remoteEntry.js',
      '/remotes/mfe-content/risks.2222bbbb.js',
    ]);
    expect(data.fetch).toEqual([
      '/remotes.json',
      '/remotes/mfe-content/pages.json',
      expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/pages\.json$/),
    ]);
    // The modules' stylesheets too: their chunks load them before they render.
    expect(data.styles).toEqual([
      '/bootstrap.1a2b3c4d.css',
      '/remotes/mfe-content/risks.1111aaaa.css',
    ]);
    expect(data.settings).toEqual(settings);
    // The page allows exactly that inline script.
    const hash = createHash('sha256').update(AFTER_PAINT_SCRIPT).digest('base64');
    expect(response.headers.get('content-security-policy')).toMatch(
      new RegExp(`script-src 'self'[^;]* 'sha256-${hash.replace(/[+/]/g, '\\$&')}'`),
    );
  });

  it('escapes the embedded data so it cannot close its script element', async () => {
    const html = await page('/risks');
    expect(html).toContain('Ranked \\u003c/script> yields');
    expect(html.match(/<\/script>/g)).toHaveLength(2); // the data element and the start script
  });

  it("paints a module with the page's data read in-process and embeds the data for the browser", async () => {
    const html = await page('/guide/7?from=x');
    expect(html).toContain(
      '<div data-first-paint="mfe_content/GuidePage"><h1>Seven </script> at /guide/:id</h1></div>',
    );
    // The markup is rendered for the path and the query parameters its page reads (page-query.ts):
    // this page reads none, so `from` is left to the browser.
    expect(html).toContain('data-path="/guide/7"');
    expect(html).not.toContain('from=x');
    const data = JSON.parse(
      /<script type="application\/json" id="yield-first-paint">(.*?)<\/script>/.exec(html)![1]!,
    ) as { data?: Record<string, unknown>; fetch: string[] };
    expect(data.data).toEqual({ '/api/guide/7': { name: 'Seven </script>' } });
    // Embedded data are not read again; the other reads still start after the paint.
    expect(data.fetch).not.toContain('/api/guide/7');
    expect(data.fetch).toContain('/remotes.json');
  });

  it('follows the data: a new answer of the API shows in the next page', async () => {
    guide = { body: '{"name":"Eight"}', etag: '"g2"' };
    expect(await page('/guide/7')).toContain('<h1>Eight at /guide/:id</h1>');
  });

  it('neither reads nor embeds data for a module that paints without it', async () => {
    const html = await page('/risks-data');
    expect(html).toContain('<h1>Understanding the Risks</h1>');
    expect(html).not.toContain('"data":');
    // Read by the browser once the page is painted.
    expect(html).toMatch(/"fetch":\[[^\]]*"\/api\/guide\/7"/);
    // No answer from the API: the page's own module paints without data.
    expect(await page('/guide/8')).toContain('<h1>no data at /guide/:id</h1>');
  });

  it('sends the page as before when its first module has no server markup here', async () => {
    // mfe_premium lives on another origin: its renderer cannot be run here.
    const elsewhere = await page('/pricing');
    expect(elsewhere).toContain('<div id="root"></div>');
    expect(elsewhere).toMatch(
      /<link rel="preload" href="http:\/\/127\.0\.0\.1:\d+\/remoteEntry\.js" as="script">/,
    );
    expect(elsewhere).not.toContain('yield-first-paint');
    // mfe_content renders RisksPage only.
    const vault = await page('/vault');
    expect(vault).toContain('<div id="root"></div>');
    expect(vault).toMatch(/<link rel="preload" href="\/bootstrap\.1a2b3c4d\.js" as="script">/);
  });

  it('titles a page sent without server markup as its remote declares it, for the app to replace', async () => {
    expect(await page('/vault')).toContain('<title data-first-paint-head="">Vault | Pigi</title>');
    expect(await page('/pricing')).toContain(
      '<title data-first-paint-head="">Premium Access | Pigi</title>',
    );
    expect((await page('/risks')).match(/<title/g)).toHaveLength(1); // the module's own
  });

  it("paints the shell's own pages whole (not found)", async () => {
    expect(await page('/no/such/page')).toContain(
      '<div id="root"><div class="app" data-path="/no/such/page" data-title="Pigi" data-page="not found"></div></div>',
    );
  });

  it('follows the settings: a change shows in the next page', async () => {
    settings = { ...settings, siteTitle: 'Pigi Finance' };
    settingsEtag = '"2"';
    expect(await page('/risks')).toContain('data-title="Pigi Finance"');
    expect(await page('/risks')).toContain('<title data-first-paint-head="">Risks | Pigi Finance');
  });

  it('picks up a new build of a renderer without a restart', async () => {
    write(
      'mfe-content/dist/server/render.cjs',
      CONTENT_RENDERER.replace('Understanding the Risks', 'The Risks, Rewritten'),
    );
    expect(await page('/risks')).toContain('<h1>The Risks, Rewritten</h1>');
  });

  it('sends the page as before when a renderer throws or is broken', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    write(
      'mfe-content/dist/server/render.cjs',
      'exports.render = () => { throw new Error("x"); };',
    );
    const thrown = await page('/risks');
    expect(thrown).toContain('<div id="root"></div>');
    expect(thrown).toMatch(/<link rel="preload" href="\/bootstrap\.1a2b3c4d\.js" as="script">/);
    write('shell/dist/server/render.cjs', 'this is not javascript');
    expect(await page('/learn')).toContain('<div id="root"></div>');
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
    write('shell/dist/server/render.cjs', SHELL_RENDERER);
    write('mfe-content/dist/server/render.cjs', CONTENT_RENDERER);
  });

  it('never sends a server renderer', async () => {
    expect((await fetch(`${base}/server/render.cjs`)).status).toBe(404);
    expect((await fetch(`${base}/remotes/mfe-content/server/render.cjs`)).status).toBe(404);
  });
});
