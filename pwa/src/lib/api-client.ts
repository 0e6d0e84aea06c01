import type { RouteDescriptor, RouteInput, RouteResponse } from '../../../api/contract/routes';

/** Fallback text when a failed response carries no readable `error` (docs/product-rules.md §7). */
export const REQUEST_FAILED = 'Request failed';

/** A failed API call: `message` is the body's `error` (what a person should read), else 'Request failed'. */
export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when the network failed before a response. */
    readonly status: number,
    /** The server's stable error code, when it sent one. */
    readonly code?: string,
    /** Field issues of a 400 validation failure: `{ path, message }`, the path dotted ('customerPhone', 'items.0'). */
    readonly issues?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type QueryValue = string | number | boolean | null | undefined;

function withQuery(path: string, params?: Record<string, QueryValue>): string {
  if (!params) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Prefix of every API path: empty in the browser (same origin); the server's own address when it renders a page. */
let apiOrigin = '';

/** Sets where API paths are fetched from (src/entry-server.tsx only; the browser uses its own origin). */
export function setApiOrigin(origin: string): void {
  apiOrigin = origin;
}

async function request<T>(path: string, init: RequestInit & { signal?: AbortSignal }): Promise<T> {
  let res: Response;
  try {
    res = await fetch(apiOrigin + path, {
      credentials: 'same-origin',
      ...init,
      headers: {
        Accept: 'application/json',
        ...(init.body ? { 'Content-Type': 'application/json' } : {}),
        ...init.headers,
      },
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(REQUEST_FAILED, 0, 'network_error');
  }
  const text = await res.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  if (!res.ok) {
    const b = (body ?? {}) as { error?: unknown; code?: unknown; issues?: unknown };
    const message = typeof b.error === 'string' && b.error.trim() ? b.error : REQUEST_FAILED;
    throw new ApiError(
      message,
      res.status,
      typeof b.code === 'string' ? b.code : undefined,
      Array.isArray(b.issues) ? (b.issues as ApiError['issues']) : undefined,
    );
  }
  return body as T;
}

function getJson<T>(
  path: string,
  params?: Record<string, QueryValue>,
  opts: { signal?: AbortSignal; headers?: HeadersInit } = {},
): Promise<T> {
  return request<T>(withQuery(path, params), { method: 'GET', signal: opts.signal, headers: opts.headers });
}

function postJson<T>(
  path: string,
  body: unknown = {},
  opts: { signal?: AbortSignal; headers?: HeadersInit } = {},
): Promise<T> {
  return request<T>(path, {
    method: 'POST',
    body: JSON.stringify(body ?? {}),
    signal: opts.signal,
    headers: opts.headers,
  });
}

/**
 * The one way the PWA talks to `/_api`: JSON in and out, same-origin credentials, errors as ApiError. There is
 * no call by a path string: every request names its route in the route table (api/contract/routes.ts), so its
 * path, method, the input it takes and the answer it gives come from one place. (A beacon, which cannot go
 * through fetch's answer handling, takes its path from the same table: `API_ROUTES.callEnd.path`.)
 */
export const api = {
  call<D extends RouteDescriptor>(
    route: D,
    input: RouteInput<D>,
    opts: { signal?: AbortSignal; headers?: HeadersInit } = {},
  ): Promise<RouteResponse<D>> {
    return route.method === 'GET'
      ? getJson<RouteResponse<D>>(route.path, input as Record<string, QueryValue> | undefined, opts)
      : postJson<RouteResponse<D>>(route.path, input, opts);
  },
};

/** The readable message of any thrown value. */
export function errorMessage(err: unknown, fallback = REQUEST_FAILED): string {
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}
