/**
 * Functions a reviewer can hold in mind (eslint.config.js, `local/max-logic-lines` and
 * `max-lines-per-function`; docs/decisions.md, "Functions a reviewer can hold in mind"): in the
 * source of the API, the packages, the shell and the remotes, a function over 80 lines of logic or
 * 200 lines in all is refused, while lines that are only data literals, JSX or template markup do
 * not count as logic. Sample code is linted as if it were placed in each folder; then the whole
 * source is linted with these two rules.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const RULES = new Set(['local/max-logic-lines', 'max-lines-per-function']);
const eslint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => RULES.has(ruleId) });

/** The messages of the two rules on `code` placed at `file`, as `rule: message`. */
async function lengthErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

/** `n` lines of logic, one statement each. */
const statements = (n: number) =>
  Array.from({ length: n }, (_, i) => `  total += values[${i % 3}] * ${i};`).join('\n');

/** A function of `n` lines of logic in all: its head, `n - 3` statements, return and brace. */
const logicFunction = (n: number) =>
  `export function sample(values: number[]): number {\n  let total = 0;\n${statements(n - 4)}\n  return total;\n}\n`;

/** A component of `n` paragraphs of prose markup. */
const prosePage = (n: number) => {
  const paragraphs = Array.from(
    { length: n },
    (_, i) =>
      `      <p>\n        Paragraph ${i} of prose, <strong>long</strong> enough.\n      </p>`,
  );
  return `export default function Sample() {\n  return (\n    <main>\n${paragraphs.join('\n')}\n    </main>\n  );\n}\n`;
};

/** A function returning a table of `n` rows of data. */
const dataTable = (n: number) => {
  const rows = Array.from({ length: n }, (_, i) => `    { id: 'row-${i}', weight: ${i / 10} },`);
  return `export function rows() {\n  return [\n${rows.join('\n')}\n  ];\n}\n`;
};

const FOLDERS = [
  'api/src/modules/alerts/sample.ts',
  'api/src/engine/sample.ts',
  'packages/platform/src/sample.ts',
  'shell/src/app/sample.ts',
  'mfe-content/src/features/sample.ts',
  'mfe-leaderboard/src/pages/sample.ts',
];

describe('function length', () => {
  it.each(FOLDERS)('%s: 81 lines of logic are refused, 80 allowed', async (file) => {
    const errors = await lengthErrors(file, logicFunction(81));
    expect(errors).toEqual([
      'local/max-logic-lines: sample has 81 lines of logic (max 80): split it into named steps a reader follows top-down.',
    ]);
    expect(await lengthErrors(file, logicFunction(80))).toEqual([]);
  });

  it('logic in a nested callback counts toward the function around it', async () => {
    const inner = `  values.forEach((value) => {\n${statements(60).replaceAll('values[', 'value + values[')}\n  });`;
    const code = `export function sample(values: number[]): number {\n  let total = 0;\n${inner}\n${statements(30)}\n  return total;\n}\n`;
    const errors = await lengthErrors('api/src/engine/sample.ts', code);
    expect(errors).toEqual([expect.stringMatching(/^local\/max-logic-lines: sample has 96 lines/)]);
  });

  it('a long page of JSX markup is allowed up to 200 lines in all', async () => {
    expect(await lengthErrors('mfe-content/src/pages/Sample.tsx', prosePage(60))).toEqual([]);
    expect(await lengthErrors('mfe-content/src/pages/Sample.tsx', prosePage(70))).toEqual([
      "max-lines-per-function: Function 'Sample' has too many lines (216). Maximum allowed is 200.",
    ]);
  });

  it('a long data literal or template markup is not logic', async () => {
    expect(await lengthErrors('api/src/engine/sample.ts', dataTable(190))).toEqual([]);
    const html = Array.from({ length: 150 }, (_, i) => `<li>\${items[${i % 2}]}</li>`).join('\n');
    const page = `export function page(items: string[]): string {\n  return \`<ul>\n${html}\n</ul>\`;\n}\n`;
    expect(await lengthErrors('packages/site-server/src/sample.ts', page)).toEqual([]);
  });

  it('tests and code outside the source folders are not checked', async () => {
    const long = logicFunction(120);
    expect(await lengthErrors('api/src/modules/alerts/sample.test.ts', long)).toEqual([]);
    expect(await lengthErrors('mfe-content/src/test/sample.ts', long)).toEqual([]);
    expect(await lengthErrors('api/scripts/sample.ts', long)).toEqual([]);
    expect(await lengthErrors('api/test/sample.ts', long)).toEqual([]);
  });

  it(
    'the source passes',
    async () => {
      const packages = fs.readdirSync(path.join(ROOT, 'packages')).map((p) => `packages/${p}/src`);
      const folders = [
        'api',
        'shell',
        'mfe-content',
        'mfe-leaderboard',
        'mfe-premium',
        'mfe-strategy',
      ]
        .map((app) => `${app}/src`)
        .concat(packages.filter((folder) => fs.existsSync(path.join(ROOT, folder))));
      const results = await eslint.lintFiles(folders);
      const offenders = results.flatMap((result) =>
        result.messages.map((m) => `${path.relative(ROOT, result.filePath)}: ${m.message}`),
      );
      expect(offenders).toEqual([]);
    },
    5 * 60_000,
  );
});
