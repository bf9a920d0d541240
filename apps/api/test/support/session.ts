import { authEndpoints } from '@customer-core/contracts';
import { DEMO_BORROWER } from '../../src/loans/demo-borrower.js';
import { mintSession, runningTestServer, signInThroughIdp } from '../../testing/index.js';

/**
 * The demo borrower's access token for a test whose subject is not signing in: a session minted
 * without a sign-in (`mintSession`), on the test server at `baseUrl`, as after a password sign-in.
 */
export async function demoAccessToken(baseUrl: string): Promise<string> {
  return (await mintSession(runningTestServer(baseUrl), DEMO_BORROWER.login)).accessToken;
}

/** Signs the demo borrower in through the bundled IdP and the token exchange: a product access token. */
export async function demoSignInThroughIdp(baseUrl: string): Promise<string> {
  const { idToken } = await signInThroughIdp(baseUrl, {
    username: DEMO_BORROWER.login,
    password: DEMO_BORROWER.password,
  });
  const response = await post(baseUrl, authEndpoints.tokenExchange.path, { token: idToken });
  return ((await response.json()) as { access_token: string }).access_token;
}

export function post(baseUrl: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

export async function json<T = Record<string, unknown>>(
  response: Response,
): Promise<{ status: number; body: T }> {
  return { status: response.status, body: (await response.json()) as T };
}

/** The key ids of the product token's public keys (JWKS), in the order the API lists them. */
export async function publicKeyIds(baseUrl: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}${authEndpoints.publicKeys.path}`);
  return ((await response.json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid);
}

/** The claims of a product access token, read without checking it (the API checks). */
export function claimsOf(token: string): { sid: string; sub: string; jti: string; iat: number; exp: number } {
  const payload = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ReturnType<typeof claimsOf>;
}
