/**
 * POST /api/remote-errors: a visitor's browser reports that a remote's module failed to load or
 * that an error boundary caught its render error. The report is counted in this process's
 * metrics (remote_errors_total) and handed to the sink, the releases of the remotes, which count
 * it against the release (once per visitor) and roll back a canary past the error threshold. The
 * visitor is the release_visitor cookie the site server sets while a canary runs ('' without it).
 * Without a sink (the API alone, without the site server) the report is counted in the metric only.
 */
import Router from '@koa/router';
import { endpoints, RELEASE_VISITOR_COOKIE } from '@yield/contract';
import { badRequest } from '../../platform/http/errors.ts';
import { binder, type BindHost, type Invalid } from '../../platform/http/bind.ts';
import type { RateLimiter } from '../../platform/http/rate-limit.ts';
import type { RemoteErrorKind } from '../../platform/metrics.ts';

/** Where reports go besides the metric: the releases of the remotes (the site server's). */
export interface RemoteErrorSink {
  report(
    remote: string,
    release: string | null,
    visitor: string,
    kind: RemoteErrorKind,
  ): Promise<void> | void;
}

/** What the route takes: the binder's host, the metric, and the sink when there is one. */
export interface RemoteErrorsRoutesDeps extends BindHost<unknown> {
  metrics: { remoteError(remote: string, release: string | null, kind: RemoteErrorKind): void };
  remoteErrors: RemoteErrorSink | null;
}

/** The longest visitor id kept (the site server's are 22 characters). */
const MAX_VISITOR_LENGTH = 64;

const FIELD_MESSAGES: Record<string, string> = {
  remote: 'remote must be the federation name of one of the remotes',
  release: 'release must be a release id (12 lowercase hex digits) or null',
  module: 'module must be the name of a module, 1-100 characters',
  kind: 'kind must be load or render',
  message: 'message must be text of at most 500 characters',
};

/** A refused report: 400 invalid_request naming its first bad field. */
function invalidReport({ issues }: Invalid) {
  const field = String(issues[0]?.path[0] ?? '');
  return badRequest(
    FIELD_MESSAGES[field] ?? 'The body must be a report {remote, release, module, kind, message?}',
    'invalid_request',
  );
}

export function remoteErrorsRouter(deps: RemoteErrorsRoutesDeps, limiter: RateLimiter): Router {
  const router = new Router();
  const bind = binder(router, deps, { limiter });
  bind(endpoints.remoteErrors).to(
    async ({ body, ctx }) => {
      deps.metrics.remoteError(body.remote, body.release, body.kind);
      const cookie = ctx.cookies.get(RELEASE_VISITOR_COOKIE) ?? '';
      const visitor = cookie.length <= MAX_VISITOR_LENGTH ? cookie : '';
      try {
        await deps.remoteErrors?.report(body.remote, body.release, visitor, body.kind);
      } catch (err) {
        // A report is not worth a retry from the browser: the failure is the server's to see.
        deps.logger.warn('remote error report not recorded', {
          remote: body.remote,
          release: body.release,
          error: (err as Error).message,
        });
      }
      return { status: 204 };
    },
    { bucket: 'remoteErrors', invalid: invalidReport },
  );
  return router;
}
