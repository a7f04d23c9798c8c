/** The site's pages in the browser: errors of the remotes reported by the shell. */
import { z } from 'zod';
import { remoteNames } from '@yield/federation/registry';
import { API_PATHS } from '../paths.ts';
import { type EndpointSpec, bodyErrors, error } from '../endpoint-spec.ts';

// ---------------------------------------------------------------- POST /api/remote-errors

/** The cookie holding a visitor's random id (its canary assignment), read with each report. */
export const RELEASE_VISITOR_COOKIE = 'release_visitor';
/** Largest body of a report, in bytes (a report is a few short fields). */
export const REMOTE_ERROR_MAX_BODY_BYTES = 2 * 1024;

export const remoteErrorRequestSchema = z
  .object({
    remote: z
      .enum(remoteNames)
      .meta({ description: 'The federation name of the remote (mfe_strategy, …).' }),
    release: z
      .string()
      .regex(/^[0-9a-f]{12}$/, 'expected a release id of 12 lowercase hex digits')
      .nullable()
      .meta({
        description:
          'The release the page loaded (12 hex digits), or null for a remote served from elsewhere (a CDN).',
      }),
    module: z
      .string()
      .min(1)
      .max(100)
      .meta({ description: 'The exposed module that failed (./Leaderboard, …).' }),
    kind: z.enum(['load', 'render']).meta({
      description:
        'load: the remote or its module could not be loaded; render: an error boundary caught a render error.',
    }),
    message: z
      .string()
      .max(500)
      .optional()
      .meta({ description: 'The error message, at most 500 characters.' }),
  })
  .meta({ id: 'RemoteErrorReport' });

export const remoteErrorsEndpoints = {
  remoteErrors: {
    method: 'post',
    path: API_PATHS.remoteErrors,
    tag: 'Site',
    summary: "Report an error of a remote in a visitor's browser",
    description: `Sent by the shell when a remote's module fails to load or an error boundary catches its render error. Counted per remote, release and kind (the metric remote_errors_total) and handed to the releases, which count it against the release (one per visitor and release, the visitor read from the ${RELEASE_VISITOR_COOKIE} cookie) and roll back a canary whose error rate passes the threshold.`,
    body: remoteErrorRequestSchema,
    rateLimited: true,
    maxBodyBytes: REMOTE_ERROR_MAX_BODY_BYTES,
    responses: {
      204: { description: 'Counted; no body.' },
      400: error(
        ['invalid_request', 'invalid_json'],
        'invalid_request (the message names the field: remote, release, module, kind or message), or invalid_json.',
      ),
      ...bodyErrors,
      413: error(['payload_too_large'], 'Body larger than 2 KB.'),
    },
  },
} as const satisfies Record<string, EndpointSpec>;
