import { z } from 'zod';
import { EmailSchema } from './credentials.js';
import { NewPasswordSchema } from './password.js';
import { route } from './routes.js';
import { singleLineText } from './text.js';

// The product auth API (spec section 7): paths and bodies, validated by the route and typed for the client.
export const apiPaths = {
  auth: {
    profile: '/api/auth/profile',
    publicKeys: '/api/auth/public-keys',
    logout: '/api/auth/logout',
    magicLinkLogin: '/api/auth/magic-link-login',
    passwordReset: '/api/auth/password-reset',
    passwordResetFinish: '/api/auth/password-reset-finish',
    /** Whether a password-reset link still works, without spending it (POST: the token stays out of URLs). */
    passwordResetCheck: '/api/auth/password-reset-check',
    sendMagicLinkEmail: '/api/auth/send-magic-link-email',
    tokenExchange: '/api/auth/token-exchange',
    lookupTokenExchange: '/api/auth/external/lookup-token-exchange',
    /** For trusted systems (service credential): mints the one-time token lookup-token-exchange takes. */
    mintLookupToken: '/api/auth/external/lookup-token',
    tokenRefresh: '/api/auth/token-refresh',
    validate: '/api/auth/validate',
    /** The "This wasn't me" link of a new-sign-in e-mail: ends every session, starts a password reset. */
    unrecognizedSignIn: '/api/auth/unrecognized-sign-in',
  },
  /** The signed-in borrower's loans and their checkout (Bearer product access token). */
  borrower: {
    /** Every document of every loan of the borrower, grouped by loan; one document; its signed PDF. */
    documents: '/api/borrower/documents',
    document: route('/api/borrower/documents/:documentId'),
    signedDocumentPdf: route('/api/borrower/documents/:documentId/signed.pdf'),
    loans: '/api/borrower/loans',
    loan: route('/api/borrower/loans/:loanId'),
    /** Starts the loan's document checkout (again: no change). */
    startCheckout: route('/api/borrower/loans/:loanId/checkout'),
    reviewDocument: route('/api/borrower/loans/:loanId/documents/:documentId/review'),
    signDocument: route('/api/borrower/loans/:loanId/documents/:documentId/sign'),
  },
  registration: {
    /** Who an invitation is for (POST: the token stays out of URLs and logs). */
    invitation: '/api/registration/invitation',
    /** Creates the identity with the chosen password and signs the borrower in. */
    register: '/api/registration',
  },
  applications: {
    start: '/api/applications',
    verifyEmail: '/api/applications/email-verification',
  },
  /** Operators' calls (service credential), driven by `npm run cli`. */
  operator: {
    invitations: '/api/operator/invitations',
    loans: '/api/operator/loans',
    loan: route('/api/operator/loans/:reference'),
    /** Records an instalment of the loan's payment schedule (one per due day), paid or not. */
    loanInstalments: route('/api/operator/loans/:reference/instalments'),
    borrowers: '/api/operator/borrowers',
    signingKeyRotations: '/api/operator/signing-key-rotations',
  },
} as const;

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
 * A borrower with a second factor: the identity provider's transaction (Okta's stateToken) asks for
 * it next, and the sign-in ends as a password sign-in does.
 */
export const LinkFactorStepSchema = z.object({ stateToken: z.string(), returnTo: z.string().nullable() });
export type LinkFactorStep = z.infer<typeof LinkFactorStepSchema>;
export const MagicLinkLoginResponseSchema = z.union([LinkSignedInSchema, LinkFactorStepSchema]);
export type MagicLinkLoginResponse = z.infer<typeof MagicLinkLoginResponseSchema>;
/** Registration signs the new borrower in the same way a sign-in link does. */
export const RegistrationResponseSchema = LinkSignedInSchema;
export type RegistrationResponse = LinkSignedIn;

/** A sign-in link for a borrower whose second factor the directory cannot ask for after it. */
export const LINK_NEEDS_PASSWORD_MESSAGE =
  'Your account uses two-step verification, so a sign-in link can’t sign you in. Sign in with your password instead.';
export type AccessTokenResponse = z.infer<typeof AccessTokenResponseSchema>;

export const LogoutResponseSchema = z.object({ revoked: z.boolean() });
export type LogoutResponse = z.infer<typeof LogoutResponseSchema>;

/** Why an access token was refused (validate, refresh, and every Bearer call). */
export const TokenRefusalReasonSchema = z.enum([
  'malformed',
  'unsupported_algorithm',
  'bad_signature',
  'wrong_issuer',
  'wrong_audience',
  'expired',
  'revoked',
  'session_expired',
  /** A newer token of the same session replaced it (refreshed): the holder should use that one. */
  'superseded',
]);
export type TokenRefusalReason = z.infer<typeof TokenRefusalReasonSchema>;

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

/** Error codes (ApiError.error) a screen tells apart. */
export const API_ERROR_CODES = {
  /** Unknown, expired or used e-mailed link: reset, sign-in, invitation or verification. */
  invalidLink: 'invalid_link',
  /** The password is on the list of common passwords. */
  passwordTooCommon: 'password_too_common',
  /** The identity provider's password policy refused the password (a hosted org's may differ from ours). */
  passwordRefused: 'password_refused',
  /** The invited e-mail address already has an account. */
  alreadyRegistered: 'already_registered',
  /** Token exchange: this ID token has been exchanged already (each is accepted once). */
  idTokenUsed: 'id_token_used',
  /** Token exchange: the ID token was issued before the borrower's password change or sign-out everywhere. */
  idTokenRevoked: 'id_token_revoked',
  /** Token exchange: the identity provider session the ID token came from has ended (signed out). */
  idpSessionEnded: 'idp_session_ended',
  /** Sign-in link: the borrower's second factor cannot be asked for after a link (a hosted org). */
  linkNeedsPassword: 'link_needs_password',
} as const;

/** Body of every 4xx/5xx answer of the API. 5xx bodies carry only a generic message and the request id. */
export const ApiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  /** For refused access tokens: which check failed. */
  reason: TokenRefusalReasonSchema.optional(),
  requestId: z.string().optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;
