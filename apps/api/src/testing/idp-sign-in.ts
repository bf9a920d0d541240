import { createHash, randomBytes } from 'node:crypto';

// Drives the bundled identity provider the way okta-auth-js does (authn, then a prompt=none
// authorize with the session token and PKCE, then the token endpoint), over real HTTP.

export interface IdpTokens {
  idToken: string;
  accessToken: string;
}

/** The part of fetch these steps use: a load generator passes a cheaper client of its own. */
export type IdpCall = (
  url: string | URL,
  init?: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
) => Promise<{ status: number; text(): Promise<string> }>;

export async function signInThroughIdp(
  baseUrl: string,
  credentials: { username: string; password: string },
  clientId = 'customer-portal',
  portalUrl = baseUrl,
  call: IdpCall = fetch,
): Promise<IdpTokens> {
  const authn = await call(`${baseUrl}/api/v1/authn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (authn.status !== 200) throw new Error(`authn answered ${authn.status}`);
  const { sessionToken } = JSON.parse(await authn.text()) as { sessionToken: string };

  const tokens = await completeSignInWithSessionToken(baseUrl, sessionToken, clientId, portalUrl, call);
  if (!tokens) throw new Error('authorize gave no code for a fresh session token');
  return tokens;
}

/**
 * Step 5 of the portal's sign-in: a prompt=none authorize with a one-time session token and PKCE,
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
  const issuer = `${baseUrl}/oauth2/default`;
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const redirectUri = `${portalUrl}/auth/callback`;
  const authorize = new URL(`${issuer}/v1/authorize`);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    response_mode: 'okta_post_message',
    prompt: 'none',
    scope: 'openid profile email',
    state,
    nonce: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    sessionToken,
  }).toString();
  const page = await (await call(authorize, { headers: { origin: portalUrl } })).text();
  const code = /"code"\s*:\s*"([^"]+)"/.exec(page)?.[1];
  if (!code) return null;

  const token = await call(`${issuer}/v1/token`, {
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
