import { z } from 'zod';
import { EmailSchema } from './credentials.js';
import { NewPasswordSchema } from './password.js';
import { API_ERROR_CODES, NEW_PASSWORD_ERROR_CODES } from './api-errors.js';
import { endpoint } from './endpoint.js';
import { LocaleSchema } from './locale-schema.js';
import { singleLineText } from './text.js';

// Tokens are compact JWTs or opaque strings; the cap stops oversized input before any parsing.
const TokenString = singleLineText('token is not well-formed')
  .min(1, 'token is required')
  .max(8192, 'token is too long');

export const TokenExchangeRequestSchema = z.object({ token: TokenString });
export type TokenExchangeRequest = z.infer<typeof TokenExchangeRequestSchema>;

export const LogoutRequestSchema = z.object({ access_token: TokenString });
export type LogoutRequest = z.infer<typeof LogoutRequestSchema>;

export const TokenRefreshRequestSchema = z.object({ token: TokenString });
export type TokenRefreshRequest = z.infer<typeof TokenRefreshRequestSchema>;

export const ValidateRequestSchema = z.object({ access_token: TokenString });
export type ValidateRequest = z.infer<typeof ValidateRequestSchema>;

export const LookupTokenExchangeRequestSchema = z.object({ token: TokenString });
export type LookupTokenExchangeRequest = z.infer<typeof LookupTokenExchangeRequestSchema>;

export const MintLookupTokenRequestSchema = z.object({
  borrowerId: z.uuid('borrowerId must be a borrower id (UUID)'),
});
export type MintLookupTokenRequest = z.infer<typeof MintLookupTokenRequestSchema>;

export const MintLookupTokenResponseSchema = z.object({ token: z.string(), expiresAt: z.string() });
export type MintLookupTokenResponse = z.infer<typeof MintLookupTokenResponseSchema>;

export const AccessTokenResponseSchema = z.object({ access_token: z.string() });

// Getting back in (e-mailed links). Both send calls answer the same whether or not the address is known.
export const PasswordResetRequestSchema = z.object({ email: EmailSchema });
export type PasswordResetRequest = z.infer<typeof PasswordResetRequestSchema>;

export const SendMagicLinkRequestSchema = z.object({
  email: EmailSchema,
  /** Where the borrower meant to go; carried by the link (same-origin paths only). */
  returnTo: singleLineText().max(2048).optional(),
});
export type SendMagicLinkRequest = z.infer<typeof SendMagicLinkRequestSchema>;

export const LINK_SENT_MESSAGE = 'If an account exists for that email, we sent a link.';
export const LinkSentResponseSchema = z.object({ message: z.literal(LINK_SENT_MESSAGE) });
export type LinkSentResponse = z.infer<typeof LinkSentResponseSchema>;

export const PasswordResetFinishRequestSchema = z.object({ token: TokenString, password: NewPasswordSchema });
export type PasswordResetFinishRequest = z.infer<typeof PasswordResetFinishRequestSchema>;
export const PasswordResetFinishResponseSchema = z.object({ passwordChanged: z.literal(true) });

export const PasswordResetCheckRequestSchema = z.object({ token: TokenString });
export type PasswordResetCheckRequest = z.infer<typeof PasswordResetCheckRequestSchema>;
/** A usable link; a dead one is answered 400 invalid_link, as the finish call would. */
export const PasswordResetCheckResponseSchema = z.object({ usable: z.literal(true) });

export const UnrecognizedSignInRequestSchema = z.object({ token: TokenString });
export type UnrecognizedSignInRequest = z.infer<typeof UnrecognizedSignInRequestSchema>;
/** Every session has ended; the token of a password-reset link for the borrower's next step. */
export const UnrecognizedSignInResponseSchema = z.object({ resetToken: z.string() });
export type UnrecognizedSignInResponse = z.infer<typeof UnrecognizedSignInResponseSchema>;

export const MagicLinkLoginRequestSchema = z.object({ token: TokenString });
export type MagicLinkLoginRequest = z.infer<typeof MagicLinkLoginRequestSchema>;
/**
 * The product token, plus a one-time IdP session token the page completes the IdP sign-in with (null
 * where the identity provider cannot mint one: a hosted org, for a sign-in link).
 */
