/**
 * No import cycles in the API's source (`import-x/no-cycle` in eslint.config.js): the modules of
 * api/src, run through ESLint with the repository's own configuration, once as they are and once
 * with an import added that closes a cycle through modules on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: ROOT });

/** The messages of `file` (a module of the repository) with `lines` added at its top. */
async function lintWithImport(file: string, lines: string[]): Promise<Linter.LintMessage[]> {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const [result] = await eslint.lintText(`${lines.join('\n')}\n${text}`, {
    filePath: path.join(ROOT, file),
  });
  return result!.messages;
}

const cycles = (messages: Linter.LintMessage[]) =>
  messages.filter((m) => m.ruleId === 'import-x/no-cycle').map((m) => m.line);

describe('import cycles in api/src', () => {
  it('there are none', async () => {
    const results = await eslint.lintFiles(['api/src/**/*.ts']);
    const found = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'import-x/no-cycle')
        .map((m) => `${path.relative(ROOT, r.filePath)}:${m.line}`),
    );
    expect(found).toEqual([]);
  });

  it('an import back to a module that imports this one is an error', async () => {
    // The alerts' file store imports the confirmations' file records.
    const messages = await lintWithImport('api/src/modules/confirmations/file-records.ts', [
      `import { FileAlerts } from '../alerts/file-store.ts';`,
      `export const sample = FileAlerts;`,
    ]);
    expect(cycles(messages)).toEqual([1]);
  });

  it('so is a cycle through several modules and layers', async () => {
    // deps.ts reaches the HTTP errors through the routes, the stores and the configuration.
    const messages = await lintWithImport('api/src/platform/http/errors.ts', [
      `import { createDeps } from '../../composition/deps.ts';`,
      `export const sample = createDeps;`,
    ]);
    expect(cycles(messages)).toEqual([1]);
  });

  it('and a cycle through a re-export', async () => {
    // config.ts imports and re-exports paths.ts.
    const messages = await lintWithImport('api/src/platform/paths.ts', [
      `export { loadConfig } from './config.ts';`,
    ]);
    expect(cycles(messages)).toEqual([1]);
  });
});

/**
 * `import-x/no-cycle` skips type-only imports. These are erased when compiled, but a cycle through
 * them still ties two modules together, so the module graph of api/src, type imports included,
 * must be acyclic too: its relative imports, read with TypeScript's own pre-processor.
 */
function apiModuleGraph(extra: Record<string, string> = {}): Map<string, string[]> {
  const dir = path.join(ROOT, 'api/src');
  const files = fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const rel = path.relative(ROOT, file);
    const text = `${extra[rel] ?? ''}\n${fs.readFileSync(file, 'utf8')}`;
    const imports = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((i) => i.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => path.relative(ROOT, path.resolve(path.dirname(file), name)));
    graph.set(rel, imports);
  }
  return graph;
}

/** One cycle of `graph` per strongly connected part, as the modules on it; none when acyclic. */
function typeCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') cycles.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('import cycles in api/src, type imports included', () => {
  it('there are none', () => {
    expect(typeCycles(apiModuleGraph())).toEqual([]);
  });

  it('a type-only import back is one', () => {
    // The alerts' file store imports the confirmations' file records.
    const cycles = typeCycles(
      apiModuleGraph({
        'api/src/modules/confirmations/file-records.ts': `import type { FileAlerts } from '../alerts/file-store.ts';`,
      }),
    );
    expect(cycles).toEqual([
      expect.arrayContaining([
        'api/src/modules/confirmations/file-records.ts',
        'api/src/modules/alerts/file-store.ts',
      ]),
    ]);
  });
});

/**
 * The modules of api/src/modules side by side: the graph of which module imports which (any file
 * of one importing any file of another, type imports included), drawn from the code, has no
 * cycle, so each module can be read with only the ones below it in mind.
 */
function moduleGraph(extra: Record<string, string> = {}): Map<string, string[]> {
  const moduleOf = (file: string) => /^api\/src\/modules\/([^/]+)\//.exec(file)?.[1];
  const graph = new Map<string, string[]>();
  for (const [file, imports] of apiModuleGraph(extra)) {
    const from = moduleOf(file);
    if (!from) continue;
    const edges = graph.get(from) ?? [];
    for (const to of imports.map(moduleOf))
      if (to && to !== from && !edges.includes(to)) edges.push(to);
    graph.set(from, edges);
  }
  return graph;
}

describe('the module graph of api/src/modules', () => {
  it('is drawn from the code: the premium module reads the yields module', () => {
    expect(moduleGraph().get('premium')).toContain('yields');
  });

  it('has no cycle', () => {
    expect(typeCycles(moduleGraph())).toEqual([]);
  });

  it('is the one docs/architecture.md shows', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const rows = [...doc.matchAll(/^ {2}\| `([a-z-]+)` +\| (.+?) +\|$/gm)];
    const shown = new Map(
      rows.map(([, name, imports]) => [
        name!,
        [...imports!.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!).sort(),
      ]),
    );
    const drawn = new Map([...moduleGraph()].map(([name, deps]) => [name, [...deps].sort()]));
    expect(shown).toEqual(drawn);
  });

  it('an import back between two modules is a cycle, through their index files too', () => {
    // The premium module reads the yields module (the snapshot's series).
    const cycles = typeCycles(
      moduleGraph({
        'api/src/modules/yields/schemas.ts': `import type { PremiumStore } from '../premium/index.ts';`,
      }),
    );
    expect(cycles).toContainEqual(expect.arrayContaining(['yields', 'premium']));
  });
});
