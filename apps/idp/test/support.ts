// Test harness: a real Fastify app with the identity provider, on a real port, driven over HTTP.
import { createHash, randomBytes } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import { pino } from 'pino';
import { createSecretBox, openDatabase, type SecretBox } from '@customer-core/database';
import { createTestDatabase, freePort, type TestDatabaseKind } from '@customer-core/database/testing';
import { browserFetch, CookieJar, signingKeyReuse, TEST_PASSWORD_HASH_COST } from '../testing/index.js';
import {
  createIdentityProvider,
  idpMigrations,
  type IdentityProvider,
  type IdentityProviderOptions,
  type IdpDatabase,
} from '../src/index.js';

// The tests' browser lives with the other test helpers; the provider's tests take it from here too.
export { browserFetch, CookieJar };

export const PORTAL = 'http://localhost:3000';
export const CLIENT_ID = 'customer-portal';
export const REDIRECT_URI = `${PORTAL}/auth/callback`;
export const POST_LOGOUT_URI = `${PORTAL}/auth/login`;

/** The password of the users these tests make. */
export const PASSWORD = 'Correct-horse-battery-1';

/** The key that seals the provider's secrets in these tests (one per test process, as one per deployment). */
export const TEST_SECRETS = createSecretBox([{ id: 'test', key: randomBytes(32) }]);

export interface TestDb {
  db: Kysely<IdpDatabase>;
  close(): Promise<void>;
}

export async function openTestDb(kind: TestDatabaseKind): Promise<TestDb> {
  const testDb = await createTestDatabase(kind, { idp: idpMigrations });
  const db = openDatabase<IdpDatabase>(testDb.location);
  return {
    db,
    async close() {
      await db.destroy();
      await testDb.drop();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  idp: IdentityProvider;
  /** Where requests go (the socket). */
  baseUrl: string;
  issuer: string;
  /** Every log line of the app and the identity provider. */
  logs: string[];
  close(): Promise<void>;
}

export async function startApp(
  db: Kysely<IdpDatabase>,
  options: {
    issuerPort?: number;
    sessionTokenTtlSeconds?: number;
    secureCookies?: boolean;
    secrets?: SecretBox;
  } & Pick<
    IdentityProviderOptions,
    | 'apiTokens'
    | 'usersApiRateLimit'
    | 'passwordPolicy'
    | 'mfaPolicy'
    | 'factorCodeMailer'
    | 'passwordHashCost'
  > = {},
): Promise<TestApp> {
  const port = await freePort();
  const issuer = `http://localhost:${options.issuerPort ?? port}/oauth2/default`;
  const logs: string[] = [];
  const logger: FastifyBaseLogger = pino(
    { level: 'debug' },
    { write: (line: string) => void logs.push(line) },
  );
  const app = Fastify({ loggerInstance: logger });
  // What the host app's helmet does: headers on the raw response before any route runs.
  app.addHook('onRequest', async (_request, reply) => {
    reply.raw.setHeader('X-Frame-Options', 'SAMEORIGIN');
    reply.raw.setHeader('Content-Security-Policy', "default-src 'self'; frame-ancestors 'none'");
    reply.raw.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  });
  const sharesProcessKey = options.secrets === undefined;
  if (sharesProcessKey) await signingKey.provide(db);
  const idp = await createIdentityProvider({
    db,
    secrets: options.secrets ?? TEST_SECRETS,
    issuer,
    clients: [
      { clientId: CLIENT_ID, redirectUris: [REDIRECT_URI], postLogoutRedirectUris: [POST_LOGOUT_URI] },
    ],
    allowedOrigins: [PORTAL],
    secureCookies: options.secureCookies ?? false,
    trustProxy: true,
    logger: logger.child({ component: 'idp' }),
    purgeIntervalSeconds: 0,
    ...(options.sessionTokenTtlSeconds ? { sessionTokenTtlSeconds: options.sessionTokenTtlSeconds } : {}),
    apiTokens: options.apiTokens,
    usersApiRateLimit: options.usersApiRateLimit,
    passwordPolicy: options.passwordPolicy,
    mfaPolicy: options.mfaPolicy,
    factorCodeMailer: options.factorCodeMailer,
    // Cheap unless the test is about the hashing's cost.
    passwordHashCost: options.passwordHashCost ?? TEST_PASSWORD_HASH_COST,
  });
  if (sharesProcessKey) await signingKey.keep(db);
  await app.register(idp.plugin);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    idp,
    baseUrl: `http://127.0.0.1:${port}`,
    issuer,
    logs,
    async close() {
      await app.close();
      await idp.close();
    },
  };
}

// Apps given secrets of their own make their own signing key; the rest share the process's.
const signingKey = signingKeyReuse();

export function authn(
  baseUrl: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; response: Response }> {
  return postJson(baseUrl, '/api/v1/authn', body, headers);
}

/** A POST of JSON (`body`, or a string as it is) to `path`, as okta-auth-js sends it, from an address of its own. */
export async function postJson(
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; response: Response }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...clientAddressHeader(),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, response };
}