export const LinkSignedInSchema = z.object({
  access_token: z.string(),
  sessionToken: z.string().nullable(),
  returnTo: z.string().nullable(),
});
export type LinkSignedIn = z.infer<typeof LinkSignedInSchema>;
/**
 * A borrower with a second factor, or one to enrol (MFA_POLICY=required): the identity provider's
 * transaction (Okta's stateToken) asks for it next, and the sign-in ends as a password sign-in does.
 */
export const LinkFactorStepSchema = z.object({ stateToken: z.string(), returnTo: z.string().nullable() });
export type LinkFactorStep = z.infer<typeof LinkFactorStepSchema>;
export const MagicLinkLoginResponseSchema = z.union([LinkSignedInSchema, LinkFactorStepSchema]);
export type MagicLinkLoginResponse = z.infer<typeof MagicLinkLoginResponseSchema>;
/**
 * Registration signs the new borrower in the same way a sign-in link does: at once, or, where every
 * borrower must have a second factor, after enrolling one in the identity provider's transaction.
 */
export const RegistrationResponseSchema = MagicLinkLoginResponseSchema;
export type RegistrationResponse = MagicLinkLoginResponse;

/** A sign-in link for a borrower whose second factor the directory cannot ask for after it. */
export const LINK_NEEDS_PASSWORD_MESSAGE =
  'Your account uses two-step verification, so a sign-in link can’t sign you in. Sign in with your password instead.';
export type AccessTokenResponse = z.infer<typeof AccessTokenResponseSchema>;

export const LogoutResponseSchema = z.object({ revoked: z.boolean() });
export type LogoutResponse = z.infer<typeof LogoutResponseSchema>;

/** validate: a token that is good now (a refused one is answered 400/401 with its reason). */
export const ValidateResponseSchema = z.object({
  valid: z.literal(true),
  sub: z.string(),
  email: z.string(),
  scope: z.string(),
  exp: z.number(),
  sessionExpiresAt: z.number().describe('seconds since the epoch after which refresh is refused'),
});
export type ValidateResponse = z.infer<typeof ValidateResponseSchema>;

export const ProfileSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  externalIds: z.array(z.string()),
  /**
   * The borrower's language as their identity-provider profile keeps it (see
   * accountEndpoints.setLanguage); null where the portal cannot read it: an identity of another
   * provider, or the directory not answering just now.
   */
  locale: LocaleSchema.nullable(),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** The product token's public keys, as a JSON Web Key Set. */
export const PublicKeysSchema = z.object({
  keys: z.array(
    z.object({
      kty: z.string(),
      kid: z.string(),
      alg: z.string(),
      use: z.string(),
      crv: z.string(),
      x: z.string(),
      y: z.string(),
    }),
  ),
});
export type PublicKeys = z.infer<typeof PublicKeysSchema>;

