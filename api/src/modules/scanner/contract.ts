/**
 * Reading GET /api/scanner's query string with the contract's schema (@yield/contract,
 * scannerQuerySchema): Koa's parsed query to a validated query, or a 400 `invalid_query` naming
 * the reason. An empty value counts as not given; an unknown or repeated parameter is refused.
 */
import { scannerQuerySchema, type ScannerQuery } from '@yield/contract';
import { badRequest } from '../../platform/http/errors.ts';

const KNOWN = Object.keys(scannerQuerySchema.shape);

export function parseScannerQuery(
  raw: Record<string, string | string[] | undefined>,
): ScannerQuery {
  const given: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!KNOWN.includes(name)) {
      throw badRequest(
        `Unknown query parameter "${name}" (known: ${KNOWN.join(', ')})`,
        'invalid_query',
      );
    }
    if (Array.isArray(value)) {
      throw badRequest(`Query parameter ${name} is given more than once`, 'invalid_query');
    }
    if (value !== undefined && value !== '') given[name] = value;
  }
  const parsed = scannerQuerySchema.safeParse(given);
  if (!parsed.success) {
    throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid query', 'invalid_query');
  }
  return parsed.data;
}
