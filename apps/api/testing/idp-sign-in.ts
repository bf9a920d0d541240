import { createHash, randomBytes } from 'node:crypto';
import { browserFetch, CookieJar } from '@customer-core/idp/testing';

// Drives the bundled identity provider the way okta-auth-js does for the portal's sign-in (spec
// section 4): authn (step 1), then a prompt=none authorize with the session token and PKCE and the
// token endpoint (step 3), over real HTTP; and the parts of step 5, the full-page redirect that
// presents the same session token again, for a caller that keeps the browser's cookies.

export interface IdpTokens {
  idToken: string;
  accessToken: string;
}

/** The part of fetch these steps use: a load generator passes a cheaper client of its own. */
export type IdpCall = (
  url: string | URL,
  init?: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
) => Promise<{ status: number; text(): Promise<string> }>;

/** Steps 1 and 3: the tokens, and the session token step 5 presents again. */
export async function signInThroughIdp(
  baseUrl: string,
  credentials: { username: string; password: string },
  clientId = 'customer-portal',
  portalUrl = baseUrl,
  call: IdpCall = fetch,
): Promise<IdpTokens & { sessionToken: string }> {
  const authn = await call(`${baseUrl}/api/v1/authn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (authn.status !== 200) throw new Error(`authn answered ${authn.status}`);
  const { sessionToken } = JSON.parse(await authn.text()) as { sessionToken: string };

  const tokens = await completeSignInWithSessionToken(baseUrl, sessionToken, clientId, portalUrl, call);
  if (!tokens) throw new Error('authorize gave no code for a fresh session token');
  return { ...tokens, sessionToken };
}

/**
 * Step 3 of the portal's sign-in: a prompt=none authorize with a one-time session token and PKCE,
 * then the token endpoint. Null when the identity provider refuses the session token (no code).
 */
export async function completeSignInWithSessionToken(
  baseUrl: string,
  sessionToken: string,
  clientId = 'customer-portal',
  /** The portal's origin, where the redirect URI is; the identity provider's own with the bundled one. */
  portalUrl = baseUrl,
  call: IdpCall = fetch,
): Promise<IdpTokens | null> {
  const authorized = await authorizeSilently(baseUrl, { sessionToken, clientId, portalUrl }, call);
  if (!('code' in authorized)) return null;
  return redeemCode(baseUrl, { ...authorized, clientId }, call);
}

/** What redeems an authorization code: the PKCE verifier and the redirect URI it was asked for. */
export interface CodeRequest {
  url: URL;
  verifier: string;
  redirectUri: string;
}

/** An authorize request as okta-auth-js makes it (code flow, PKCE), with what will redeem its code. */
function codeRequest(
  baseUrl: string,
  { clientId, portalUrl, params }: { clientId: string; portalUrl: string; params: Record<string, string> },
): CodeRequest {
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = `${portalUrl}/auth/callback`;
  const url = new URL(`${baseUrl}/oauth2/default/v1/authorize`);
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid profile email',
    state: randomBytes(16).toString('base64url'),
    nonce: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...params,
  }).toString();
  return { url, verifier, redirectUri };
}

/**
 * Step 5's authorize: `signInWithRedirect({ sessionToken })`, a full-page navigation (the answer a
 * redirect to the portal's callback with the code in its query). The provider honours it only with
 * the cookie of the session that redeemed the token in step 3, which the caller sends.
 */
export function redirectSignInRequest(
  baseUrl: string,
  sessionToken: string,
  clientId = 'customer-portal',
  portalUrl = baseUrl,
): CodeRequest {
  return codeRequest(baseUrl, { clientId, portalUrl, params: { sessionToken } });
}

/** The token endpoint: the code an authorize gave, redeemed with its PKCE verifier (step 5: the callback). */
export async function redeemCode(
  baseUrl: string,
  { code, verifier, redirectUri, clientId }: Omit<CodeRequest, 'url'> & { code: string; clientId: string },
  call: IdpCall = fetch,
): Promise<IdpTokens> {
  const token = await call(`${baseUrl}/oauth2/default/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      grant_type: 'authorization_code',
      code_verifier: verifier,
      code,
    }).toString(),
  });
  const answer = await token.text();
  if (token.status !== 200) throw new Error(`token endpoint answered ${token.status}: ${answer}`);
  const body = JSON.parse(answer) as { id_token: string; access_token: string };
  return { idToken: body.id_token, accessToken: body.access_token };
}

/** What a prompt=none authorize answered: a code (and what redeems it), or the provider's error. */
type SilentAuthorization = { code: string; verifier: string; redirectUri: string } | { error: string };

/** The hidden-iframe authorize of okta-auth-js (prompt=none, okta_post_message), with or without a session token. */
export function silentSignInRequest(
  baseUrl: string,
  sessionToken?: string,
  clientId = 'customer-portal',
  portalUrl = baseUrl,
): CodeRequest {
  return codeRequest(baseUrl, {
    clientId,
    portalUrl,
    params: {
      response_mode: 'okta_post_message',
      prompt: 'none',
      ...(sessionToken === undefined ? {} : { sessionToken }),
    },
  });
}

/** The hidden-iframe authorize, sent with `call`. */
async function authorizeSilently(
  baseUrl: string,
  { sessionToken, clientId, portalUrl }: { sessionToken?: string; clientId: string; portalUrl: string },
  call: IdpCall,
): Promise<SilentAuthorization> {
  const { url, verifier, redirectUri } = silentSignInRequest(baseUrl, sessionToken, clientId, portalUrl);
  const page = await (await call(url, { headers: { origin: portalUrl } })).text();
  const code = /"code"\s*:\s*"([^"]+)"/.exec(page)?.[1];
  if (code) return { code, verifier, redirectUri };
  return { error: /"error"\s*:\s*"([^"]+)"/.exec(page)?.[1] ?? 'no answer' };
}

/**
 * One browser at the identity provider: it signs in as the portal's sign-in does and keeps the
 * provider's session cookie, so that later it can ask for a new code without a password, as
 * okta-auth-js renews its tokens (prompt=none).
 */
export function idpBrowser(baseUrl: string, clientId = 'customer-portal', portalUrl = baseUrl) {
  const cookies = new CookieJar();
  const call: IdpCall = (url, init) => browserFetch(cookies, url, init);
  return {
    signIn: (credentials: { username: string; password: string }) =>
      signInThroughIdp(baseUrl, credentials, clientId, portalUrl, call),
    /** A prompt=none authorize with the cookie alone: the code, or the provider's error (login_required). */
    async authorizeSilently(): Promise<{ code?: string; error?: string }> {
      const answer = await authorizeSilently(baseUrl, { clientId, portalUrl }, call);
      return 'code' in answer ? { code: answer.code } : { error: answer.error };
    },
  };
}

export type IdpBrowser = ReturnType<typeof idpBrowser>;
