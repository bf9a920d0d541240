import {
  addressOf,
  successAnswer,
  type CallInput as EndpointInput,
  type Endpoint,
  type SuccessBody,
} from '@customer-core/contracts';

// Every call to the product API answers the uniform result of spec sections 3 and 7:
// success for HTTP 200-399 with the JSON body as data, an error with the response text for 400+,
// and status 500 with exceptionThrown when the call itself failed (network, unreadable body). A call
// of an endpoint also checks a success answer with the endpoint's own schema (packages/contracts):
// an answer it does not declare is a failure, status 500 without exceptionThrown, so that the screen
// says its own sentence for it.

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

/** An address on the API: an endpoint's `href`, and its query if it takes one. */
export type ApiPath = string;

export interface ApiRequestOptions {
  method?: Endpoint['method'];
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as a Bearer token. */
  token?: string;
  /** Headers of the call's own (an operator's reason, AUDIT_REASON_HEADER); they replace none of the above. */
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

/** What a call of the endpoint sends, as whom (a Bearer token), with what headers, and what can cancel it. */
export type CallInput<E extends Endpoint> = EndpointInput<E> &
  Pick<ApiRequestOptions, 'token' | 'headers' | 'signal'>;

/** The input argument of a call: optional where the endpoint takes nothing that must be sent. */
export type CallArgs<E extends Endpoint> =
  object extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>];

/** The address (see addressOf) and the options of a call of the endpoint. */
export function requestOf<E extends Endpoint>(
  endpoint: E,
  input: CallInput<E>,
): [ApiPath, ApiRequestOptions] {
  const { body, token, headers, signal } = input;
  return [addressOf(endpoint, input), { method: endpoint.method, body, token, headers, signal }];
}

/** A success answer the endpoint does not declare: the API and the portal disagree (or a proxy answered). */
function undeclaredAnswer(endpoint: Endpoint, status: number, issue: string): ApiFailure {
  return {
    isError: true,
    status: 500,
    // eslint-disable-next-line lingui/no-unlocalized-strings -- for the error report; the screen says its own words
    responseText: `${endpoint.method} ${endpoint.path} answered ${status} with a body its schema refuses: ${issue}`,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `baseUrl` is empty in the browser (same origin); tests point it at a local server. */
export function createApiClient(baseUrl = '') {
  async function request<T = unknown>(path: ApiPath, options: ApiRequestOptions = {}): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    // eslint-disable-next-line lingui/no-unlocalized-strings -- a header, not words
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

  /**
   * A call of an endpoint of the contracts, typed by it: what it sends and what it answers, the answer
   * checked with the endpoint's own schema (its parsed value is the data).
   */
  async function send<E extends Endpoint>(
    endpoint: E,
    input: CallInput<E>,
  ): Promise<ApiResult<SuccessBody<E>>> {
    const result = await request(...requestOf(endpoint, input));
    if (result.isError) return result;
    const parsed = successAnswer(endpoint).safeParse(result.data);
    if (!parsed.success) return undeclaredAnswer(endpoint, result.status, parsed.error.message);
    return { ...result, data: parsed.data as SuccessBody<E> };
  }

  return {
    /** The bare transport: a path and options, the answer unchecked (what `send` is built on). */
    request,
    send,
    /** `send`, its input left out where the endpoint takes nothing that must be sent. */
    call: <E extends Endpoint>(endpoint: E, ...[input = {} as CallInput<E>]: CallArgs<E>) =>
      send(endpoint, input),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

export const apiClient = createApiClient();
