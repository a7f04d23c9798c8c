/** Documentation: the OpenAPI document and its reference page. */
import { z } from 'zod';
import { API_PATHS } from '../paths.ts';
import { type EndpointSpec, notModified } from '../endpoint-spec.ts';

// ---------------------------------------------------------------- GET /api/openapi.json

export const openApiDocumentSchema = z
  .looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({ title: z.string() }) })
  .meta({ description: 'This document (OpenAPI 3.1).' });

export const docsEndpoints = {
  openApi: {
    method: 'get',
    path: API_PATHS.openApi,
    tag: 'Documentation',
    summary: 'This OpenAPI document',
    description:
      'OpenAPI 3.1, generated from the same route table and schemas the API validates with; linted in CI with the stock rulesets of Redocly CLI and Spectral.',
    cached: true,
    responses: {
      200: { description: 'OpenAPI 3.1.', schema: openApiDocumentSchema },
      304: notModified,
    },
  },
  docs: {
    method: 'get',
    path: API_PATHS.docs,
    tag: 'Documentation',
    summary: 'API reference page',
    description: 'This document, rendered for reading (self-hosted Redoc).',
    responses: { 200: { description: 'HTML page.', mediaType: 'text/html' } },
  },
  docsScript: {
    method: 'get',
    path: API_PATHS.docsScript,
    tag: 'Documentation',
    summary: 'The reference page script',
    description:
      "Redoc's standalone bundle, served from the installed package (gzipped when the client accepts it), so the page loads nothing from other origins.",
    cached: true,
    responses: {
      200: { description: 'Redoc standalone bundle.', mediaType: 'text/javascript' },
      304: notModified,
    },
  },
} as const satisfies Record<string, EndpointSpec>;
