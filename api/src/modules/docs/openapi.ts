/**
 * GET /api/openapi.json, generated from the contract (@yield/contract): every path of its route
 * table with the JSON Schema of each parameter, body and answer. Nothing is described here by
 * hand; @asteasolutions/zod-to-openapi turns the zod schemas into OpenAPI 3.1 (docs/api.md says
 * why that library).
 */
import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
} from '@asteasolutions/zod-to-openapi';
import {
  apiErrorOf,
  ENDPOINT_TAGS,
  endpoints,
  SERVER_RESPONSES,
  type EndpointName,
  type EndpointSpec,
  type ResponseSpec,
} from '@yield/contract';

const CACHE_HEADERS = {
  ETag: { schema: { type: 'string' }, description: 'Send it back in If-None-Match.' },
  'Cache-Control': { schema: { type: 'string' }, description: 'public, max-age=60' },
} as const;
const RETRY_AFTER = {
  'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' },
} as const;

function responseConfig(spec: EndpointSpec, status: number, r: ResponseSpec): ResponseConfig {
  const headers =
    status === 429 ? RETRY_AFTER : spec.cached && status === 200 ? CACHE_HEADERS : undefined;
  const content = r.schema
    ? {
        'application/json': { schema: r.schema },
        ...(r.csv ? { 'text/csv': { schema: { type: 'string' as const } } } : {}),
      }
    : r.mediaType
      ? { [r.mediaType]: { schema: { type: 'string' as const } } }
      : undefined;
  return {
    description: r.description,
    ...(headers ? { headers } : {}),
    ...(content ? { content } : {}),
  };
}

/** Who may call an operation: anyone (`[]`), a premium token, or either (the answer differs). */
const SECURITY: Record<'public' | 'required' | 'optional', Record<string, string[]>[]> = {
  public: [],
  required: [{ bearerAuth: [] }],
  optional: [{}, { bearerAuth: [] }],
};

/**
 * The document, lint-clean under the stock rulesets of Redocly CLI ("recommended") and Spectral
 * ("spectral:oas"), checked by `pnpm lint:openapi` (api/scripts/lint-openapi.ts) in CI. Each
 * operation's operationId is its name in the route table.
 */
export function openApiDocument(version: string) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT (HS256), from POST /api/premium or /api/premiumLogin',
  });
  for (const [name, spec] of Object.entries(endpoints) as [EndpointName, EndpointSpec][]) {
    const responses: Record<string, ResponseConfig> = {};
    for (const [status, r] of Object.entries({ ...SERVER_RESPONSES, ...spec.responses }))
      responses[status] = responseConfig(spec, Number(status), r);
    responses['500'] = responseConfig(spec, 500, {
      description: 'Unexpected failure: logged on the server, answered without internals.',
      schema: apiErrorOf(['internal_error']),
    });
    registry.registerPath({
      method: spec.method,
      path: spec.path,
      operationId: name,
      tags: [spec.tag],
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      security: SECURITY[spec.bearer ?? 'public'],
      request: {
        ...(spec.params ? { params: spec.params } : {}),
        ...(spec.query ? { query: spec.query } : {}),
        ...(spec.body
          ? { body: { required: true, content: { 'application/json': { schema: spec.body } } } }
          : {}),
      },
      responses,
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Global Yield Leaderboard API',
      version,
      // No absolute URLs here (the site's address is operator data): the terms are the site's
      // /terms-of-service page, the support address is siteContactEmail of /api/settings.
      // LicenseRef-: SPDX's form for a licence that is not on its list.
      license: {
        name: "Proprietary: the site's Terms of Service (/terms-of-service)",
        identifier: 'LicenseRef-Proprietary',
      },
      contact: { name: 'Support: the siteContactEmail of GET /api/settings' },
      description:
        'Yields and their risk-adjusted 30-day APR (method ra30-v1), site settings, the mailing list and premium access. Every error is JSON {"error": {"code", "message"}}; the premium calls add "success": false. Request bodies are application/json, at most 16 KB.',
    },
    servers: [{ url: '/' }],
    tags: ENDPOINT_TAGS.map((tag) => ({ ...tag })),
  });
}
