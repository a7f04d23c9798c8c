import { getDefaultStore } from 'jotai';
import type { AnswerBody, ApiErrorBody, EndpointName, RequestBody } from '@yield/contract';
import { API_PATHS, apiPath } from '@yield/contract/constants';
import { premiumTokenAtom } from './session.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The authenticated request helper: JSON content type, and a bearer
 * Authorization header when a token is stored.
 */
export function authFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', 'application/json');
  const token = getDefaultStore().get(premiumTokenAtom);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return fetch(path, { ...init, headers });
}

async function parse<T>(response: Response): Promise<T> {
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (body as Partial<ApiErrorBody> | null)?.error;
    throw new ApiError(
      response.status,
      typeof error === 'object' && error ? error.code : `http_${response.status}`,
      typeof error === 'object' && error ? error.message : response.statusText,
      body,
    );
  }
  return body as T;
}

export async function getJson<T>(path: string, init?: RequestInit): Promise<T> {
  return parse<T>(await authFetch(path, init));
}

export async function postJson<T>(path: string, payload: unknown): Promise<T> {
  return parse<T>(await authFetch(path, { method: 'POST', body: JSON.stringify(payload) }));
}

type Values = Readonly<Record<string, string | number>>;

/**
 * GET one endpoint of the contract by its name: the path from the route table (`params` fill
 * its `{name}`s, `query` is added), the answer typed from the entry's response schema.
 */
export function getAnswer<K extends EndpointName>(
  name: K,
  params: Values = {},
  query?: Values,
): Promise<AnswerBody<K>> {
  return getJson<AnswerBody<K>>(apiPath(API_PATHS[name], params, query));
}

/** POST to one endpoint of the contract: the body and the answer typed from its entry. */
export function postAnswer<K extends EndpointName>(
  name: K,
  body: RequestBody<K>,
): Promise<AnswerBody<K>> {
  return postJson<AnswerBody<K>>(API_PATHS[name], body);
}

/** The server refused the token (forged, expired or revoked): the session must end. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}

/** Client errors are answers, not outages: retrying them cannot help. */
export function isClientError(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}
