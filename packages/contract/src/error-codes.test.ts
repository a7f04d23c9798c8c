/**
 * The error codes of the contract: every code some entry lists is in API_ERROR_CODES and every
 * code of API_ERROR_CODES is answered somewhere; docs/api.md ("Error codes") lists each
 * endpoint's codes as the route table does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { API_ERROR_CODES, COMMON_ERROR_CODES } from './constants.ts';
import { endpoints, errorCodesOf, type EndpointName, type EndpointSpec } from './endpoints.ts';

const specs = endpoints as Record<EndpointName, EndpointSpec>;
const common: readonly string[] = COMMON_ERROR_CODES;

/** One line per endpoint: `- \`name\` (METHOD path): status code, code; status code.` */
export function errorCodeLines(): string[] {
  return (Object.keys(specs) as EndpointName[]).map((name) => {
    const spec = specs[name];
    const answers = Object.entries(spec.responses)
      .filter(([, r]) => r.codes)
      .map(([status, r]) => `${status} ${r.codes!.map((c) => `\`${c}\``).join(', ')}`);
    const own = answers.length ? answers.join('; ') : 'only the common codes';
    return `- \`${name}\` (${spec.method.toUpperCase()} ${spec.path}): ${own}.`;
  });
}

describe('the error codes', () => {
  it('every code an entry lists is a code of the contract, and each of those is listed', () => {
    const listed = new Set(Object.values(specs).flatMap((s) => errorCodesOf(s)));
    // not_found also answers a path that is no endpoint.
    expect([...new Set([...listed, 'not_found'])].sort()).toEqual(
      [...new Set<string>([...API_ERROR_CODES])].sort(),
    );
    for (const spec of Object.values(specs))
      expect(errorCodesOf(spec)).toEqual(expect.arrayContaining([...common]));
  });

  it('an error answer accepts only its own codes', () => {
    const schema = specs.history.responses[400]!.schema!;
    const body = (code: string) => ({ error: { code, message: 'No.' } });
    expect(schema.safeParse(body('invalid_range')).success).toBe(true);
    expect(schema.safeParse(body('invalid_code')).success).toBe(false);
    expect(schema.safeParse(body('invalid_pool')).success).toBe(false);
  });

  it("docs/api.md lists each endpoint's codes as the route table does", () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../../docs/api.md'), 'utf8');
    const start = doc.indexOf('\n### Error codes\n');
    expect(start).toBeGreaterThan(0);
    const section = doc.slice(start + 1, doc.indexOf('\n### ', start + 1));
    const lines = section
      .replace(/\n {2}/g, ' ')
      .split('\n')
      .filter((line) => line.startsWith('- `'));
    expect(lines).toEqual(errorCodeLines());
    for (const code of COMMON_ERROR_CODES) expect(section).toContain(`\`${code}\``);
  });
});