export interface Pkce {
  verifier: string;
  challenge: string;
}
export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(
  baseUrl: string,
  params: {
    sessionToken?: string;
    prompt?: string;
    responseMode?: string;
    state?: string;
    challenge?: string;
    scope?: string;
  },
): URL {
  const url = new URL(`${baseUrl}/oauth2/default/v1/authorize`);
  const search: Record<string, string> = {
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: params.scope ?? 'openid profile email',
    state: params.state ?? randomBytes(16).toString('base64url'),
    nonce: randomBytes(16).toString('base64url'),
  };
  if (params.challenge)
    Object.assign(search, { code_challenge: params.challenge, code_challenge_method: 'S256' });
  if (params.prompt) search.prompt = params.prompt;
  if (params.responseMode) search.response_mode = params.responseMode;
  if (params.sessionToken !== undefined) search.sessionToken = params.sessionToken;
  url.search = new URLSearchParams(search).toString();
  return url;
}

export interface PostedMessage {
  data: Record<string, string>;
  targetOrigin: string;
  script: string;
  html: string;
}

/** Reads the okta_post_message page the way the browser would run it. */
export function postedMessage(html: string): PostedMessage {
  const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1];
  const data = /^\s*var data = (.*);$/m.exec(script ?? '')?.[1];
  const targetOrigin = /^\s*var targetOrigin = (.*);$/m.exec(script ?? '')?.[1];
  if (!script || !data || !targetOrigin)
    throw new Error(`not an okta_post_message page: ${html.slice(0, 300)}`);
  return {
    data: JSON.parse(data) as PostedMessage['data'],
    targetOrigin: JSON.parse(targetOrigin) as string,
    script,
    html,
  };
}

/** The hidden-iframe step of okta-auth-js' getWithoutPrompt({ sessionToken }). */
export async function iframeAuthorize(
  baseUrl: string,
  jar: CookieJar,
  params: { sessionToken?: string; state?: string; challenge?: string } = {},
): Promise<{ response: Response; message: PostedMessage; state: string }> {
  const state = params.state ?? randomBytes(16).toString('base64url');
  const url = authorizeUrl(baseUrl, {
    ...params,
    state,
    challenge: params.challenge ?? pkce().challenge,
    prompt: 'none',
    responseMode: 'okta_post_message',
  });
  const response = await browserFetch(jar, url);
  return { response, message: postedMessage(await response.text()), state };
}

export async function exchangeCode(
  baseUrl: string,
  code: string,
  verifier: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, string>; response: Response }> {
  const response = await fetch(`${baseUrl}/oauth2/default/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      grant_type: 'authorization_code',
      code_verifier: verifier,
      code,
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string>, response };
}

/** authn, then the hidden-iframe authorize, then the token endpoint: okta-auth-js' sign-in. */
export async function signIn(
  baseUrl: string,
  jar: CookieJar,
  credentials: { username: string; password: string },
  headers: Record<string, string> = {},
) {
  const result = await authn(baseUrl, credentials, headers);
  if (result.status !== 200) throw new Error(`authn answered ${result.status}`);
  const sessionToken = result.body.sessionToken as string;
  const { verifier, challenge } = pkce();
  const { message } = await iframeAuthorize(baseUrl, jar, { sessionToken, challenge });
  const code = message.data.code;
  if (!code) throw new Error(`no code: ${JSON.stringify(message.data)}`);
  const tokens = await exchangeCode(baseUrl, code, verifier);
  if (tokens.status !== 200) throw new Error(`token endpoint answered ${tokens.status}`);
  return { sessionToken, code, tokens: tokens.body };
}

let users = 0;
/** A user of `app`'s provider with PASSWORD and a login no other test's user has (`<prefix><n>@example.com`). */
export async function newUser(
  app: TestApp,
  prefix: string,
  name: { firstName: string; lastName: string } = { firstName: 'Rosa', lastName: 'Martinez' },
): Promise<{ login: string; id: string }> {
  users += 1;
  const login = `${prefix}${users}@example.com`;
  const user = await app.idp.users.create({ login, password: PASSWORD, ...name });
  return { login, id: user.id };
}

let counter = 0;
/** A fresh client address per test, so per-address limits do not leak between tests. */
export function clientAddressHeader(): Record<string, string> {
  counter += 1;
  return { 'x-forwarded-for': `198.51.100.${counter % 250}` };
}

/** A Users API token as the org would issue one (42 characters). */
export function apiToken(): string {
  return `00${randomBytes(30).toString('base64url')}`;
}

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

/** A Users API call as the portal's Okta adapter makes it: JSON, with `Authorization: SSWS <token>`. */
export async function oktaApi(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; authorization?: string; body?: unknown } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const authorization = options.authorization ?? (options.token ? `SSWS ${options.token}` : undefined);
  if (authorization) headers.authorization = authorization;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    headers: response.headers,
  };
}

/** A code as the borrower's authenticator app shows it, `stepsAhead` steps of 30 s from now. */
export function totpCode(secret: string, stepsAhead = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });
}

/** `count` six-digit codes, none of them the app's code a step either side of now. */
export function wrongTotpCodes(secret: string, count: number): string[] {
  const near = new Set([-1, 0, 1].map((step) => totpCode(secret, step)));
  const codes: string[] = [];
  for (let n = 0; codes.length < count; n += 1) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) codes.push(code);
  }
  return codes;
}
