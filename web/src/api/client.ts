import { REFRESHED_TOKEN_HEADER, TIMINGS, type ApiError as ApiErrorBody } from '@campus/contract';
import { setSessionEndReason } from '../session/endReason';
import { isTokenValid } from '../session/jwt';
import { clearToken, getToken, setToken } from '../session/token';
import { isServer, serverRequest } from '../ssr/request';

/** Base URL of the API (build setting `VITE_API_BASE_URL`); '' = same origin. */
export const API_BASE_URL = (import.meta.env.VITE_API_BASE_URL ?? '').replace(/\/+$/, '');

/** Builds an absolute URL for an API path (also useful for image URLs the API returns). */
export function apiUrl(path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${API_BASE_URL}${path.startsWith('/') ? path : `/${path}`}`;
}

/**
 * Error thrown by every API call. `status` is the HTTP status, or 0 when no answer arrived
 * (network failure, timeout: `code` is then 'NETWORK' or 'TIMEOUT').
 * `serverMessage` is the server's `{message}` (or its plain-text body) when it sent one.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string | null;
  readonly serverMessage: string | null;
  readonly body: unknown;

  constructor(
    status: number,
    serverMessage: string | null,
    code: string | null = null,
    body: unknown = null,
  ) {
    super(serverMessage ?? (status === 0 ? 'Network error' : `Request failed with status ${status}`));
    this.status = status;
    this.code = code;
    this.serverMessage = serverMessage;
    this.body = body;
  }

  /** True when the request never got an HTTP answer (offline, DNS, timeout, CORS). */
  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

/** The server's message carried by an error, if any (for "…: {message}" toasts). */
export function serverMessageOf(error: unknown): string | null {
  return error instanceof ApiError ? error.serverMessage : null;
}

type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON body (serialized here). Use `formData` for multipart. */
  body?: unknown;
  formData?: FormData;
  /** Query parameters; arrays repeat the key (`categories=A&categories=B`), null/undefined are dropped. */
  query?: Record<string, QueryValue>;
  /** Send the bearer token. Default: true, except for paths under /public. */
  auth?: boolean;
  /** On a 401 of an authenticated call, clear the token and go to /login. Default: true. */
  redirectOn401?: boolean;
  /** Set on the one retry after a token refresh, so a 401 is not retried forever. */
  isRetry?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface ApiResponse<T> {
  data: T;
  response: Response;
}

type UnauthorizedHandler = () => void;

let unauthorizedHandler: UnauthorizedHandler = () => {
  window.location.replace('/login');
};

/** The app registers how to reach /login (router navigation with `from` state). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  unauthorizedHandler = handler;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const url = apiUrl(path);
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) {
      for (const item of value as ReadonlyArray<string | number>) params.append(key, String(item));
    } else {
      params.append(key, String(value));
    }
  }
  const qs = params.toString();
  if (!qs) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${qs}`;
}

async function parseBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function isErrorBody(body: unknown): body is Partial<ApiErrorBody> & { message: string } {
  return (
    typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
  );
}

function errorFromResponse(response: Response, body: unknown): ApiError {
  if (isErrorBody(body)) {
    const code = typeof body.code === 'string' ? body.code : null;
    return new ApiError(response.status, body.message, code, body);
  }
  if (typeof body === 'string') {
    const text = body.trim();
    // A plain-text error is shown as is; an HTML error page (proxy, gateway) is not.
    const usable = text !== '' && text.length <= 500 && !text.startsWith('<');
    return new ApiError(response.status, usable ? text : null, null, body);
  }
  return new ApiError(response.status, null, null, body);
}

/** Performs an API call and returns the parsed body together with the raw response. */
export async function apiRequestWithResponse<T>(
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const {
    method = 'GET',
    body,
    formData,
    query,
    headers = {},
    signal,
    timeoutMs = TIMINGS.requestTimeoutMs,
  } = options;
  const auth = options.auth ?? !path.startsWith('/public');
  const redirectOn401 = options.redirectOn401 ?? true;

  const finalHeaders = new Headers(headers);
  if (!finalHeaders.has('Accept')) finalHeaders.set('Accept', 'application/json, text/plain, */*');
  let requestBody: BodyInit | undefined;
  if (formData) {
    requestBody = formData; // the browser sets the multipart boundary
  } else if (body !== undefined) {
    finalHeaders.set('Content-Type', 'application/json');
    requestBody = JSON.stringify(body);
  }
  const token = auth ? getToken() : null;
  if (token) finalHeaders.set('Authorization', `Bearer ${token}`);

  const controller = new AbortController();
  let timedOut = false;
  const timer = globalThis.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onOuterAbort = () => controller.abort();
  signal?.addEventListener('abort', onOuterAbort, { once: true });

  const url = buildUrl(path, query);
  // In the server renderer, GETs are answered in-process as the student being rendered for.
  const send = isServer ? (serverRequest()?.fetch ?? fetch) : fetch;
  let response: Response;
  try {
    response = await send(url, {
      method,
      headers: finalHeaders,
      body: requestBody,
      credentials: 'include',
      signal: controller.signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause; // cancelled by the caller (e.g. TanStack Query): rethrow as is
    throw new ApiError(0, null, timedOut ? 'TIMEOUT' : 'NETWORK', cause);
  } finally {
    globalThis.clearTimeout(timer);
    signal?.removeEventListener('abort', onOuterAbort);
  }

  const refreshed = isServer ? null : response.headers.get(REFRESHED_TOKEN_HEADER);
  if (refreshed) setToken(refreshed);

  let parsed: unknown;
  try {
    parsed = await parseBody(response);
  } catch (cause) {
    throw new ApiError(0, null, 'NETWORK', cause);
  }

  if (!response.ok) {
    // The server renderer leaves every 401 to the browser (it drops that query from the page).
    if (isServer) throw errorFromResponse(response, parsed);
    // A request sent with the token a password change just replaced: retry it with the new one.
    if (response.status === 401 && token && getToken() && getToken() !== token && !options.isRetry) {
      return apiRequestWithResponse<T>(path, { ...options, isRetry: true });
    }
    if (response.status === 401 && auth && redirectOn401) {
      // A token still within its lifetime was refused: revoked by a password change elsewhere.
      if (token && isTokenValid(token)) setSessionEndReason('password-changed');
      clearToken();
      unauthorizedHandler();
    }
    throw errorFromResponse(response, parsed);
  }
  return { data: parsed as T, response };
}

/** Performs an API call and returns the parsed body (JSON, or text for plain-text answers). */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiRequestWithResponse<T>(path, options)).data;
}

type NoBody = Omit<RequestOptions, 'method' | 'body' | 'formData'>;
type WithBody = Omit<RequestOptions, 'method' | 'body'>;

/** Shorthands. `T` is the expected answer type; it is not checked at runtime. */
export const api = {
  get: <T>(path: string, options?: NoBody) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: WithBody) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: WithBody) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: WithBody) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: NoBody) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
  /** Multipart POST (FormData); pass `method: 'PUT'` in options to change the verb. */
  upload: <T>(path: string, formData: FormData, options?: Omit<RequestOptions, 'body' | 'formData'>) =>
    apiRequest<T>(path, { method: 'POST', ...options, formData }),
};

/** Builds a FormData from plain fields (undefined/null skipped; Blobs kept as files). */
export function toFormData(fields: Record<string, string | number | Blob | null | undefined>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    if (value instanceof Blob) {
      form.append(key, value, value instanceof File ? value.name : `${key}.jpg`);
    } else {
      form.append(key, String(value));
    }
  }
  return form;
}
