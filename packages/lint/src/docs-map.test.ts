/**
 * docs/architecture.md (the map of the system) and docs/decisions.md (the decisions taken where
 * the spec is silent): every decision is in decisions.md, numbered and dated; the map keeps its
 * data-flow picture and glossary; and every reference of the form `docs/decisions.md, "Title"`
 * (or architecture.md) anywhere in the repository names a section that exists.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const exists = (file: string) => fs.existsSync(path.join(ROOT, file));

/** The decisions, in their order, as the site's docs have recorded them. */
const DECISIONS = [
  'Saver tools',
  'Compare',
  'Your weights',
  'Incidents on history charts',
  'Alerts',
  'Remote loading',
  'One federation runtime',
  'Resource hints',
  'First paint from the server',
  "First paint with the page's data",
  'Retry',
  'antd is not shared',
  'The comparison on a phone',
  'Who owns `/`',
  'Pages at run time',
  "A page's title",
  'pages.json is checked by hand-written code',
  'Home page meta',
  'Yield Scanner in the header',
  'Logo text',
  'Real 404s',
  'Short names that stay distinct',
  'Negative risk-adjusted figures',
  'Waiting on the API',
  'Holder count',
  'Not-found logging',
  'User data writes',
  'Several processes: PostgreSQL behind the same interface',
  'Token state',
  'One date format for data dates',
  'Where the figures come from, on the site',
  'Stale rows',
  'Warnings detected from data',
  'No live data',
  'Rankings as of a past day',
  'The track record',
  'Pool histories: one append-only file per pool',
  'The pool-history backfill under load from anyone',
  "A chain fails its own feeds; a refused method is the client's error",
  'Sign-in links: one use, capped in the store, one answer',
  'Past days computed off the event loop, once per data version, limited per client',
  'Published data: the yield files as versioned documents in PostgreSQL',
  "Pool histories, the backfill's memory and budget in PostgreSQL",
  'E-mails wait in a table every process drains',
  'Alerts on live data only, once per crossing for the fleet',
  "Moving a file-store site publishes its yield files, and never over the fleet's unasked",
  'Functions a reviewer can hold in mind',
  "A pool's page through a database outage: the rows read last",
  "The API's modules: narrow dependencies, one entry each",
  'Error codes are part of the contract',
  'Remotes ship as immutable releases, checked before the switch',
  'Serving releases per visitor',
  "Open tabs follow a remote's new release",
  'Browser error reports of the remotes',
  'Deposit and withdrawal costs from the chain, and the net yield',
  "The pools' forecast in one unit, and a baseline it must not lose to",
  "The comparison ranked by net APR for the saver's amount",
];

/** Folders of built files a local run writes into the data directory (releases of the remotes). */
const BUILT_FOLDERS = new Set(['api/data/releases']);

/** The repository's docs and sources (no dependencies, builds or dot folders), relative paths. */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      return entry.name.startsWith('.') ||
        ['node_modules', 'dist', 'test-results'].includes(entry.name) ||
        BUILT_FOLDERS.has(file)
        ? []
        : sourceFiles(file);
    }
    return /\.(md|ts|tsx|mjs|js)$/.test(entry.name) ? [file] : [];
  });
}

/** Text with its line breaks (and comment markers at line starts) folded into single spaces. */
const folded = (text: string) => text.replace(/\s*\n\s*(?:\/\/|\*(?!\*))?\s*/g, ' ');

