import { z } from 'zod';

// The product auth API (spec section 7): paths and bodies, validated by the route and typed for the client.
export const apiPaths = {
  auth: {
    profile: '/api/auth/profile',
    publicKeys: '/api/auth/public-keys',
    logout: '/api/auth/logout',
    magicLinkLogin: '/api/auth/magic-link-login',
    passwordReset: '/api/auth/password-reset',
    passwordResetFinish: '/api/auth/password-reset-finish',
    sendMagicLinkEmail: '/api/auth/send-magic-link-email',
    tokenExchange: '/api/auth/token-exchange',
    lookupTokenExchange: '/api/auth/external/lookup-token-exchange',
    tokenRefresh: '/api/auth/token-refresh',
    validate: '/api/auth/validate',
  },
} as const;

// Tokens are compact JWTs or opaque strings; the cap stops oversized input before any parsing.
const TokenString = z.string().min(1, 'token is required').max(8192, 'token is too long');

export const TokenExchangeRequestSchema = z.object({ token: TokenString });
export type TokenExchangeRequest = z.infer<typeof TokenExchangeRequestSchema>;

export const LogoutRequestSchema = z.object({ access_token: TokenString });
export type LogoutRequest = z.infer<typeof LogoutRequestSchema>;

export const AccessTokenResponseSchema = z.object({ access_token: z.string() });
export type AccessTokenResponse = z.infer<typeof AccessTokenResponseSchema>;

export const LogoutResponseSchema = z.object({ revoked: z.boolean() });
export type LogoutResponse = z.infer<typeof LogoutResponseSchema>;

/** Body of every 4xx/5xx answer of the API. 5xx bodies carry only a generic message and the request id. */
export const ApiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  requestId: z.string().optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;
