/**
 * Teams ship their remotes safely: a remote built alone is released, rolled back, given to a
 * share of visitors first, refused when it does not fit the shell or the API, rolled back by
 * itself when its pages throw, and switched on every process of a fleet together. Each test runs
 * its own site process(es) (fixtures/site-process.ts): a release must not change what the shared
 * e2e server serves to the other tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  buildContentRelease,
  remotes,
  sampleDataDir,
  startSite,
  type SiteProcess,
} from '../fixtures/site-process.ts';
import { appTookOver } from '../pages/chrome.ts';
import { E2E_PORT } from '../scripts/e2e-env.ts';

test.describe.configure({ mode: 'serial' });

const NEW_HEADING = 'Coming Soon: the second release';
const OLD_HEADING = 'Coming Soon';
const REMOTE = 'mfe_content';

interface RemoteStatus {
  live: string;
  canary: { id: string; percent: number } | null;
  previous: string[];
  releases: { id: string; createdAt: string; from: string }[];
}

let dataDir: string;
let site: SiteProcess;
let changedBuild: string;
const env = () => ({ DATA_DIR: dataDir });

async function status(): Promise<Record<string, RemoteStatus>> {
  const result = await remotes(['status', '--json'], env());
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, RemoteStatus>;
}

/** The entry `/remotes.json` gives a visitor with `cookie` (or a fresh one), and its cookie. */
async function entryFor(url: string, cookie?: string) {
  const response = await fetch(`${url}/remotes.json`, {
    headers: cookie ? { cookie } : {},
  });
  expect(response.status).toBe(200);
  const manifest = (await response.json()) as Record<string, string>;
  const set = response.headers.get('set-cookie');
  return { entry: manifest[REMOTE]!, cookie: set ? set.split(';')[0]! : cookie };
}

const releaseOf = (entry: string) => /\/remotes\/mfe-content\/([0-9a-f]{12})\//.exec(entry)?.[1];

async function learnHeading(page: Page) {
  return page.getByRole('heading', { level: 1 }).first();
}

test.beforeAll(async () => {
  dataDir = sampleDataDir();
  site = await startSite(E2E_PORT + 20, env());
  changedBuild = await buildContentRelease({ heading: NEW_HEADING });
});

test.afterAll(async () => {
  await site?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(changedBuild, { recursive: true, force: true });
});

