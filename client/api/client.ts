import type { ZodMiniType } from 'zod/mini';
import { ErrorBody, type ErrorDetail } from '../../common/api/errors';

export type { ErrorDetail };

/** Every failed call surfaces as one of these, whatever went wrong (HTTP error, network, bad body). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[];

  constructor(status: number, code: string, message: string, details: ErrorDetail[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export const NETWORK_ERROR_STATUS = 0;

type Query = Record<string, string | number | boolean | null | undefined>;

interface RequestOptions<T> {
  query?: Query;
  body?: unknown;
  /** A schema of common/ (zod/mini, decision 023): classic zod would put all of itself on the first page. */
  schema?: ZodMiniType<T>;
  /** Spec 8: a 401 reloads the page, except on the profile and login calls which expect it. */
  reloadOnUnauthorized?: boolean;
  signal?: AbortSignal;
  /** Sent as `Idempotency-Key` on creating calls: the server creates once per key (decision 047). */
  idempotencyKey?: string;
  /** the answer of the same GET, already asked for alongside the page's code (client/api/preload.ts) */
  preloaded?: Promise<Response>;
}

const onUnauthorized = (): void => window.location.reload();

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `/api${path}${search ? `?${search}` : ''}`;
}

async function readError(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Proxies and crashed servers answer with HTML or nothing; the status text is all there is.
  }
  const parsed = ErrorBody.safeParse(body);
  if (parsed.success) {
    const { code, message, details } = parsed.data.error;
    return new ApiError(response.status, code, message, details ?? []);
  }
  return new ApiError(response.status, 'http_error', response.statusText || `HTTP ${response.status}`);
}

async function request<T = unknown>(method: string, path: string, options: RequestOptions<T> = {}): Promise<T> {
  const { query, body, schema, reloadOnUnauthorized = true, signal, idempotencyKey, preloaded } = options;
  const headers: Record<string, string> =
    body === undefined
      ? { accept: 'application/json' }
      : { 'content-type': 'application/json', accept: 'application/json' };
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  let response: Response;
  try {
    response = await (preloaded ??
      fetch(buildUrl(path, query), {
        method,
        credentials: 'same-origin',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(NETWORK_ERROR_STATUS, 'network_error', error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) {
    const error = await readError(response);
    if (response.status === 401 && reloadOnUnauthorized) onUnauthorized();
    throw error;
  }
  if (response.status === 204) return undefined as T;
  const data: unknown = await response.json().catch(() => null);
  if (!schema) return data as T;
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new ApiError(response.status, 'invalid_response', parsed.error.message);
  return parsed.data;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions<T>) => request<T>('GET', path, options),
  post: <T>(path: string, body: unknown, options?: RequestOptions<T>) => request<T>('POST', path, { ...options, body }),
  patch: <T>(path: string, body: unknown, options?: RequestOptions<T>) =>
    request<T>('PATCH', path, { ...options, body }),
  put: <T>(path: string, body: unknown, options?: RequestOptions<T>) => request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions<T>) => request<T>('DELETE', path, options),
};

/** Spec 8: the text of an API error is its message; anything else falls back to the generic text. */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/**
 * How long a page's first answers stay fresh: the page asks for them as soon as the visitor is known
 * (app/prefetch-page-data.ts), before it renders, and its first render takes them as they are instead
 * of asking again. A change the page makes invalidates them at once all the same.
 */
export const FIRST_LOAD_FRESH_MS = 10_000;
