import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createSiteServer } from './site-server.ts';
import { PageTable } from './page-table.ts';

let root: string;

function write(file: string, body: string) {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  // Written whole, then moved into place, as a deployment replaces a file.
  fs.writeFileSync(`${full}.tmp`, body);
  fs.renameSync(`${full}.tmp`, full);
  const later = new Date(Date.now() + Math.random() * 10_000);
  fs.utimesSync(full, later, later);
}

const pages = (...entries: object[]) => JSON.stringify({ pages: entries });
const risks = { path: '/risks', module: './RisksPage', title: 'Risks' };

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'page-table-'));
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
  vi.restoreAllMocks();
});

describe('the site server route table', () => {
  let server: http.Server;
  let base: string;

  beforeEach(async () => {
    write(
      'shell/dist/index.html',
      '<!doctype html><html><head></head><body><div id="root"></div></body></html>',
    );
    write(
      'shell/dist/remotes.json',
      JSON.stringify({
        mfe_leaderboard: '/remotes/mfe-leaderboard/remoteEntry.js',
        mfe_content: '/remotes/mfe-content/remoteEntry.js',
      }),
    );
    write('mfe-content/dist/pages.json', pages(risks));
    write(
      'mfe-leaderboard/dist/pages.json',
      pages({
        path: '/options',
        module: './ComparisonPage',
        title: 'Comparison',
        data: ['/api/sources'],
      }),
    );
    server = createSiteServer({ rootDir: root, apiHandler: (_req, res) => res.end('{}') });
    await new Promise<void>((resolve) => server.listen(0, resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => server.close());

  const html = async (pathname: string) => (await fetch(`${base}${pathname}`)).text();
  const hintsEntry = (remote: string) => `href="/remotes/${remote}/remoteEntry.js" as="script"`;

  it('serves a page added to a built pages.json without a restart, and forgets a removed one', async () => {
    expect(await html('/guides/risks')).not.toContain(hintsEntry('mfe-content'));
    write(
      'mfe-content/dist/pages.json',
      pages(risks, { path: '/guides/risks', module: './RisksPage', title: 'Risk guide' }),
    );
    const added = await html('/guides/risks');
    expect(added).toContain(hintsEntry('mfe-content'));
    expect(added).toContain('<title data-first-paint-head="">Risk guide</title>');
    write('mfe-content/dist/pages.json', pages(risks));
    expect(await html('/guides/risks')).not.toContain(hintsEntry('mfe-content'));
  });

  it('gives a static path to its page even when another remote declares a parameter first', async () => {
    write(
      'shell/dist/remotes.json',
      JSON.stringify({
        mfe_strategy: '/remotes/mfe-strategy/remoteEntry.js',
        mfe_leaderboard: '/remotes/mfe-leaderboard/remoteEntry.js',
      }),
    );
    write(
      'mfe-strategy/dist/pages.json',
      pages({ path: '/options/:id', module: './Detail', title: 'Strategy' }),
    );
    write(
      'mfe-leaderboard/dist/pages.json',
      pages({ path: '/options/compare', module: './ComparisonPage', title: 'Compare' }),
    );
    const compare = await html('/options/compare');
    expect(compare).toContain(hintsEntry('mfe-leaderboard'));
    expect(compare).not.toContain(hintsEntry('mfe-strategy'));
    expect(await html('/options/lido')).toContain(hintsEntry('mfe-strategy'));
  });

  it('leaves out only the pages of a remote whose pages.json is invalid or missing, and logs it once', async () => {
    write('mfe-content/dist/pages.json', '{ "pages": [ { "path": "risks" ');
    const risksPage = await html('/risks');
    expect(risksPage).not.toContain(hintsEntry('mfe-content'));
    expect(risksPage).toContain('<div id="root">'); // still the shell, as for any path
    expect(await html('/options')).toContain(hintsEntry('mfe-leaderboard'));
    await html('/risks');
    const logged = vi
      .mocked(console.error)
      .mock.calls.filter(([line]) => String(line).includes('mfe_content: pages.json'));
    expect(logged).toHaveLength(1);
    fs.rmSync(path.join(root, 'mfe-content/dist/pages.json'));
    expect(await html('/options')).toContain(hintsEntry('mfe-leaderboard'));
    write('mfe-content/dist/pages.json', pages(risks));
    expect(await html('/risks')).toContain(hintsEntry('mfe-content'));
  });
});

describe('a remote on another origin', () => {
  let remote: http.Server;
  let body: string;
  let requests: string[];
  let entry: string;

  beforeEach(async () => {
    body = pages(risks);
    requests = [];
    remote = http.createServer((req, res) => {
      requests.push(`${req.url} ${req.headers['if-none-match'] ?? ''}`.trim());
      if (body === 'down') {
        res.statusCode = 503;
        res.end();
        return;
      }
      const etag = `"${body.length}-${body.charCodeAt(body.length - 3)}"`;
      if (req.headers['if-none-match'] === etag) {
        res.statusCode = 304;
        res.end();
        return;
      }
      res.setHeader('ETag', etag);
      res.end(body);
    });
    await new Promise<void>((resolve) => remote.listen(0, resolve));
    entry = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/v2/remoteEntry.js?x=1`;
  });
  afterEach(() => remote.close());

  it('reads its pages.json over HTTP, beside its entry, and revalidates it in the background', async () => {
    const table = new PageTable({
      rootDir: root,
      manifest: () => ({ mfe_content: entry }),
      refreshMs: 0,
    });
    const first = await table.current();
    expect(first.table.pages.map((page) => page.path)).toEqual(['/risks']);
    expect(requests).toEqual(['/v2/pages.json']);

    body = pages(risks, { path: '/vault', module: './VaultPage', title: 'Vault' });
    await vi.waitFor(async () => {
      expect((await table.current()).table.pages.map((page) => page.path)).toEqual([
        '/risks',
        '/vault',
      ]);
    });
    const { signature } = await table.current();
    expect(signature).not.toBe(first.signature);
    // Unchanged: a 304 keeps the list and the signature.
    await vi.waitFor(async () => {
      await table.current();
      expect(requests.at(-1)).toMatch(/^\/v2\/pages\.json "/);
    });
    expect((await table.current()).signature).toBe(signature);
  });

  it('keeps the last good list while the remote is down, and has none if it never answered', async () => {
    const table = new PageTable({
      rootDir: root,
      manifest: () => ({ mfe_content: entry }),
      refreshMs: 0,
    });
    await table.current();
    body = 'down';
    await vi.waitFor(async () => {
      await table.current();
      expect(requests.length).toBeGreaterThan(2);
    });
    expect((await table.current()).table).toMatchObject({
      complete: true,
      pages: [{ path: '/risks' }],
    });

    const fresh = new PageTable({ rootDir: root, manifest: () => ({ mfe_content: entry }) });
    expect((await fresh.current()).table).toMatchObject({ complete: false, pages: [] });
  });
});
