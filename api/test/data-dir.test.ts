/**
 * The data directory as an installation's own: the user data is not shipped in the repository
 * (created on first use, owner-only), one server owns a directory at a time, and the public
 * health report tells what is degraded without quoting files or naming server paths.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { chmod, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { syncBuiltinESMExports } from 'node:module';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { healthReportSchema, type HealthReport } from '@yield/contract';
import { API_ROOT, createDeps } from '../src/composition/deps.ts';
import { HOLDER_FILE } from '../src/platform/files/dir-lock.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { exited, startApi } from './api-process.ts';
import { editFile, foldUserData, setup, tempDataDir, type TestContext } from './helpers.ts';

const PERSONAL = ['mailing-list.json', 'users.json', 'invites.json', 'alerts.json'];

let t: TestContext | undefined;
const dirs: string[] = [];
let child: ChildProcess | null = null;
afterEach(async () => {
  child?.kill('SIGKILL');
  if (child) await exited(child);
  child = null;
  await t?.cleanup();
  t = undefined;
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function freshDir(): Promise<string> {
  const dir = await tempDataDir();
  dirs.push(dir);
  return dir;
}

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

const health = async (ctx: TestContext) => {
  const res = await ctx.http.get('/api/health').expect(200);
  // Still the contract's shape.
  healthReportSchema.parse(res.body);
  return { body: res.body as HealthReport, text: res.text };
};

const signUp = (ctx: TestContext, email: string) =>
  ctx.http.post('/api/addToMailList').set('Content-Type', 'application/json').send({ email });

describe('user data is not in the repository', () => {
  it('git tracks the yield files of api/data but none of the user data, which it ignores', () => {
    const repo = path.resolve(API_ROOT, '..');
    const tracked = execFileSync('git', ['ls-files', 'api/data'], { cwd: repo, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((f) => path.basename(f));
    expect(tracked).toEqual(expect.arrayContaining(['history.json', 'sources.json']));
    for (const file of PERSONAL) expect(tracked).not.toContain(file);
    const runtime = [...PERSONAL, 'user-data.log', 'user-data.sealed-1.log', '.jwt-secret'];
    const ignored = execFileSync(
      'git',
      ['check-ignore', '--no-index', ...runtime.map((f) => `api/data/${f}`)],
      { cwd: repo, encoding: 'utf8' },
    )
      .split('\n')
      .filter(Boolean);
    expect(ignored).toEqual(runtime.map((f) => `api/data/${f}`));
  });

  it('a data directory without the user-data files starts, serves sign-ups and creates them 0600', async () => {
    const dir = await freshDir();
    for (const file of PERSONAL) await rm(path.join(dir, file));
    t = await setup({ dir });
    const { body } = await health(t);
    expect(body.status).toBe('ok');
    for (const file of PERSONAL) expect(body.files[file]).toMatchObject({ loaded: true });

    await signUp(t, 'first@example.com').expect(202);
    await signUp(t, 'FIRST@example.com').expect(202); // the same answer for a known address
    // The journal holds the address: owner-only from its creation.
    expect(await modeOf(path.join(dir, 'user-data.log'))).toBe(0o600);
    await foldUserData(t);
    const list = JSON.parse(await readFile(path.join(dir, 'mailing-list.json'), 'utf8')) as {
      entries: { email: string }[];
    };
    expect(list.entries.map((e) => e.email)).toEqual(['first@example.com']);
    expect(await modeOf(path.join(dir, 'mailing-list.json'))).toBe(0o600);
  });

  it('files written 0644 before are owner-only after a start, a compaction and a new journal', async () => {
    const dir = await freshDir();
    for (const file of PERSONAL) await chmod(path.join(dir, file), 0o644);
    await writeFile(path.join(dir, 'user-data.log'), '');
    await chmod(path.join(dir, 'user-data.log'), 0o644);
    t = await setup({ dir });
    for (const file of [...PERSONAL, 'user-data.log'])
      expect(await modeOf(path.join(dir, file)), file).toBe(0o600);
    await chmod(path.join(dir, 'mailing-list.json'), 0o644);
    await signUp(t, 'again@example.com').expect(202);
    await foldUserData(t);
    // A rename put a new file in place: it carries 0600 itself.
    expect(await modeOf(path.join(dir, 'mailing-list.json'))).toBe(0o600);
    await signUp(t, 'later@example.com').expect(202);
    expect(await modeOf(path.join(dir, 'user-data.log'))).toBe(0o600);
  });
});

describe('one server per data directory', () => {
  it('a second server on the same directory is refused, naming it and the holder, until the first stops', async () => {
    const dir = await freshDir();
    t = await setup({ dir });
    const second = () => createDeps({ dataDir: dir, logger: silentLogger, watchIntervalMs: 0 });
    const refused = await second().then(
      () => null,
      (err: unknown) => err as Error,
    );
    expect(refused?.message).toContain(
      `The data directory ${dir} is in use by process ${process.pid}`,
    );
    expect(refused?.message).toContain('only one server may own a data directory');
    // The first one goes on serving.
    await signUp(t, 'still@example.com').expect(202);

    await t.deps.close();
    const next = await second();
    await next.close();
    t = { ...t, cleanup: () => rm(dir, { recursive: true, force: true }) };
  });

  it('a server process holds the directory; killed, its lock does not block the next start', async () => {
    const dir = await freshDir();
    // Below the ephemeral range (32768 and up), where client sockets could hold the port.
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    child = await startApi(dir, port);
    const holder = JSON.parse(await readFile(path.join(dir, HOLDER_FILE), 'utf8')) as {
      pid: number;
    };
    expect(holder.pid).toBe(child.pid);
    const open = () => createDeps({ dataDir: dir, logger: silentLogger, watchIntervalMs: 0 });
    await expect(open()).rejects.toThrow(`in use by process ${child.pid}`);

    child.kill('SIGKILL');
    await exited(child);
    child = null;
    const started = Date.now();
    const deps = await open();
    // At once, not after the lock went stale.
    expect(Date.now() - started).toBeLessThan(5000);
    await deps.close();
  }, 90_000);
});

describe('public health', () => {
  it('a hand-broken user-data file is reported without its content or the server path', async () => {
    t = await setup();
    await signUp(t, 'someone.private@example.com').expect(202);
    await foldUserData(t);
    const file = path.join(t.dir, 'mailing-list.json');
    // JSON.parse quotes the text around the error in its message: here, part of an address.
    await editFile(file, '{"entries": [{"email": someone.private@example.com}]}');
    await t.deps.store.refresh();
    await rm(path.join(t.dir, 'liquidity.json'));
    await t.deps.store.refresh();

    const { body, text } = await health(t);
    expect(body.status).toBe('degraded');
    expect(body.files['mailing-list.json']!.error).toMatch(/^mailing-list\.json: \$: invalid JSON/);
    expect(body.files['liquidity.json']!.error).toBe('liquidity.json: file not found');
    expect(text).not.toContain('someone');
    expect(text).not.toContain('not valid JSON');
    expect(text).not.toContain(t.dir);
    expect(text).not.toContain(path.dirname(t.dir));
    // The log has it all, for the operator.
    const logged = JSON.stringify(t.logger.lines);
    expect(logged).toContain('someone');
    expect(logged).toContain(`liquidity.json: file not found in ${t.dir}`);
  });

  it('the last import is reported without absolute paths or fragments of what failed to parse', async () => {
    const dir = await freshDir();
    const at = '2026-11-20T10:00:00.000Z';
    await writeFile(
      path.join(dir, 'import-status.json'),
      JSON.stringify({
        lastRun: {
          startedAt: at,
          finishedAt: at,
          from: `files:${dir}/saved`,
          ok: false,
          error: `history.json: $: invalid JSON: Unexpected token 'o', "{"series": oops" is not valid JSON`,
          feeds: [
            {
              series: 'lido-steth',
              pool: '747c1d2a-c668-4682-b9f9-296708a3dd90',
              ok: false,
              reason: `ENOENT: no such file or directory, open '${dir}/saved/lido.json'`,
              days: 0,
              added: 0,
              updated: 0,
              newestDay: null,
            },
          ],
        },
      }),
    );
    t = await setup({ dir });
    const { body, text } = await health(t);
    expect(body.status).toBe('degraded');
    expect(body.import.lastRun).toMatchObject({
      from: 'files:saved',
      error: 'history.json: $: invalid JSON',
      feeds: [{ reason: "ENOENT: no such file or directory, open 'lido.json'" }],
    });
    expect(text).not.toContain(dir);
    expect(text).not.toContain('oops');
  });

  it('degraded while writes fail for a full disk, with which file; ok again after a write succeeds', async () => {
    t = await setup();
    const dir = t.dir;
    const realWrite = fs.write;
    /** Which files of the data directory cannot grow (the disk is full for them), if any. */
    let full: ((file: string) => boolean) | null = null;
    // Writes to those files fail with ENOSPC.
    fs.write = ((fd: number, ...rest: unknown[]) => {
      const cb = rest[rest.length - 1] as (err: NodeJS.ErrnoException | null) => void;
      let target = '';
      try {
        target = fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        // not a file
      }
      if (full && target.startsWith(dir) && full(path.basename(target))) {
        const err = Object.assign(new Error(`ENOSPC: no space left on device, write`), {
          code: 'ENOSPC',
        });
        return void setImmediate(() => cb(err));
      }
      return (realWrite as (...args: unknown[]) => void)(fd, ...rest);
    }) as typeof fs.write;
    syncBuiltinESMExports();
    onTestFinished(() => {
      fs.write = realWrite;
      syncBuiltinESMExports();
    });

    expect((await health(t)).body.status).toBe('ok');
    full = () => true;
    await signUp(t, 'full@example.com').expect(503);
    // Reported as long as the disk stays full, also once the store has reloaded.
    await new Promise((r) => setTimeout(r, 100));
    for (let i = 0; i < 2; i++) {
      const { body, text } = await health(t);
      expect(body.status).toBe('degraded');
      expect(body.userData).toEqual({
        store: 'files',
        available: false,
        error: 'user-data.log: not writable: no space left on the disk',
      });
      expect(text).not.toContain(dir);
      await new Promise((r) => setTimeout(r, 100));
    }

    // A fold that cannot write a file names that file.
    full = null;
    await signUp(t, 'room@example.com').expect(202);
    expect((await health(t)).body.status).toBe('ok');
    full = (file) => file.startsWith('mailing-list.json');
    await expect(foldUserData(t)).rejects.toThrow(/ENOSPC/);
    const during = (await health(t)).body;
    expect(during.status).toBe('degraded');
    expect(during.files['mailing-list.json']!.error).toBe(
      'mailing-list.json: not writable: no space left on the disk',
    );
    expect(during.userData.error).toBe(
      'mailing-list.json: not writable: no space left on the disk',
    );

    full = null;
    await foldUserData(t);
    const after = (await health(t)).body;
    expect(after.status).toBe('ok');
    expect(after.files['mailing-list.json']!.error).toBeNull();
    expect(after.userData).toEqual({ store: 'files', available: true, error: null });
    expect((await readdir(dir)).filter((f) => f.startsWith('user-data.'))).toEqual([]);
  });
});
