/** POST /api/addToMailList: each address stored once, case-insensitively, with time and source. */
import Router from '@koa/router';
import { endpoints, mailSignupRequestSchema } from '@yield/contract';
import type { AppDeps } from '../deps.ts';
import { DataFileError } from '../data/store.ts';
import { UserDataUnavailableError } from '../data/user-data.ts';
import { AppError, badRequest, storeUnavailable } from '../http/errors.ts';
import { jsonBody } from '../http/middleware.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { routePath } from '../http/route-path.ts';

export function mailingListRouter(deps: AppDeps, limiter: RateLimiter): Router {
  const router = new Router();
  const path = routePath(endpoints.mailSignup);
  router.post(path, limiter.middleware('addToMailList'), jsonBody(), async (ctx) => {
    const parsed = mailSignupRequestSchema.safeParse(ctx.state.body);
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path[0];
      throw badRequest(
        field === 'source'
          ? 'source must be 1-64 letters, digits, spaces or _ . / -'
          : 'A valid email address is required',
        'invalid_email',
      );
    }
    const email = parsed.data.email.toLowerCase();
    const source = parsed.data.source ?? 'website';
    try {
      const { created } = await deps.userData.addSubscriber({
        email,
        source,
        createdAt: deps.now().toISOString(),
      });
      ctx.status = created ? 201 : 200;
      ctx.body = { success: true, created };
    } catch (err) {
      if (err instanceof UserDataUnavailableError) throw storeUnavailable(err);
      if (err instanceof DataFileError) {
        deps.logger.error('mailing list not writable', { error: err.message });
        throw new AppError(503, 'data_unavailable', 'The mailing list is temporarily unavailable');
      }
      throw err;
    }
  });
  return router;
}
