import { z } from 'zod';
import { ACCESS_ERROR_CODES, ApiErrorSchema, GENERIC_ERROR_CODES, type ApiErrorCode } from './api-errors.js';
import { route, type Params, type Route } from './routes.js';

// One definition per endpoint of the API: its method, path, body, answers and error codes. The API
// builds its Fastify route schema from it (validation, serialization, OpenAPI); the portal and the CLI
// build their typed calls from it. A changed answer breaks the build on both sides.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH';

/**
 * Who may call: anyone, the signed-in borrower (Bearer product access token) or a trusted system
 * (Bearer service credential). Each brings the error codes of its check.
 */
export type EndpointAccess = keyof typeof ACCESS_ERROR_CODES;

/** The staff console's roles: `admin` may do all that `support` may, and more. */
export const STAFF_ROLES = ['support', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/**
 * Which staff members may make an operators' call from the console (the operator service credential
 * always may): the least role, and whether it needs a sign-in of the last few minutes (a destructive
 * action, CONSOLE_STEP_UP_SECONDS).
 */
export interface StaffAccess {
  role: StaffRole;
  stepUp: boolean;
}

/** Whether a staff member of `role` may make a call that needs `needed`. */
export const roleAllows = (role: StaffRole, needed: StaffRole) =>
  STAFF_ROLES.indexOf(role) >= STAFF_ROLES.indexOf(needed);

/** An endpoint's own refusals: HTTP status to the codes it may answer with. */
export type ErrorCodes = { readonly [status: number]: readonly ApiErrorCode[] };

type ParamsSchema<P extends string> = z.ZodObject<{ [K in keyof Params<P>]: z.ZodString }>;

interface EndpointDefinition<
  M extends HttpMethod,
  P extends string,
  B extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  R extends Record<number, z.ZodType>,
  A extends EndpointAccess,
  E extends ErrorCodes,
> {
  method: M;
  path: P;
  /** One line for the API's reference (OpenAPI), and for whoever reads this file. */
  summary: string;
  /** The group in the API's reference. */
  tag: string;
  access: A;
  /** Operators' calls only: who of the staff may make it; an admin, and no step-up, unless said. */
  staff?: Partial<StaffAccess>;
  body?: B;
  query?: Q;
  /** The success answers: status to body schema. */
  responses: R;
  /** Its own refusals; the access check's and the generic ones are added. */
  errors?: E;
}

export interface Endpoint<
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  R extends Record<number, z.ZodType> = Record<number, z.ZodType>,
  A extends EndpointAccess = EndpointAccess,
> extends Route<P> {
  method: M;
  summary: string;
  tag: string;
  access: A;
  /** Who of the staff may make it (operators' calls); null for every other access. */
  staff: StaffAccess | null;
  body: B;
  query: Q;
  /** The path's `:name` parameters, each any text (a route tells a malformed id from an unknown one). */
  params: ParamsSchema<P>;
  responses: R;
  /** Every refusal: its own, its access check's and the generic ones, status to codes. */
  errors: Record<number, readonly ApiErrorCode[]>;
}

export function endpoint<
  const M extends HttpMethod,
  const P extends string,
  R extends Record<number, z.ZodType>,
  const A extends EndpointAccess,
  const E extends ErrorCodes,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
>(definition: EndpointDefinition<M, P, B, Q, R, A, E>): Endpoint<M, P, B, Q, R, A> {
  const names = [...definition.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const errors: Record<number, ApiErrorCode[]> = {};
  const sources: ErrorCodes[] = [
    GENERIC_ERROR_CODES,
    ACCESS_ERROR_CODES[definition.access],
    definition.errors ?? {},
  ];
  for (const codes of sources) {
    for (const [status, list] of Object.entries(codes)) {
      errors[Number(status)] = [...new Set([...(errors[Number(status)] ?? []), ...list])];
    }
  }
  return {
    ...route(definition.path),
    method: definition.method,
    summary: definition.summary,
    tag: definition.tag,
    access: definition.access,
    staff:
      definition.access === 'operator'
        ? { role: definition.staff?.role ?? 'admin', stepUp: definition.staff?.stepUp ?? false }
        : null,
    body: definition.body as B,
    query: definition.query as Q,
    params: z.object(Object.fromEntries(names.map((name) => [name, z.string()]))) as ParamsSchema<P>,
    responses: definition.responses,
    errors,
  };
}

/** The body of an endpoint's success answer (its lowest 2xx status). */
export type SuccessBody<E extends Endpoint> = z.infer<E['responses'][SuccessStatus<E>]>;
type SuccessStatus<E extends Endpoint> = Extract<keyof E['responses'], 200 | 201 | 202 | 204>;

/** The schema of the endpoint's success answer (its lowest 2xx status), for a client to check what it got. */
export function successAnswer<E extends Endpoint>(endpoint: E): E['responses'][SuccessStatus<E>] {
  for (const status of [200, 201, 202, 204] as const) {
    if (isSuccessStatus(endpoint, status)) return endpoint.responses[status];
  }
  throw new Error(`${endpoint.method} ${endpoint.path} declares no success answer`);
}

function isSuccessStatus<E extends Endpoint>(endpoint: E, status: number): status is SuccessStatus<E> {
  return status in endpoint.responses;
}

/** What a call sends: the body its schema takes (input form: defaults may be left out). */
export type RequestBody<E extends Endpoint> = E['body'] extends z.ZodType ? z.input<E['body']> : undefined;
export type RequestQuery<E extends Endpoint> = E['query'] extends z.ZodType ? z.input<E['query']> : undefined;

const errorAnswers = new WeakMap<Endpoint, Record<number, typeof ApiErrorSchema>>();

/**
 * The error answer of each status, its `error` narrowed to the endpoint's codes for that status. Made
 * once per endpoint: every server built in a process (tests build hundreds) reuses them.
 */
export function errorResponses(endpoint: Endpoint): Record<number, typeof ApiErrorSchema> {
  let answers = errorAnswers.get(endpoint);
  if (!answers) {
    answers = Object.fromEntries(
      Object.entries(endpoint.errors).map(([status, codes]) => [
        status,
        ApiErrorSchema.extend({ error: z.enum(codes) }),
      ]),
    );
    errorAnswers.set(endpoint, answers);
  }
  return answers;
}

/** What a call of the endpoint sends: its path's parameters, its body and its query, each where it takes one. */
export type CallInput<E extends Endpoint> = (keyof Params<E['path']> extends never
  ? { params?: undefined }
  : { params: Params<E['path']> }) &
  (E['body'] extends undefined ? { body?: undefined } : { body: RequestBody<E> }) &
  (E['query'] extends undefined ? { query?: undefined } : { query?: RequestQuery<E> });

/** The address of a call: the endpoint's path with the call's parameters, and its query (unset fields left out). */
export function addressOf<E extends Endpoint>(endpoint: E, input: CallInput<E>): string {
  const href = endpoint.href(input.params ?? {});
  const query = new URLSearchParams(
    Object.entries(input.query ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([name, value]): [string, string] => [name, String(value)]),
  ).toString();
  return query ? `${href}?${query}` : href;
}