const ID_TOKEN_SPENT = [
  API_ERROR_CODES.idTokenUsed,
  API_ERROR_CODES.idTokenRevoked,
  API_ERROR_CODES.idpSessionEnded,
] as const;
const ACCESS_TOKEN_REFUSED = { 400: ['malformed_token'], 401: ['invalid_token'] } as const;
/** Signing in and out, the session's tokens, and getting back in by e-mailed link (spec section 7). */
export const authEndpoints = {
  profile: endpoint({
    method: 'GET',
    path: '/api/auth/profile',
    tag: 'borrower',
    summary: "The signed-in borrower's profile",
    access: 'borrower',
    responses: { 200: ProfileSchema },
    errors: { 404: ['not_found'] },
  }),
  publicKeys: endpoint({
    method: 'GET',
    path: '/api/auth/public-keys',
    tag: 'session',
    summary: "The product access token's public keys (JWKS)",
    access: 'public',
    responses: { 200: PublicKeysSchema },
  }),
  logout: endpoint({
    method: 'POST',
    path: '/api/auth/logout',
    tag: 'session',
    summary: 'Sign out: revoke the session of this access token',
    access: 'public',
    body: LogoutRequestSchema,
    responses: { 200: LogoutResponseSchema },
    errors: ACCESS_TOKEN_REFUSED,
  }),
  magicLinkLogin: endpoint({
    method: 'POST',
    path: '/api/auth/magic-link-login',
    tag: 'e-mailed links',
    summary: "Sign in with a sign-in link's token (once)",
    access: 'public',
    body: MagicLinkLoginRequestSchema,
    responses: { 200: MagicLinkLoginResponseSchema },
    errors: { 400: [API_ERROR_CODES.invalidLink], 409: [API_ERROR_CODES.linkNeedsPassword] },
  }),
  passwordReset: endpoint({
    method: 'POST',
    path: '/api/auth/password-reset',
    tag: 'e-mailed links',
    summary: 'E-mail a password-reset link (the same answer for any address)',
    access: 'public',
    body: PasswordResetRequestSchema,
    responses: { 200: LinkSentResponseSchema },
  }),
  passwordResetFinish: endpoint({
    method: 'POST',
    path: '/api/auth/password-reset-finish',
    tag: 'e-mailed links',
    summary: "Set a new password with a password-reset link's token (once)",
    access: 'public',
    body: PasswordResetFinishRequestSchema,
    responses: { 200: PasswordResetFinishResponseSchema },
    errors: { 400: [API_ERROR_CODES.invalidLink, ...NEW_PASSWORD_ERROR_CODES] },
  }),
  /** Whether a password-reset link still works, without spending it (POST: the token stays out of URLs). */
  passwordResetCheck: endpoint({
    method: 'POST',
    path: '/api/auth/password-reset-check',
    tag: 'e-mailed links',
    summary: 'Whether a password-reset link still works (spends nothing)',
    access: 'public',
    body: PasswordResetCheckRequestSchema,
    responses: { 200: PasswordResetCheckResponseSchema },
    errors: { 400: [API_ERROR_CODES.invalidLink] },
  }),
  sendMagicLinkEmail: endpoint({
    method: 'POST',
    path: '/api/auth/send-magic-link-email',
    tag: 'e-mailed links',
    summary: 'E-mail a sign-in link (the same answer for any address)',
    access: 'public',
    body: SendMagicLinkRequestSchema,
    responses: { 200: LinkSentResponseSchema },
  }),
  /** Sign-in step 4 (spec section 4): the identity provider's ID token becomes a product access token. */
  tokenExchange: endpoint({
    method: 'POST',
    path: '/api/auth/token-exchange',
    tag: 'session',
    summary: "Exchange the identity provider's ID token for a product access token (once)",
    access: 'public',
    body: TokenExchangeRequestSchema,
    responses: { 200: AccessTokenResponseSchema },
    /** 403: a staff member's identity, which signs in to the console only. */
    errors: { 400: ['malformed_token'], 401: ['invalid_token', ...ID_TOKEN_SPENT], 403: ['forbidden'] },
  }),
  lookupTokenExchange: endpoint({
    method: 'POST',
    path: '/api/auth/external/lookup-token-exchange',
    tag: 'trusted systems',
    summary: 'Exchange a one-time lookup token for an access token',
    access: 'public',
    body: LookupTokenExchangeRequestSchema,
    responses: { 200: AccessTokenResponseSchema },
    errors: { 401: ['invalid_token'] },
  }),
  /** For trusted systems (service credential): mints the one-time token lookup-token-exchange takes. */
  mintLookupToken: endpoint({
    method: 'POST',
    path: '/api/auth/external/lookup-token',
    tag: 'trusted systems',
    summary: 'Mint a one-time lookup token for a borrower (service credential)',
    access: 'service',
    body: MintLookupTokenRequestSchema,
    responses: { 200: MintLookupTokenResponseSchema },
    errors: { 404: ['not_found'] },
  }),
  tokenRefresh: endpoint({
    method: 'POST',
    path: '/api/auth/token-refresh',
    tag: 'session',
    summary: 'Refresh an access token (once: the presented token is spent)',
    access: 'public',
    body: TokenRefreshRequestSchema,
    responses: { 200: AccessTokenResponseSchema },
    errors: ACCESS_TOKEN_REFUSED,
  }),
  validate: endpoint({
    method: 'POST',
    path: '/api/auth/validate',
    tag: 'session',
    summary: 'Validate an access token',
    access: 'public',
    body: ValidateRequestSchema,
    responses: { 200: ValidateResponseSchema },
    errors: ACCESS_TOKEN_REFUSED,
  }),
  /** The "This wasn't me" link of a new-sign-in e-mail: ends every session, starts a password reset. */
  unrecognizedSignIn: endpoint({
    method: 'POST',
    path: '/api/auth/unrecognized-sign-in',
    tag: 'e-mailed links',
    summary: 'Report a sign-in the borrower did not make: end every session, start a password reset',
    access: 'public',
    body: UnrecognizedSignInRequestSchema,
    responses: { 200: UnrecognizedSignInResponseSchema },
    errors: { 400: [API_ERROR_CODES.invalidLink] },
  }),
};