test('a release is served without a restart, reaches an open tab on its next navigation, and rolls back', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const first = (await status())[REMOTE]!;
  expect(first.releases.map((r) => r.from)).toEqual(['build']);

  // A tab opened before the release, which has loaded the remote (the landing's sections).
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${site.url}/`);
  await appTookOver(page);
  await page.evaluate(() => ((window as unknown as { sameTab: boolean }).sameTab = true));

  const released = await remotes(['release', REMOTE, '--from', changedBuild], env());
  expect(released.status, released.stderr).toBe(0);
  const after = (await status())[REMOTE]!;
  expect(after.live).not.toBe(first.live);
  expect(after.previous[0]).toBe(first.live);
  expect(after.releases[0]).toMatchObject({ id: after.live, from: changedBuild });

  // Served at once, first paint included.
  const html = await (await fetch(`${site.url}/learn`)).text();
  expect(html).toContain(NEW_HEADING);

  // The open tab: next navigation shows the new release, no reload, no error.
  await page.getByRole('contentinfo').getByRole('link', { name: 'Learn' }).click();
  await expect(await learnHeading(page)).toHaveText(NEW_HEADING);
  expect(await page.evaluate(() => (window as unknown as { sameTab?: boolean }).sameTab)).toBe(
    true,
  );
  // The old release's files are still there for tabs that run it.
  const oldChunk = fs
    .readdirSync(path.join(dataDir, 'releases', 'mfe-content', first.live))
    .find((file) => /\.[0-9a-f]{8}\.js$/.test(file))!;
  const oldStatus = await page.evaluate(
    (url) => fetch(url).then((r) => r.status),
    `/remotes/mfe-content/${first.live}/${oldChunk}`,
  );
  expect(oldStatus).toBe(200);
  expect(errors).toEqual([]);

  const rolledBack = await remotes(['rollback', REMOTE], env());
  expect(rolledBack.status, rolledBack.stderr).toBe(0);
  expect((await status())[REMOTE]!.live).toBe(first.live);
  await page.goto(`${site.url}/learn`);
  await expect(await learnHeading(page)).toHaveText(OLD_HEADING);
});

test('a canary reaches about its share of visitors, sticky, and promote gives it to all', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const live = (await status())[REMOTE]!.live;
  const released = await remotes(
    ['release', REMOTE, '--from', changedBuild, '--canary', '20'],
    env(),
  );
  expect(released.status, released.stderr).toBe(0);
  const canary = (await status())[REMOTE]!.canary!;
  expect(canary.percent).toBe(20);

  const visitors: { cookie: string; release: string }[] = [];
  for (let i = 0; i < 200; i++) {
    const { entry, cookie } = await entryFor(site.url);
    expect(cookie).toBeTruthy();
    visitors.push({ cookie: cookie!, release: releaseOf(entry)! });
  }
  const inCanary = visitors.filter((v) => v.release === canary.id).length;
  expect(visitors.every((v) => v.release === canary.id || v.release === live)).toBe(true);
  // Binomial(200, 0.2): 40 expected, 23-57 is within three standard deviations.
  expect(inCanary).toBeGreaterThanOrEqual(23);
  expect(inCanary).toBeLessThanOrEqual(57);
  // Sticky: each visitor keeps their release on later answers.
  for (const visitor of visitors.slice(0, 40)) {
    const again = await entryFor(site.url, visitor.cookie);
    expect(releaseOf(again.entry)).toBe(visitor.release);
  }

  // In the browser: the first paint and the client are the visitor's release.
  for (const kind of ['canary', 'live'] as const) {
    const visitor = visitors.find((v) => (v.release === canary.id) === (kind === 'canary'))!;
    const context = await browser.newContext();
    const [name, value] = visitor.cookie.split('=');
    await context.addCookies([{ name: name!, value: value!, url: site.url }]);
    const page = await context.newPage();
    const response = await page.goto(`${site.url}/learn`);
    const heading = kind === 'canary' ? NEW_HEADING : OLD_HEADING;
    expect(await response!.text()).toContain(`<h1>${heading}</h1>`);
    await appTookOver(page);
    await expect(await learnHeading(page)).toHaveText(heading);
    await context.close();
  }

  const promoted = await remotes(['promote', REMOTE], env());
  expect(promoted.status, promoted.stderr).toBe(0);
  const now = (await status())[REMOTE]!;
  expect(now).toMatchObject({ live: canary.id, canary: null });
  for (const visitor of visitors.filter((v) => v.release === live).slice(0, 20)) {
    expect(releaseOf((await entryFor(site.url, visitor.cookie)).entry)).toBe(canary.id);
  }
});

test('a build that does not fit the shell or the API is refused and nothing served changes', async () => {
  test.setTimeout(120_000);
  const before = await status();
  const manifestBefore = await (await fetch(`${site.url}/remotes.json`)).text();
  const copy = (edit: (dir: string) => void) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-refused-'));
    fs.cpSync(changedBuild, dir, { recursive: true });
    edit(dir);
    return dir;
  };
  const editJson = (file: string, edit: (json: Record<string, unknown>) => void) => {
    const json = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    edit(json);
    fs.writeFileSync(file, JSON.stringify(json));
    fs.rmSync(`${file}.br`, { force: true });
    fs.rmSync(`${file}.gz`, { force: true });
  };
  const cases: [string, string, RegExp][] = [
    [
      'react 18',
      copy((dir) =>
        editJson(path.join(dir, 'mf-manifest.json'), (json) => {
          for (const shared of json.shared as { name: string; requiredVersion?: string }[])
            if (shared.name === 'react') shared.requiredVersion = '^18.3.1';
        }),
      ),
      /react/,
    ],
    [
      'invalid pages.json',
      copy((dir) => fs.writeFileSync(path.join(dir, 'pages.json'), '{"pages": "none"}')),
      /pages\.json/,
    ],
    [
      'data call not in the contract',
      copy((dir) =>
        editJson(path.join(dir, 'pages.json'), (json) => {
          const pages = json.pages as { path: string; data?: string[] }[];
          pages.find((p) => p.path === '/learn')!.data = ['/api/not-an-endpoint'];
        }),
      ),
      /\/api\/not-an-endpoint/,
    ],
  ];
  for (const [name, dir, message] of cases) {
    const result = await remotes(['release', REMOTE, '--from', dir], env());
    expect(result.status, name).toBe(1);
    expect(result.stderr + result.stdout, name).toMatch(message);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  expect(await status()).toEqual(before);
  expect(await (await fetch(`${site.url}/remotes.json`)).text()).toBe(manifestBefore);
});

test('a canary whose pages throw in the browser is rolled back by itself', async ({ browser }) => {
  test.setTimeout(240_000);
  const live = (await status())[REMOTE]!.live;
  const failing = await buildContentRelease({ throwInBrowser: true });
  try {
    const released = await remotes(['release', REMOTE, '--from', failing, '--canary', '50'], env());
    expect(released.status, released.stderr).toBe(0);
    const canary = (await status())[REMOTE]!.canary!;
    // Visitors the canary reaches open its page; each page's error is reported by the browser.
    let visits = 0;
    while ((await status())[REMOTE]!.canary && visits < 30) {
      const { entry, cookie } = await entryFor(site.url);
      if (releaseOf(entry) !== canary.id) continue;
      const context = await browser.newContext();
      const [name, value] = cookie!.split('=');
      await context.addCookies([{ name: name!, value: value!, url: site.url }]);
      const page = await context.newPage();
      await page.goto(`${site.url}/learn`);
      await expect(page.getByRole('alert')).toContainText('This part of the page is unavailable');
      await context.close();
      visits++;
    }
    const after = (await status())[REMOTE]!;
    expect(after.canary).toBeNull();
    expect(after.live).toBe(live);
    expect(visits).toBeGreaterThanOrEqual(5);
    // The errors are counted for the canary's release.
    const full = JSON.parse((await remotes(['status', '--json'], env())).stdout) as Record<
      string,
      { counts: Record<string, { errors: number }> }
    >;
    expect(full[REMOTE]!.counts[canary.id]!.errors).toBeGreaterThanOrEqual(5);
  } finally {
    fs.rmSync(failing, { recursive: true, force: true });
  }
});

test('two processes on one PostgreSQL switch together, whichever machine the command ran on', async () => {
  test.setTimeout(240_000);
  const { startCluster } = await import('@yield/api/test/pg-cluster');
  const cluster = await startCluster();
  const dirs = [sampleDataDir(), sampleDataDir(), sampleDataDir()];
  const sites: SiteProcess[] = [];
  try {
    const databaseUrl = await cluster.createDatabase('releases');
    for (const [i, dir] of dirs.slice(0, 2).entries()) {
      sites.push(await startSite(E2E_PORT + 21 + i, { DATA_DIR: dir, DATABASE_URL: databaseUrl }));
    }
    const entries = () => Promise.all(sites.map(async (s) => (await entryFor(s.url)).entry));
    const [first, second] = await entries();
    expect(first).toBe(second);
    // The command runs with a third data directory: another machine of the fleet.
    const released = await remotes(['release', REMOTE, '--from', changedBuild], {
      DATA_DIR: dirs[2]!,
      DATABASE_URL: databaseUrl,
    });
    expect(released.status, released.stderr).toBe(0);
    const fleetStatus = JSON.parse(
      (await remotes(['status', '--json'], { DATA_DIR: dirs[2]!, DATABASE_URL: databaseUrl }))
        .stdout,
    ) as Record<string, RemoteStatus>;
    const live = fleetStatus[REMOTE]!.live;
    expect(releaseOf(first!)).not.toBe(live);
    await expect
      .poll(async () => (await entries()).map(releaseOf), { timeout: 20_000 })
      .toEqual([live, live]);
    for (const s of sites) {
      expect(await (await fetch(`${s.url}/learn`)).text()).toContain(NEW_HEADING);
    }
  } finally {
    for (const s of sites) await s.stop();
    await cluster.destroy();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
});
