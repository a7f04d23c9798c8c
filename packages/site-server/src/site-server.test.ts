import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import type http from 'node:http';
import { createSiteServer } from './site-server.ts';

let root: string;
let server: http.Server;
let base: string;

function write(file: string, body: string, { compress = false } = {}) {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, body);
  if (compress) {
    fs.writeFileSync(`${full}.br`, zlib.brotliCompressSync(body));
    fs.writeFileSync(`${full}.gz`, zlib.gzipSync(body));
  }
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'site-'));
  write(
    'shell/dist/index.html',
    '<!doctype html><html><head></head><body><div id="root"></div></body></html>',
    { compress: true },
  );
  write('shell/dist/main.1a2b3c4d.js', 'console.log("shell");'.repeat(50), { compress: true });
  write(
    'shell/dist/remotes.json',
    JSON.stringify({ mfe_content: '/remotes/mfe-content/remoteEntry.js' }),
  );
  write('mfe-content/dist/remoteEntry.js', 'var mfe_content = {};');
  write(
    'mfe-content/dist/pages.json',
    JSON.stringify([{ path: '/risks', module: './RisksPage', title: 'Risks' }]),
  );
  write('secret.txt', 'do not serve');
  server = createSiteServer({
    rootDir: root,
    apiHandler: (req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ api: req.url }));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

