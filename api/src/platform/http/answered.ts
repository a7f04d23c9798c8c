import type { Context } from 'koa';

/** Resolves once the answer to this request has been written (or the client went away). */
export function answered(ctx: Context): Promise<void> {
  const res = ctx.res;
  if (res.writableFinished || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      resolve();
    };
    res.on('finish', done);
    res.on('close', done);
  });
}
