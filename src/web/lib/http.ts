import { API_BASE, HTTP_TIMEOUT_MS } from '@shared/constants.ts';
import type { ErrorCode } from '@shared/error-codes.ts';
import { UNAUTHORIZED_MESSAGES } from '@shared/unauthorized-messages.ts';
import { toast } from '@web/lib/toast.tsx';
import { navigate } from 'wouter/use-browser-location';
import { apiUrl } from './api-origin.ts';
import { beforeDeadline } from './deadline.ts';
import { noteRead } from './offline.ts';
import { loginHref } from './return-path.ts';
import { tokenStorage } from './storage.ts';

/** The server's error codes, and the client's own when no answer came (offline, or timed out). */
export type ApiErrorCode = ErrorCode | 'NO_ANSWER';

/**
 * Every failed call rejects with this: the server's message (or the transport's), its status
 * and its code. Screens decide by the code, never by the status (docs/product.md#errors).
 */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: ApiErrorCode;

  constructor(message: string, statusCode: number, code: ApiErrorCode) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.code = code;
  }
}

/**
 * The code of a failed call's error body. Every error the API sends has one (its error schema
 * says so); a body without one came from something in front of the API, so it counts as INTERNAL.
 */
export const codeOf = (body: unknown): ErrorCode =>
  (body as { code?: ErrorCode } | null)?.code ?? 'INTERNAL';

/** The transport's message when a call outlives its timeout (worded as axios words it). */
export function timeoutMessage(timeoutMs: number): string {
  return `timeout of ${timeoutMs}ms exceeded`;
}

export const TRANSPORT_MESSAGES = {
  timeout: timeoutMessage(HTTP_TIMEOUT_MS),
  network: 'Network Error',
} as const;

type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /**
   * A 401 only rejects, without forgetting the session or redirecting: for calls whose token
   * may already be dead on purpose (logging out).
   */
  ignoreUnauthorized?: boolean;
}

let onUnauthorized: () => void = () => {};

/** The session registers how to forget the user when the server says the token is no good. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

function buildUrl(path: string, query?: Query): string {
  const url = apiUrl(`${API_BASE}${path.startsWith('/') ? path : `/${path}`}`);
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

function withTimeout(timeoutMs: number, outer: Array<AbortSignal | undefined>) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forward = () => controller.abort();
  for (const signal of outer) signal?.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      for (const signal of outer) signal?.removeEventListener('abort', forward);
    },
  };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function messageOf(body: unknown): string | null {
  if (body && typeof body === 'object' && 'message' in body) {
    const { message } = body as { message: unknown };
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return null;
}

function handleUnauthorized(): ApiError {
  tokenStorage.clear();
  onUnauthorized();
  toast(UNAUTHORIZED_MESSAGES.unauthorizedToast, { icon: '⚠️', id: 'unauthorized' });
  // Back to this page once logged in again.
  if (window.location.pathname.toLowerCase() !== '/login') navigate(loginHref(), { replace: true });
  return new ApiError(UNAUTHORIZED_MESSAGES.unauthorized, 401, 'UNAUTHORIZED');
}

/**
 * Calls on their way, so that signing out can let them finish before the token dies, and
 * abandon the ones that outlast its patience.
 */
const inFlight = new Map<Promise<unknown>, AbortController>();
let signingOut = false;

/**
 * Signing out revokes the token: a read still on its way, or one a screen starts meanwhile,
 * would come back 401 and tell the player who just logged out that their session expired.
 * From here on only the sign-out's own calls (`ignoreUnauthorized`) go out, and this resolves
 * once the calls already sent have finished, or after `timeoutMs` at most: a call still on
 * its way then is abandoned (it rejects as signed out), so that no answer to the dead token
 * arrives after the revocation.
 */
export async function quietForSignOut(timeoutMs: number): Promise<void> {
  signingOut = true;
  await beforeDeadline(Promise.allSettled(inFlight.keys()), timeoutMs, () => undefined);
  for (const abandon of inFlight.values()) abandon.abort();
}

/** The sign-out is over (or a 401 ended the session): calls go out again, for the next login. */
export function resumeAfterSignOut(): void {
  signingOut = false;
}

/** docs/product.md#the-api: base /api/v1, 20 s timeout, JSON, bearer token from localStorage `authToken`. */
export function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  if (signingOut && !options.ignoreUnauthorized) {
    return Promise.reject(new ApiError(UNAUTHORIZED_MESSAGES.unauthorized, 401, 'UNAUTHORIZED'));
  }
  const abandon = new AbortController();
  const call = send<T>(method, path, options, abandon.signal);
  inFlight.set(call, abandon);
  return call.finally(() => inFlight.delete(call));
}

async function send<T>(
  method: string,
  path: string,
  options: RequestOptions,
  abandoned: AbortSignal,
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const isForm = typeof FormData !== 'undefined' && options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  const token = tokenStorage.get();
  if (token) headers.Authorization = `Bearer ${token}`;

  const timeoutMs = options.timeoutMs ?? HTTP_TIMEOUT_MS;
  const timeout = withTimeout(timeoutMs, [options.signal, abandoned]);
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body:
        options.body === undefined
          ? undefined
          : isForm
            ? (options.body as FormData)
            : JSON.stringify(options.body),
      signal: timeout.signal,
    });
    if (method === 'GET') noteRead(response.headers);
    // The timeout covers the whole exchange: a body that stalls half-way must not hang the
    // screen any more than a server that never answers.
    body = response.status === 401 ? null : await readBody(response);
  } catch (error) {
    if (timeout.timedOut()) throw new ApiError(timeoutMessage(timeoutMs), 0, 'NO_ANSWER');
    if (options.signal?.aborted) throw error;
    if (abandoned.aborted)
      throw new ApiError(UNAUTHORIZED_MESSAGES.unauthorized, 401, 'UNAUTHORIZED');
    throw new ApiError(TRANSPORT_MESSAGES.network, 0, 'NO_ANSWER');
  } finally {
    timeout.done();
  }

  if (response.status === 401) {
    if (options.ignoreUnauthorized)
      throw new ApiError(UNAUTHORIZED_MESSAGES.unauthorized, 401, 'UNAUTHORIZED');
    throw handleUnauthorized();
  }
  if (!response.ok) {
    throw new ApiError(
      messageOf(body) ?? (response.statusText || TRANSPORT_MESSAGES.network),
      response.status,
      codeOf(body),
    );
  }
  return body as T;
}

export const http = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('DELETE', path, { ...options, body }),
};

/** The server's message when there is one, otherwise the screen's own fallback (docs/product.md#errors). */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message) return error.message;
  return fallback;
}