/** One request with any method (fetch refuses TRACE): its status, headers and body. */
function send(
  method: string,
  page: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${page}`, { method }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

afterAll(() => {
  server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('site server', () => {
  it('hands /api requests to the API', async () => {
    const response = await fetch(`${base}/api/health?x=1`);
    expect(await response.json()).toEqual({ api: '/api/health?x=1' });
  });

  it('answers page paths with the shell and security headers', async () => {
    for (const page of ['/risks', '/risks/', '/no/such/page']) {
      const response = await fetch(`${base}${page}`);
      expect(response.status).toBe(page === '/no/such/page' ? 404 : 200);
      expect(await response.text()).toContain('<div id="root">');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('sends precompressed brotli or gzip and caches hashed assets for a year', async () => {
    const br = await fetch(`${base}/main.1a2b3c4d.js`, { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await br.text()).toContain('console.log("shell")');
    const gz = await fetch(`${base}/main.1a2b3c4d.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
  });

  it('revalidates unhashed files with ETag and 304', async () => {
    const first = await fetch(`${base}/remotes/mfe-content/remoteEntry.js`);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag')!;
    const second = await fetch(`${base}/remotes/mfe-content/remoteEntry.js`, {
      headers: { 'if-none-match': etag },
    });
    expect(second.status).toBe(304);
  });

  it('serves each remote under its own path and the runtime remotes manifest', async () => {
    expect(await (await fetch(`${base}/remotes/mfe-content/remoteEntry.js`)).text()).toBe(
      'var mfe_content = {};',
    );
    expect(await (await fetch(`${base}/remotes.json`)).json()).toEqual({
      mfe_content: '/remotes/mfe-content/remoteEntry.js',
    });
  });

  it('picks up an edited remotes manifest without a restart and allows its origins in CSP', async () => {
    const manifest = path.join(root, 'shell/dist/remotes.json');
    fs.writeFileSync(
      manifest,
      JSON.stringify({ mfe_content: 'https://cdn.example.com/c/remoteEntry.js' }),
    );
    fs.utimesSync(manifest, new Date(), new Date(Date.now() + 5000));
    const response = await fetch(`${base}/remotes.json`);
    expect(await response.json()).toEqual({
      mfe_content: 'https://cdn.example.com/c/remoteEntry.js',
    });
    expect(response.headers.get('content-security-policy')).toContain(
      "script-src 'self' https://cdn.example.com",
    );
    fs.writeFileSync(
      manifest,
      JSON.stringify({ mfe_content: '/remotes/mfe-content/remoteEntry.js' }),
    );
    fs.utimesSync(manifest, new Date(), new Date(Date.now() + 10000));
  });

  it('never serves files outside the build folders', async () => {
    for (const probe of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/remotes/mfe-content/..%2f..%2fsecret.txt',
    ]) {
      const response = await fetch(`${base}${probe}`);
      expect(await response.text()).not.toContain('do not serve');
    }
    expect((await fetch(`${base}/missing.js`)).status).toBe(404);
    expect((await fetch(`${base}/remotes/unknown/remoteEntry.js`)).status).toBe(404);
  });

  it("answers every path no page matches, dotted or not, with the shell's page and a 404", async () => {
    write('shell/dist/static/js/main.5e6f7a8b.js', 'console.log("asset");');
    for (const probe of ['/', '/no-such-page', '/a/b/c', '/risks/x', '/foo.bar', '/risks.x']) {
      const response = await fetch(`${base}${probe}`);
      expect(response.status, probe).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain('<div id="root">');
    }
    // Real files are still files; a missing one under an asset folder is a short 404.
    expect(await (await fetch(`${base}/static/js/main.5e6f7a8b.js`)).text()).toBe(
      'console.log("asset");',
    );
    for (const probe of ['/static/js/missing.js', '/static/nothing', '/remotes/mfe-content/x.js']) {
      const response = await fetch(`${base}${probe}`);
      expect(response.status, probe).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    }
  });

  it('answers a page its remote adds to its pages.json with 200, without a restart', async () => {
    const pages = path.join(root, 'mfe-content/dist/pages.json');
    const before = fs.readFileSync(pages, 'utf8');
    expect((await fetch(`${base}/guides/risks.html`)).status).toBe(404);
    fs.writeFileSync(
      pages,
      JSON.stringify([
        { path: '/risks', module: './RisksPage', title: 'Risks' },
        { path: '/guides/:name', module: './RisksPage', title: 'Guide' },
      ]),
    );
    fs.utimesSync(pages, new Date(), new Date(Date.now() + 5000));
    try {
      expect((await fetch(`${base}/guides/risks.html`)).status).toBe(200);
      expect((await fetch(`${base}/guides`)).status).toBe(404);
    } finally {
      fs.writeFileSync(pages, before);
      fs.utimesSync(pages, new Date(), new Date(Date.now() + 10000));
    }
    expect((await fetch(`${base}/guides/risks.html`)).status).toBe(404);
  });

  it('refuses methods other than GET and HEAD for the site', async () => {
    const response = await fetch(`${base}/risks`, { method: 'POST' });
    expect(response.status).toBe(405);
  });

  it('answers a method it does not know with a 501 and another method with a 405 and Allow, both the JSON error', async () => {
    const notImplemented = {
      code: 'not_implemented',
      message:
        'The method $M is not implemented here (this server answers GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS)',
    };
    for (const [method, page] of [
      ['PROPFIND', '/'],
      ['TRACE', '/options'],
      ['PROPFIND', '/main.1a2b3c4d.js'],
    ] as const) {
      const answer = await send(method, page);
      expect([method, page, answer.status]).toEqual([method, page, 501]);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers.allow).toBe('GET, HEAD');
      expect(JSON.parse(answer.body)).toEqual({
        error: { ...notImplemented, message: notImplemented.message.replace('$M', method) },
      });
    }
    for (const [method, page] of [
      ['DELETE', '/'],
      ['POST', '/risks'],
      ['OPTIONS', '/options'],
    ] as const) {
      const answer = await send(method, page);
      expect([method, page, answer.status]).toEqual([method, page, 405]);
      expect(answer.headers.allow).toBe('GET, HEAD');
      expect(JSON.parse(answer.body)).toEqual({
        error: { code: 'method_not_allowed', message: `${page} answers GET, HEAD, not ${method}` },
      });
    }
  });
});

