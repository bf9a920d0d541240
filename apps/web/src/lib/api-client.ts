// Every call to the product API answers the uniform result of spec sections 3 and 7:
// success for HTTP 200-399 with the JSON body as data, an error with the response text for 400+,
// and status 500 with exceptionThrown when the call itself failed (network, unreadable body).

export interface ApiSuccess<T> {
  isError: false;
  status: number;
  data: T;
}

export interface ApiFailure {
  isError: true;
  status: number;
  responseText: string;
  exceptionThrown?: true;
}

export type ApiResult<T = unknown> = ApiSuccess<T> | ApiFailure;

/** A path from `apiPaths` (a parameterised one through its `href`). */
export type ApiPath = string;

export interface ApiRequestOptions {
  method?: 'GET' | 'POST';
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as a Bearer token. */
  token?: string;
  signal?: AbortSignal;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `baseUrl` is empty in the browser (same origin); tests point it at a local server. */
export function createApiClient(baseUrl = '') {
  async function request<T = unknown>(path: ApiPath, options: ApiRequestOptions = {}): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    try {
      const response = await fetch(`${baseUrl}${path}`, {
        method: options.method ?? 'GET',
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        credentials: 'same-origin',
        cache: 'no-store',
        signal: options.signal,
      });
      const text = await response.text();
      if (response.status < 200 || response.status >= 400) {
        return { isError: true, status: response.status, responseText: text };
      }
      // An empty success body (e.g. 204) carries no data; anything else must be JSON.
      return { isError: false, status: response.status, data: (text ? JSON.parse(text) : null) as T };
    } catch (error) {
      return { isError: true, status: 500, responseText: messageOf(error), exceptionThrown: true };
    }
  }

  return {
    request,
    get: <T = unknown>(path: ApiPath, options: Omit<ApiRequestOptions, 'method' | 'body'> = {}) =>
      request<T>(path, { ...options, method: 'GET' }),
    post: <T = unknown>(
      path: ApiPath,
      body: unknown,
      options: Omit<ApiRequestOptions, 'method' | 'body'> = {},
    ) => request<T>(path, { ...options, method: 'POST', body }),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

export const apiClient = createApiClient();