/** Titles a Markdown file can be cited by: its headings (without a "N. " number) and bold leads. */
function sectionTitles(markdown: string): string[] {
  const headings = [...markdown.matchAll(/^#+\s+(?:\d+\.\s+)?(.+)$/gm)].map((m) => m[1]!.trim());
  const bold = [...markdown.matchAll(/^\s*-\s+\*\*(.+?)\*\*/gm)].map((m) => m[1]!);
  return [...headings, ...bold];
}

describe('docs/decisions.md', () => {
  it('holds every decision, numbered in order, dated, and listed in its index', () => {
    expect(exists('docs/decisions.md')).toBe(true);
    const text = read('docs/decisions.md');
    const entries = [
      ...text.matchAll(
        /^## (\d+)\. (.+)\n\n_Recorded (\d{4}-\d{2}-\d{2})\._\n\n([\s\S]*?)(?=^## |$(?![\s\S]))/gm,
      ),
    ];
    expect(entries.map((m) => m[2])).toEqual(DECISIONS);
    expect(entries.map((m) => Number(m[1]))).toEqual(DECISIONS.map((_, i) => i + 1));
    for (const m of entries) {
      expect(Number.isNaN(Date.parse(m[3]!)), m[2]).toBe(false);
      // Each entry keeps its full text: its bold lead and at least a paragraph after it.
      expect(m[4], m[2]).toContain(`**${m[2]}**`);
      expect(m[4]!.trim().length, m[2]).toBeGreaterThan(80);
    }
    const index = text.slice(text.indexOf('## Index'), text.indexOf('## 1. '));
    expect([...index.matchAll(/^(\d+)\. (.+)$/gm)].map((m) => m[2])).toEqual(DECISIONS);
  });
});

describe('docs/architecture.md', () => {
  const text = read('docs/architecture.md');

  it('is a map: the parts, one Mermaid flowchart, the request paths, a glossary, and a link to the decisions', () => {
    for (const heading of [
      '## The parts and what each owns',
      '## How the data flows',
      '## The path of a request',
      '## Glossary',
      '## Conventions every app follows',
    ]) {
      expect(text).toContain(`\n${heading}\n`);
    }
    const diagrams = [...text.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(diagrams).toHaveLength(1);
    expect(diagrams[0]).toMatch(/^flowchart (LR|TD|TB|RL|BT)\n/);
    expect(text).toContain('](decisions.md)');
    // No decision is left behind in the map.
    expect(text).not.toContain('## Decisions taken where the spec is silent');
  });

  it('defines every word of its glossary', () => {
    const glossary = text.slice(text.indexOf('## Glossary'), text.indexOf('## Conventions'));
    const terms = [...glossary.matchAll(/^- \*\*(.+?)\*\*/gm)].map((m) => m[1]);
    for (const term of [
      'source',
      'series',
      'feed',
      'pool',
      'base rate / DeFi Base Rate',
      'strategy page',
      'option',
      'remote',
      'snapshot',
      'journal',
      'ra30-v1',
      'rapool-v1',
      'rapool-v2',
      'rapool-v3',
      'GREAT',
      'incident',
      'detected warning',
      'provenance',
    ]) {
      expect(terms).toContain(term);
    }
  });

  it('names only paths that exist', () => {
    const map = text.slice(0, text.indexOf('## Conventions every app follows'));
    const cited = [...map.matchAll(/`((?:api|shell|packages|mfe-[a-z]+|e2e|bench)\/[\w./-]+)`/g)];
    const missing = cited.map((m) => m[1]!).filter((p) => !exists(p.replace(/\/$/, '')));
    expect(missing).toEqual([]);
  });
});

describe('references to sections of the docs', () => {
  // This file spells the pattern out in its own comments.
  const files = sourceFiles('').filter((f) => !f.endsWith('docs-map.test.ts'));

  it('every `decisions.md, "Title"` and `architecture.md, "Title"` names a section that exists', () => {
    const decisions = sectionTitles(read('docs/decisions.md'));
    const architecture = sectionTitles(read('docs/architecture.md'));
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      const text = folded(read(file));
      for (const m of text.matchAll(/\b(architecture|decisions)\.md\)?,? "([^"]+)"/g)) {
        const [, doc, title] = m;
        checked += 1;
        // The map says that titles cited under architecture.md before the move are decisions.
        const titles = doc === 'decisions' ? decisions : [...architecture, ...decisions];
        if (!titles.some((t) => t === title || t.startsWith(`${title} `))) {
          broken.push(`${file}: ${doc}.md, "${title}"`);
        }
      }
    }
    expect(broken).toEqual([]);
    // The references the docs and the code carry today: the check is not vacuous.
    expect(checked).toBeGreaterThanOrEqual(9);
  });
});

