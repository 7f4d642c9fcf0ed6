/** Error from the API, carrying the server's `{error:{code,message,fields}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * Calls `/api{path}` with JSON in and out (a FormData body goes as multipart/form-data, the browser setting its
 * boundary); throws ApiError on any non-2xx answer or network failure.
 */
export async function api<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  let res: Response;
  const multipart = init.body instanceof FormData;
  try {
    res = await fetch(`/api${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: init.body === undefined || multipart ? {} : { 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : multipart ? (init.body as FormData) : JSON.stringify(init.body),
      credentials: 'same-origin',
      signal: init.signal,
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, 'network', 'Network error: the server could not be reached');
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = (data as { error?: { code?: string; message?: string; fields?: Record<string, string> } } | null)?.error;
    throw new ApiError(res.status, err?.code ?? 'http_error', err?.message ?? `Request failed (${res.status})`, err?.fields ?? {});
  }
  return data as T;
}

/** Query string from an object, leaving out empty values. */
export function qs(params: Record<string, string | number | undefined | null>) {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') s.set(k, String(v));
  const out = s.toString();
  return out ? `?${out}` : '';
}

/** The server's reason when it refused for something the person can act on (a 4xx with its own message). */
export const refusalReason = (error: unknown): string | null =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : null;

/** Field errors the server attached to a 400/409, keyed by field name. */
export const serverFieldErrors = (error: unknown): Record<string, string> => (error instanceof ApiError ? error.fields : {});

/** How long a failed load waits before its one more try (retryLoad). */
export const RETRY_DELAY_MS = 500;

/**
 * Whether a failed load is worth one more try: a network failure or a server error may pass (a restart, a moment
 * without the database); a refusal (404 missing, 403, 400) will not, so it shows at once.
 */
export function retryLoad(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  if (error instanceof ApiError) return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
  return true;
}
