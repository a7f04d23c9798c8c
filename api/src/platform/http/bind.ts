/**
 * bind(): one route of the contract's table (@yield/contract `endpoints`) wired to its handler.
 *
 * The endpoint spec says how the route is served, and the binder does it, in this order:
 * method and path; the rate limit (`rateLimited`, with the bucket named in the options); the
 * premium token (`bearer: 'required'`: koa-jwt and the access check; `'optional'`: the handler
 * asks `bearer()`); the JSON body reader (`body`); params, query and body validated with the
 * spec's zod schemas (a failure is a 400, or what the options' `invalid` maps it to); then the
 * handler, with typed input. The handler returns one of the spec's declared responses (its type
 * only admits those statuses and body shapes); `cached` precomputed bodies get their ETag and
 * 304. Failures of the user-data store are mapped in one place (storeFailure), with the
 * endpoint's extra error fields or, for the HTML pages of the e-mailed links, their 503 page.
 *
 * An answer whose status the spec does not declare is a bug: in tests and development
 * (NODE_ENV=test or development) it fails the request (500, logged); otherwise, in production, it
 * is logged and sent.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import { endpoints, type EndpointName, type EndpointSpec } from '@yield/contract';
import type { CachedBody } from './cached-body.ts';
import type { Logger } from '../logger.ts';
import { AppError, logStoreFailure, storeFailure } from './errors.ts';
import { jsonBody, sendCached } from './middleware.ts';
import type { RateLimiter } from './rate-limit.ts';
import { routePath } from './route-path.ts';

type Headers = Readonly<Record<string, string | undefined>>;

interface Answer<S extends number> {
  status: S;
  /** Set after the body (e.g. Cache-Control, Vary, Content-Security-Policy). */
  headers?: Headers;
}

/** A precomputed body: with `cached` on the spec, sent with its ETag (304 on a match). */
interface Precomputed {
  cached: CachedBody;
  /** Content type of a body that is not JSON. */
  type?: string;
}

/** One declared response of status S, by what the spec says its body is. */
type AnswerOf<S extends number, R> = R extends { schema: infer Z extends z.ZodType }
  ? Answer<S> &
      (
        | { body: z.input<Z> }
        | Precomputed
        /** JSON already serialised from parts of this response's schema (the scanner). */
        | { raw: Buffer }
        | (R extends { csv: true } ? { csv: string } : never)
      )
  : R extends { mediaType: string }
    ? Answer<S> & ({ body: string | Buffer; type?: string } | Precomputed)
    : Answer<S>;

type StatusOf<E extends EndpointSpec> = keyof E['responses'] & number;

/** The answers a handler of endpoint E may return: its declared statuses and bodies only. */
export type Reply<E extends EndpointSpec> = {
  [S in StatusOf<E>]: AnswerOf<S, E['responses'][S]>;
}[StatusOf<E>];

type Parsed<T> = T extends z.ZodType ? z.output<T> : Record<string, never>;

/**
 * How the binder checks a bearer token (the premium module's `premiumBearerCheck`): the binder
 * knows the spec's `bearer` field, not what a token grants.
 */
export interface BearerCheck<Claims> {
  /** The middleware of a `bearer: 'required'` route, run before the handler. */
  required: () => Middleware[];
  /** The claims of the request's token when it is valid, else null (`bearer: 'optional'`). */
  optional: (ctx: Context, extra: Record<string, unknown>) => Promise<Claims | null>;
}

/** What the binder needs of the application. */
export interface BindHost<Claims> {
  logger: Logger;
  /** How long a request body may take to arrive (ms). */
  bodyTimeoutMs: number;
  /** Required when a bound endpoint has `bearer`. */
  bearer?: BearerCheck<Claims>;
}

/** What a handler gets: the validated params, query and body, and the Koa context. */
export interface Input<E extends EndpointSpec, Claims = unknown> {
  params: Parsed<E['params']>;
  query: Parsed<E['query']>;
  body: Parsed<E['body']>;
  /** The request's premium token when valid and its user still has access (`bearer: 'optional'`). */
  bearer: () => Promise<Claims | null>;
  ctx: Context;
}

export type Handler<E extends EndpointSpec, Claims = unknown> = (
  input: Input<E, Claims>,
) => Reply<E> | Promise<Reply<E>>;

/** A part of the request that failed its schema. */
export interface Invalid {
  part: 'params' | 'query' | 'body';
  issues: readonly z.core.$ZodIssue[];
  ctx: Context;
}

export interface BindOptions<E extends EndpointSpec> {
  /** The rate limit's bucket (required with `rateLimited`): requests are counted per client and bucket. */
  bucket?: string;
  /** Extra top-level fields of this endpoint's error bodies (the premium calls' `success: false`). */
  extra?: Record<string, unknown>;
  /**
   * The answer to a request that fails a schema: return (or throw) the error, or return a
   * declared answer (the HTML pages of the links). Default: 400 `bad_request` with the first
   * issue's message.
   */
  invalid?: (failure: Invalid) => AppError | Reply<E>;
  /** Reads the query instead of the spec's schema alone (it must use that schema). */
  readQuery?: (ctx: Context) => Parsed<E['query']>;
  /** The answer to a failure of the user-data store on an HTML page (its 503 page). */
  storeFailurePage?: () => Reply<E>;
}

/** Marks the last middleware of a route made by bind(), with its endpoint's name. */
export const BOUND = Symbol('bound endpoint');
export type BoundMiddleware = Middleware & { [BOUND]?: EndpointName };

/** The endpoint's name in the table. */
function nameOf(spec: EndpointSpec): EndpointName {
  const found = (Object.keys(endpoints) as EndpointName[]).find((k) => endpoints[k] === spec);
  if (!found) throw new Error(`${spec.method} ${spec.path} is not an endpoint of the table`);
  return found;
}