/** The folders whose sources' comments are checked, and the lint configuration. */
const CODE_ROOTS = ['api', 'packages', 'shell', 'e2e', 'bench', 'scripts'];
const CODE_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
/** What a path in a comment ends with to be taken for one: a file's extension, or a `/`. */
const PATH_IN_TEXT =
  /(?<![\w@:/.$<{*-])((?:\.{1,2}\/)*[A-Za-z_][\w.-]*(?:\/[\w.-]+)*\/(?:[\w-][\w.-]*\.(?:ts|tsx|js|mjs|cjs|json|md|css|sql|html|ya?ml|sh)\b|(?=[\s`'",;)]|$)))(?![\w/*{<-])/g;

/** The comments of a source file (`//` lines and `/* … *\/` blocks), in order. */
export function commentsOf(source: string): string[] {
  const comments: string[] = [];
  for (const m of source.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\\\w])\/\/[^\n]*/g))
    comments.push(m[0]);
  return comments;
}

/** The paths a text names (`dir/file.ts`, `dir/`), as written. */
export function pathsIn(text: string): string[] {
  return [...text.matchAll(PATH_IN_TEXT)].map((m) => m[1]!.replace(/\.$/, ''));
}

/**
 * Names that are not the repository's files: the builds' outputs, the data directory's files and
 * folders (DATA_DIR, the import's saved answers, the served folders), and placeholders.
 */
const NOT_IN_REPOSITORY = [
  /(^|\/)dist\//,
  /^DATA_DIR\//,
  /^saved\//,
  /^(published|pool-history|server|static)\//,
  /^path\/to\//,
];

/** Every package of the workspace (a folder with a package.json), relative to ROOT. */
const PACKAGES = ['api', 'shell', 'e2e', 'bench']
  .concat(fs.readdirSync(ROOT).filter((d) => d.startsWith('mfe-')))
  .concat(fs.readdirSync(path.join(ROOT, 'packages')).map((d) => `packages/${d}`))
  .filter((d) => exists(`${d}/package.json`));

/** The folder of the package a file belongs to (its nearest package.json), relative to ROOT. */
function packageOf(file: string): string {
  let dir = path.dirname(file);
  while (dir !== '.' && !exists(`${dir}/package.json`)) dir = path.dirname(dir);
  return dir;
}

/**
 * Whether a path named in `file` names a file or folder: from the repository's root, the file's
 * own folder, its package's folder or its package's `src/`. A folder (`engine/`) or a path in
 * `src/` may also be any package's: the prose names the same folder in every app.
 */
export function resolves(named: string, file: string, has: (p: string) => boolean = exists) {
  if (NOT_IN_REPOSITORY.some((pattern) => pattern.test(named))) return true;
  const pkg = packageOf(file);
  const bases = ['.', path.dirname(file), pkg, `${pkg}/src`];
  if (named.endsWith('/') || named.startsWith('src/'))
    bases.push(...PACKAGES.flatMap((p) => [p, `${p}/src`]));
  return bases.some((base) => has(path.normalize(path.join(base, named)).replace(/\/$/, '')));
}

describe('paths named in code comments and in eslint.config.js', () => {
  const codeFiles = CODE_ROOTS.filter(exists)
    .flatMap((dir) => sourceFiles(dir))
    .concat(
      fs
        .readdirSync(ROOT)
        .filter((d) => d.startsWith('mfe-'))
        .flatMap((d) => sourceFiles(d)),
    )
    .filter((f) => CODE_FILE.test(f));

  it('finds paths in comments and resolves them from the root, the folder and the package', () => {
    const comments = commentsOf(
      "const url = 'https://example.com/a/b.js'; // see ports/confirmations.ts and pg/\n" +
        "/* From api/src/deps.ts, not '@yield/contract/constants', node:fs/promises or /api/docs/x.js */",
    );
    expect(comments.flatMap(pathsIn)).toEqual(['ports/confirmations.ts', 'pg/', 'api/src/deps.ts']);
    const has = (p: string) => ['api/src/platform/http/errors.ts', 'api/package.json'].includes(p);
    expect(resolves('api/src/platform/http/errors.ts', 'x/y.ts', has)).toBe(true);
    expect(resolves('http/errors.ts', 'api/src/platform/z.ts', has)).toBe(true);
    expect(resolves('platform/http/errors.ts', 'api/src/modules/a/b.ts', has)).toBe(true);
    expect(resolves('platform/http/bearer.ts', 'api/src/modules/premium/routes.ts', has)).toBe(
      false,
    );
  });

  it('a comment naming a missing file fails the check', () => {
    const sample = '/** Reads the confirmations (ports/confirmations.ts, pg/pg-user-data.ts). */';
    const missing = commentsOf(sample)
      .flatMap(pathsIn)
      .filter((p) => !resolves(p, 'api/src/composition/user-data.ts'));
    expect(missing).toEqual(['ports/confirmations.ts', 'pg/pg-user-data.ts']);
  });

  it('every path named in a comment of the sources names a file or folder', () => {
    const broken: string[] = [];
    let checked = 0;
    // This file spells paths out in its own comments and samples.
    for (const file of codeFiles.filter((f) => !f.endsWith('docs-map.test.ts'))) {
      for (const named of commentsOf(read(file)).flatMap(pathsIn)) {
        checked += 1;
        if (!resolves(named, file)) broken.push(`${file}: ${named}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('every path eslint.config.js names (comments and rules alike) exists', () => {
    const named = pathsIn(read('eslint.config.js')).filter((p) => !p.includes('*'));
    const broken = named.filter((p) => !resolves(p, 'eslint.config.js'));
    expect(broken).toEqual([]);
    expect(named.length).toBeGreaterThan(5);
  });
});
