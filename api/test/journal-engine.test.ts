/**
 * The journal engine with a toy aggregate of its own (two files, one record type that touches
 * both): registration, one journal line for a change of two files, replay after a crash marker.
 * It runs on a data store that holds none of the user-data files.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JournalEngine } from '../src/platform/files/journal-engine.ts';
import { jsonFileText, sha256 } from '../src/platform/files/json-text.ts';
import { DataStore, type FileSpec } from '../src/platform/files/data-store.ts';
import { memoryLogger } from '../src/platform/logger.ts';

type Shelf = { items: string[] };
type Tally = { count: number };
const toyFiles = {
  shelf: {
    file: 'shelf.json',
    schema: z.object({ items: z.array(z.string()) }),
    personal: true,
    empty: () => ({ items: [] }),
  } as FileSpec<Shelf>,
  tally: {
    file: 'tally.json',
    schema: z.object({ count: z.number() }),
    personal: true,
    empty: () => ({ count: 0 }),
  } as FileSpec<Tally>,
};
type ToyFiles = typeof toyFiles;

const toyRecords = {
  /** Puts an item on the shelf and counts it on the tally: one change, two files. */
  put: z.object({ t: z.literal('put'), item: z.string() }),
  /** Only the shelf. */
  drop: z.object({ t: z.literal('drop'), item: z.string() }),
};
type Put = z.infer<typeof toyRecords.put>;
type Drop = z.infer<typeof toyRecords.drop>;

/** The toy aggregate: registers its records and one reducer per file. */
function toyAggregate(engine: JournalEngine<ToyFiles>) {
  const onShelf = new Set<string>();
  engine.declare(toyRecords);
  engine.register<Shelf, Put | Drop>({
    key: 'shelf',
    types: ['put', 'drop'],
    apply: (data, r) => {
      if (r.t === 'put' && !onShelf.has(r.item)) {
        onShelf.add(r.item);
        data.items.push(r.item);
      } else if (r.t === 'drop' && onShelf.delete(r.item)) {
        data.items = data.items.filter((i) => i !== r.item);
      }
    },
    rebuild: (data) => {
      onShelf.clear();
      for (const i of data.items) onShelf.add(i);
    },
    freeze: (data) => ({ items: data.items.slice() }),
  });
  // Not idempotent (like an invite use): counted twice if replayed twice.
  engine.register<Tally, Put>({
    key: 'tally',
    types: ['put'],
    apply: (data, _r) => {
      data.count++;
    },
    rebuild: () => undefined,
    freeze: (data) => ({ count: data.count }),
  });
  return {
    async put(item: string): Promise<void> {
      const change: Put = { t: 'put', item };
      engine.apply(change);
      await engine.record(change);
    },
    async drop(item: string): Promise<void> {
      const change: Drop = { t: 'drop', item };
      engine.apply(change);
      await engine.record(change);
    },
  };
}

const dirs: string[] = [];
const engines: JournalEngine<ToyFiles>[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.abandon();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'yield-journal-engine-'));
  dirs.push(dir);
  return dir;
}

async function openToy(dir: string) {
  const store = new DataStore(dir, toyFiles, memoryLogger());
  const engine = new JournalEngine(store, {
    name: 'toy',
    label: 'toy data',
    logger: memoryLogger(),
  });
  engines.push(engine);
  const toy = toyAggregate(engine);
  await engine.open({ owner: true });
  await store.loadAll();
  return { store, engine, toy };
}

const lines = async (file: string) =>
  (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '');