const STRICT_BY_DEFAULT = ['test', 'development'].includes(process.env.NODE_ENV ?? '');

export interface BinderOptions {
  /** Required when a bound endpoint is `rateLimited`. */
  limiter?: RateLimiter;
  /**
   * Whether an undeclared answer fails the request (500) instead of being logged and sent.
   * Default: under NODE_ENV=test (vitest) or development (`pnpm --filter @yield/api dev`); a
   * production process, which sets neither, logs it and sends it.
   */
  strict?: boolean;
}

/**
 * Binds one endpoint of a router: `bind(endpoints.history).to(handler, options)`. The handler is
 * given in a second call so that its answers are checked against the spec's declared responses
 * exactly (TypeScript keeps `status: 200` a literal there).
 */
export type Bind<Claims> = <E extends EndpointSpec>(
  spec: E,
) => { to(handler: Handler<E, Claims>, options?: BindOptions<E>): void };

/** A bind() for one router: `const bind = binder(router, deps, { limiter })`. */
export function binder<Claims>(
  router: Router,
  host: BindHost<Claims>,
  binderOptions: BinderOptions = {},
): Bind<Claims> {
  return (spec) => ({
    to: (handler, options) => bind(router, host, spec, handler, options, binderOptions),
  });
}

export function bind<E extends EndpointSpec, Claims>(
  router: Router,
  host: BindHost<Claims>,
  spec: E,
  handler: Handler<E, Claims>,
  options: BindOptions<E> = {},
  { limiter, strict = STRICT_BY_DEFAULT }: BinderOptions = {},
): void {
  const name = nameOf(spec);
  const extra = options.extra ?? {};
  const chain: Middleware[] = [];
  if (spec.rateLimited) {
    if (!limiter || !options.bucket)
      throw new Error(`${name}: rateLimited needs a limiter and a bucket`);
    chain.push(limiter.middleware(options.bucket, extra));
  }
  if (spec.bearer && !host.bearer) throw new Error(`${name}: bearer needs the host's bearer check`);
  if (spec.bearer === 'required') chain.push(...host.bearer!.required());
  if (spec.body) chain.push(jsonBody(host.bodyTimeoutMs, extra, spec.maxBodyBytes));

  const invalid =
    options.invalid ??
    ((f: Invalid) =>
      new AppError(400, 'bad_request', f.issues[0]?.message ?? 'Invalid request', {}, extra));

  const route: BoundMiddleware = async (ctx) => {
    let reply: Reply<E>;
    try {
      reply = await run(ctx);
    } catch (err) {
      const mapped = storeFailure(err, extra);
      if (!mapped) throw err;
      if (!options.storeFailurePage) throw mapped;
      logStoreFailure(host.logger, ctx, err);
      reply = options.storeFailurePage();
      reply = { ...reply, headers: { ...reply.headers, ...mapped.headers } };
    }
    if (!(reply.status in spec.responses)) {
      const message = `${name} answered ${reply.status}, a status its spec does not declare`;
      if (strict) throw new Error(message);
      host.logger.error('undeclared response', {
        method: ctx.method,
        path: ctx.path,
        status: reply.status,
      });
    }
    send(ctx, spec, reply as Wire);
  };
  route[BOUND] = name;

  const run = async (ctx: Context): Promise<Reply<E>> => {
    const input = { ctx } as Input<E, Claims>;
    let bearer: Promise<Claims | null> | undefined;
    input.bearer = () => (bearer ??= host.bearer?.optional(ctx, extra) ?? Promise.resolve(null));
    const parts = [
      ['params', spec.params, () => ctx.params],
      ['query', spec.query, () => ctx.query],
      ['body', spec.body, () => ctx.state.body as unknown],
    ] as const;
    for (const [part, schema, raw] of parts) {
      if (part === 'query' && options.readQuery) {
        input.query = options.readQuery(ctx);
        continue;
      }
      if (!schema) {
        (input as unknown as Record<string, unknown>)[part] = {};
        continue;
      }
      const parsed = schema.safeParse(raw());
      if (!parsed.success) {
        const answer = invalid({ part, issues: parsed.error.issues, ctx });
        if (answer instanceof Error) throw answer;
        return answer;
      }
      (input as unknown as Record<string, unknown>)[part] = parsed.data;
    }
    return handler(input);
  };

  chain.push(route);
  const path = routePath(spec);
  if (spec.method === 'get') router.get(path, ...chain);
  else router.post(path, ...chain);
}

/** Any declared answer, as the binder writes it. */
interface Wire extends Answer<number> {
  body?: unknown;
  type?: string;
  cached?: CachedBody;
  raw?: Buffer;
  csv?: string;
}

function send(ctx: Context, spec: EndpointSpec, reply: Wire): void {
  const declared = spec.responses[reply.status];
  const type =
    reply.type ?? (declared?.mediaType ? `${declared.mediaType}; charset=utf-8` : undefined);
  if (reply.cached) {
    if (spec.cached) sendCached(ctx, reply.cached, undefined, type);
    else {
      ctx.status = reply.status;
      ctx.type = type ?? 'application/json; charset=utf-8';
      ctx.body = reply.cached.body;
    }
  } else if (reply.csv !== undefined) {
    ctx.status = reply.status;
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = reply.csv;
  } else if (reply.raw) {
    ctx.status = reply.status;
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = reply.raw;
  } else if ('body' in reply) {
    ctx.status = reply.status;
    if (type) ctx.type = type;
    ctx.body = reply.body;
  } else {
    ctx.status = reply.status;
  }
  for (const [k, v] of Object.entries(reply.headers ?? {})) if (v !== undefined) ctx.set(k, v);
}