describe('resource hints', () => {
  beforeAll(() => {
    write('shell/dist/bootstrap.0a0b0c0d.js', 'bootstrap');
    write(
      'shell/dist/mf-manifest.json',
      JSON.stringify({
        shared: [
          { name: 'react', assets: { js: { sync: ['11111111.js'] }, css: { sync: [] } } },
          { name: 'highcharts', assets: { js: { sync: ['22222222.js'] }, css: { sync: [] } } },
        ],
        exposes: [],
      }),
    );
    write(
      'shell/dist/remotes.json',
      JSON.stringify({ mfe_content: '/remotes/mfe-content/remoteEntry.js' }),
    );
    write(
      'mfe-content/dist/mf-manifest.json',
      JSON.stringify({
        shared: [],
        exposes: [
          {
            name: 'RisksPage',
            assets: { js: { sync: ['risks.33333333.js'] }, css: { sync: ['risks.44444444.css'] } },
          },
        ],
      }),
    );
  });

  it("preloads the shell's bootstrap and shared chunks and the page's remote modules", async () => {
    const html = await (await fetch(`${base}/risks`)).text();
    expect(html).toContain('<link rel="preload" href="/bootstrap.0a0b0c0d.js" as="script">');
    expect(html).toContain('<link rel="preload" href="/11111111.js" as="script">');
    expect(html).not.toContain('22222222.js'); // charts load only with a chart
    expect(html).toContain('href="/remotes/mfe-content/remoteEntry.js" as="script"');
    expect(html).toContain('href="/remotes/mfe-content/risks.33333333.js" as="script"');
    expect(html).toContain('href="/remotes/mfe-content/risks.44444444.css" as="style"');
    expect(html.indexOf('preload')).toBeLessThan(html.indexOf('</head>'));
  });

  it('sends no remote hints for the not-found page', async () => {
    const html = await (await fetch(`${base}/no/such/page`)).text();
    expect(html).not.toContain('remoteEntry.js');
    expect(html).toContain('/bootstrap.0a0b0c0d.js');
  });

  it("preloads every remote's page list: the shell reads them all before its first render", async () => {
    const html = await (await fetch(`${base}/no/such/page`)).text();
    expect(html).toContain(
      '<link rel="preload" href="/remotes/mfe-content/pages.json" as="fetch" crossorigin>',
    );
  });
});

describe('data hints', () => {
  it('preloads the API data a page reads first, per path parameter', async () => {
    write('shell/dist/index.html', '<!doctype html><html><head></head><body></body></html>');
    write(
      'shell/dist/remotes.json',
      JSON.stringify({
        mfe_strategy: '/remotes/mfe-strategy/remoteEntry.js',
        mfe_leaderboard: '/remotes/mfe-leaderboard/remoteEntry.js',
      }),
    );
    write(
      'mfe-strategy/dist/pages.json',
      JSON.stringify({
        pages: [
          {
            path: '/options/:id',
            module: './StrategyDetailPage',
            title: 'Strategy',
            data: ['/api/strategy-content/:id'],
          },
        ],
      }),
    );
    write(
      'mfe-leaderboard/dist/pages.json',
      JSON.stringify([
        {
          path: '/options',
          module: './ComparisonPage',
          title: 'Yield Comparison',
          data: ['/api/sources', '/api/strategies', '/api/baserate'],
        },
      ]),
    );
    const lido = await (await fetch(`${base}/options/lido`)).text();
    expect(lido).toContain(
      '<link rel="preload" href="/api/strategy-content/lido" as="fetch" crossorigin>',
    );
    const sky = await (await fetch(`${base}/options/sky-spark`)).text();
    expect(sky).toContain('href="/api/strategy-content/sky-spark"');
    expect(sky).not.toContain('strategy-content/lido');
    const options = await (await fetch(`${base}/options`)).text();
    for (const url of ['/api/sources', '/api/strategies', '/api/baserate']) {
      expect(options).toContain(`href="${url}" as="fetch" crossorigin`);
    }
  });
});