describe('journal engine with a toy aggregate', () => {
  it('checks registrations: a type declared twice, the reserved marker, a type applied but never declared', async () => {
    const store = new DataStore(await freshDir(), toyFiles, memoryLogger());
    const engine = new JournalEngine(store, { name: 'toy', label: 'toy', logger: memoryLogger() });
    engine.declare(toyRecords);
    expect(() => engine.declare({ put: toyRecords.put })).toThrow(/put declared twice/);
    expect(() => engine.declare({ compacted: z.object({ t: z.literal('compacted') }) })).toThrow(
      /compacted declared twice/,
    );
    const reducer = {
      key: 'tally' as const,
      types: ['put', 'sweep'],
      apply: () => undefined,
      rebuild: () => undefined,
      freeze: (d: Tally) => ({ ...d }),
    };
    engine.register(reducer);
    expect(() => engine.register(reducer)).toThrow(/tally: reducer registered twice/);
    await expect(engine.open({ owner: true })).rejects.toThrow(/sweep applied but not declared/);
  });

  it('writes ONE journal line for a change of two files, and compaction folds it into both (0600)', async () => {
    const dir = await freshDir();
    const { store, engine, toy } = await openToy(dir);
    await toy.put('apple');
    expect(store.get('shelf')).toEqual({ items: ['apple'] });
    expect(store.get('tally')).toEqual({ count: 1 });
    expect(await lines(path.join(dir, 'toy.log'))).toEqual([
      JSON.stringify({ t: 'put', item: 'apple' }),
    ]);
    // A change of one file dirties that file only.
    await engine.compact();
    await toy.drop('apple');
    await engine.compact();
    expect(JSON.parse(await readFile(path.join(dir, 'shelf.json'), 'utf8'))).toEqual({ items: [] });
    expect(JSON.parse(await readFile(path.join(dir, 'tally.json'), 'utf8'))).toEqual({ count: 1 });
    expect((await readdir(dir)).filter((f) => f.startsWith('toy.'))).toEqual([]);
    for (const f of ['shelf.json', 'tally.json'])
      expect((await stat(path.join(dir, f))).mode & 0o777).toBe(0o600);
  });

  it('replays a sealed segment after a crash only onto the files its marker does not match', async () => {
    const dir = await freshDir();
    // A crash during compaction: tally.json was written (it matches the marker), shelf.json not
    // yet; the sealed segment is still there, and a later change is in the active journal.
    const shelf = jsonFileText({ items: [] });
    const tally = jsonFileText({ count: 2 });
    await writeFile(path.join(dir, 'shelf.json'), shelf);
    await writeFile(path.join(dir, 'tally.json'), tally);
    const put = (item: string) => JSON.stringify({ t: 'put', item });
    const marker = JSON.stringify({
      t: 'compacted',
      files: { 'shelf.json': sha256('{"items":["a","b"]}\n'), 'tally.json': sha256(tally) },
    });
    await writeFile(path.join(dir, 'toy.sealed-1.log'), `${put('a')}\n${put('b')}\n${marker}\n`);
    // An unknown record type and a torn last line are skipped.
    await writeFile(path.join(dir, 'toy.log'), `${put('c')}\n{"t":"mystery"}\n{"t":"put","it`);

    const { store, engine, toy } = await openToy(dir);
    // shelf.json did not match: a, b replayed, then c. tally.json matched: only c counted.
    expect(store.get('shelf')).toEqual({ items: ['a', 'b', 'c'] });
    expect(store.get('tally')).toEqual({ count: 3 });
    // The torn line was cut off: the next line starts on a line of its own.
    await toy.put('d');
    expect(await lines(path.join(dir, 'toy.log'))).toEqual([put('c'), '{"t":"mystery"}', put('d')]);
    await engine.close();
    expect(JSON.parse(await readFile(path.join(dir, 'shelf.json'), 'utf8'))).toEqual({
      items: ['a', 'b', 'c', 'd'],
    });
    expect(JSON.parse(await readFile(path.join(dir, 'tally.json'), 'utf8'))).toEqual({ count: 4 });
    expect((await readdir(dir)).filter((f) => f.startsWith('toy.'))).toEqual([]);
  });

  it('names no aggregate, file or record type of the user data in its code', async () => {
    const source = await readFile(
      path.join(import.meta.dirname, '../src/platform/files/journal-engine.ts'),
      'utf8',
    );
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(imports.filter((i) => /schemas|files\.ts|premium|alerts|mailing/.test(i!))).toEqual([]);
    // Code only (comments may explain by example).
    const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    expect(code).not.toMatch(
      /mailingList|invites|users|alerts|subscriber|redeem|inviteDisable|alertRequest|mailingRequest|purge|\.json|switch\s*\(/,
    );
  });
});
