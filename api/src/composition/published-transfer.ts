/**
 * Moving the yield files of a data directory into the published data and back
 * (db:import-files, db:export-files; docs/deploy.md "Moving a file-store site to PostgreSQL").
 *
 * Import: each of the published files of the directory is checked as data:publish checks a hand
 * edit (JSON, then the file's schema). A file never published is published as version 1; one
 * whose published body is the same is left as it is (a rerun publishes nothing); one whose
 * published body differs is the fleet's newer data: refused unless the operator asks to replace
 * it (`replace`), then published as the next version, compare-and-swap on the version read.
 * Export: the published bodies are written as the directory's files.
 */
import path from 'node:path';
import { dataFiles, openStore, type DataFiles } from './data-files.ts';
import { PUBLISHED_KEYS, readText } from './published-data.ts';
import { writeFileDurably } from '../platform/files/durable.ts';
import { jsonFileText, sha256 } from '../platform/files/json-text.ts';
import type { FileSpec } from '../platform/files/data-store.ts';
import { silentLogger } from '../platform/logger.ts';
import type {
  DocumentChange,
  PgPublishedDocuments,
  PublishedDocument,
} from '../platform/pg/published-documents.ts';

/** What an import of the directory's yield files would publish, checked before anything is. */
export interface PublishedFilesPlan {
  /** The changes to publish, each on the version read. */
  changes: DocumentChange[];
  /** One line per file, by name. */
  lines: Map<string, string>;
  /** Files refused as invalid. */
  invalid: string[];
  /** Files whose published body differs, not replaced (without `replace`). */
  differ: string[];
}

/**
 * The body a directory holds for `key`: its file; without it, the empty body of a runtime file
 * where nothing is published yet (as a server's first start publishes it), else null.
 */
async function bodyOf(
  dataDir: string,
  key: keyof DataFiles,
  published: boolean,
): Promise<string | null> {
  const spec = dataFiles[key] as FileSpec<unknown>;
  const text = await readText(path.join(dataDir, spec.file));
  if (text !== null || published) return text;
  return spec.empty ? jsonFileText(spec.empty()) : null;
}

function describeDiffer(name: string, doc: PublishedDocument, replace: boolean): string {
  const by = `v${doc.version}, published ${doc.publishedAt}`;
  return replace
    ? `${name}: published v${doc.version} → v${doc.version + 1} (replaces the fleet's ${by})`
    : `${name}: refused: the fleet's ${by}, differs from the file (--replace-published replaces it)`;
}

/** Checks the directory's yield files against the published data; publishes nothing. */
export async function planPublishedFiles(
  docs: PgPublishedDocuments,
  dataDir: string,
  replace: boolean,
): Promise<PublishedFilesPlan> {
  const store = openStore(dataDir, silentLogger);
  const published = new Map((await docs.read()).map((d) => [d.name, d]));
  const plan: PublishedFilesPlan = { changes: [], lines: new Map(), invalid: [], differ: [] };
  for (const key of PUBLISHED_KEYS) {
    const name = dataFiles[key].file;
    const doc = published.get(name);
    const body = await bodyOf(dataDir, key, doc !== undefined);
    if (body === null) {
      const state = doc ? `left as published (v${doc.version})` : 'not published';
      plan.lines.set(name, `${name}: not in the directory, ${state}`);
      continue;
    }
    const checked = store.validateText(key, body);
    if (!checked.ok) {
      plan.lines.set(name, `${name}: refused: ${checked.error}`);
      plan.invalid.push(name);
    } else if (!doc) {
      plan.lines.set(name, `${name}: published v1`);
      plan.changes.push({ name, body, basedOn: 0 });
    } else if (doc.sha256 === sha256(body)) {
      plan.lines.set(name, `${name}: unchanged (v${doc.version})`);
    } else {
      plan.lines.set(name, describeDiffer(name, doc, replace));
      if (replace) plan.changes.push({ name, body, basedOn: doc.version });
      else plan.differ.push(name);
    }
  }
  return plan;
}

/** Writes every published yield file into the directory; returns one line per file. */
export async function exportPublishedFiles(
  docs: PgPublishedDocuments,
  dataDir: string,
): Promise<string[]> {
  const names = new Set(PUBLISHED_KEYS.map((k) => dataFiles[k].file));
  const found = (await docs.read()).filter((d) => names.has(d.name));
  const lines: string[] = [];
  for (const d of found.sort((a, b) => a.name.localeCompare(b.name))) {
    await writeFileDurably(path.join(dataDir, d.name), d.body);
    lines.push(`${d.name}: v${d.version}`);
  }
  return lines;
}
