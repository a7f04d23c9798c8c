/**
 * Operator commands of the published data (DATABASE_URL, docs/api.md "Published data"):
 *
 *   pnpm --filter @yield/api data:pull -- --dir DIR      # writes the published files into DIR
 *   pnpm --filter @yield/api data:publish -- --dir DIR   # publishes the files of DIR edited since
 *
 * pull writes each published document as its file and `.published.json`, the versions pulled.
 * publish checks every file of DIR with the checks of a hand edit (JSON, then the file's schema),
 * and publishes the ones that changed since the pull, all in one transaction on the versions
 * pulled: an invalid file, or a file whose published version moved since the pull, refuses the
 * whole publish (nothing published, exit code 1).
 */
import { mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { dataFiles, openStore, type DataFiles } from '../src/composition/data-files.ts';
import { PUBLISHED_KEYS } from '../src/composition/published-data.ts';
import { writeFileDurably } from '../src/platform/files/durable.ts';
import { jsonFileText, sha256 } from '../src/platform/files/json-text.ts';
import { loadConfig } from '../src/platform/config.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { PgConnection } from '../src/platform/pg/connection.ts';
import {
  PgPublishedDocuments,
  PublishConflictError,
  type DocumentChange,
} from '../src/platform/pg/published-documents.ts';
import { UserDataUnavailableError } from '../src/platform/store-health.ts';
import { runAsCommand, type CliResult } from './cli.ts';

export const MANIFEST = '.published.json';

const USAGE = `Usage: data-published.ts pull | publish --dir DIR [--database-url URL]

  pull      write every published data file into DIR, and DIR/${MANIFEST} (the versions pulled)
  publish   check every file of DIR as a hand edit is checked and publish those changed since the
            pull, all or nothing: an invalid file, or one published again since the pull, refuses
            the whole publish
  --dir           the directory of the pulled files
  --database-url  PostgreSQL URL (default: $DATABASE_URL)`;

interface Manifest {
  pulledAt: string;
  documents: Record<string, { version: number; sha256: string }>;
}

const fileOf = (key: keyof DataFiles) => dataFiles[key].file;

export async function runDataPublished(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<CliResult> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.filter((a) => a !== '--'),
      allowPositionals: true,
      options: {
        dir: { type: 'string' },
        'database-url': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return { exitCode: 2, output: `${(err as Error).message}\n\n${USAGE}` };
  }
  const { values, positionals } = parsed;
  if (values.help) return { exitCode: 0, output: USAGE };
  const command = positionals[0];
  if (command !== 'pull' && command !== 'publish') return { exitCode: 2, output: USAGE };
  if (!values.dir) return { exitCode: 2, output: `Name the directory: --dir DIR.\n\n${USAGE}` };
  let url: string | undefined;
  try {
    url = values['database-url'] ?? loadConfig(env, ['db']).DATABASE_URL;
  } catch (err) {
    return { exitCode: 2, output: (err as Error).message };
  }
  if (!url) {
    return {
      exitCode: 2,
      output: `The published data lives in PostgreSQL: set DATABASE_URL (or --database-url).\n\n${USAGE}`,
    };
  }
  const db = new PgConnection({ connectionString: url, logger: silentLogger, poolMax: 1 });
  const docs = new PgPublishedDocuments(db);
  const dir = path.resolve(values.dir);
  try {
    return command === 'pull' ? await pull(docs, dir) : await publish(docs, dir);
  } catch (err) {
    const message =
      err instanceof UserDataUnavailableError
        ? `The database cannot be reached: ${err.message}. Nothing was changed.`
        : (err as Error).message;
    return { exitCode: 1, output: message };
  } finally {
    await db.close();
  }
}

async function pull(docs: PgPublishedDocuments, dir: string): Promise<CliResult> {
  const names = new Set(PUBLISHED_KEYS.map(fileOf));
  const found = (await docs.read()).filter((d) => names.has(d.name));
  if (found.length === 0) {
    return {
      exitCode: 1,
      output: 'Nothing is published yet: start an API server with DATABASE_URL first.',
    };
  }
  await mkdir(dir, { recursive: true });
  const manifest: Manifest = { pulledAt: new Date().toISOString(), documents: {} };
  const lines: string[] = [];
  for (const d of found.sort((a, b) => a.name.localeCompare(b.name))) {
    await writeFileDurably(path.join(dir, d.name), d.body);
    manifest.documents[d.name] = { version: d.version, sha256: d.sha256 };
    lines.push(`${d.name}: v${d.version}`);
  }
  await writeFileDurably(path.join(dir, MANIFEST), jsonFileText(manifest));
  lines.push(`Pulled into ${dir}. Edit the files, then: data:publish -- --dir ${dir}`);
  return { exitCode: 0, output: lines.join('\n') };
}

async function readManifest(dir: string): Promise<Manifest | null> {
  try {
    const m = JSON.parse(await readFile(path.join(dir, MANIFEST), 'utf8')) as Manifest;
    return m && typeof m.documents === 'object' ? m : null;
  } catch {
    return null;
  }
}

/** Each file of the pull: unchanged, a change to publish, or refused with its reason. */
async function changesIn(dir: string, manifest: Manifest) {
  const store = openStore(dir, silentLogger);
  const changes: DocumentChange[] = [];
  const lines = new Map<string, string>();
  const refused: string[] = [];
  for (const key of PUBLISHED_KEYS) {
    const name = fileOf(key);
    const pulled = manifest.documents[name];
    if (!pulled) continue;
    const body = await readFile(path.join(dir, name), 'utf8').catch(() => null);
    if (body === null) {
      lines.set(name, `${name}: refused: the file is missing`);
      refused.push(name);
    } else if (sha256(body) === pulled.sha256) {
      lines.set(name, `${name}: unchanged (v${pulled.version})`);
    } else {
      const checked = store.validateText(key, body);
      if (checked.ok) changes.push({ name, body, basedOn: pulled.version });
      else {
        lines.set(name, `${name}: refused: ${checked.error}`);
        refused.push(name);
      }
    }
  }
  return { changes, lines, refused };
}

async function publish(docs: PgPublishedDocuments, dir: string): Promise<CliResult> {
  const manifest = await readManifest(dir);
  if (!manifest) {
    return {
      exitCode: 2,
      output: `${path.join(dir, MANIFEST)} not found or unreadable: pull first (data:pull -- --dir ${dir}).`,
    };
  }
  const { changes, lines, refused } = await changesIn(dir, manifest);
  const report = () => [...lines.values()].sort().join('\n');
  if (refused.length > 0) {
    return { exitCode: 1, output: `${report()}\nNothing published: fix ${refused.join(', ')}.` };
  }
  if (changes.length === 0) return { exitCode: 0, output: `${report()}\nNothing to publish.` };
  let versions: Map<string, number>;
  try {
    versions = await docs.publish(changes, `data:publish@${os.hostname()}`);
  } catch (err) {
    if (!(err instanceof PublishConflictError)) throw err;
    for (const c of err.conflicts) {
      lines.set(
        c.name,
        `${c.name}: refused: published again since the pull (v${c.basedOn} pulled, v${c.current} now)`,
      );
    }
    return {
      exitCode: 1,
      output: `${report()}\nNothing published: pull again (data:pull) and redo the edits on the newer versions.`,
    };
  }
  for (const c of changes) {
    const version = versions.get(c.name)!;
    lines.set(c.name, `${c.name}: published v${c.basedOn} → v${version}`);
    manifest.documents[c.name] = { version, sha256: sha256(c.body) };
  }
  await writeFileDurably(path.join(dir, MANIFEST), jsonFileText(manifest));
  return { exitCode: 0, output: `${report()}\nPublished: every server serves it within seconds.` };
}

runAsCommand(import.meta.url, (argv) => runDataPublished(argv));
